import type { Db } from '../../../core/db';
import { deleteOlder, RetentionCutoffs, sessionsByPhone, tableHolder } from '../../../core/privacy/personal-data';

/**
 * What the AI agent keeps about a customer (issue 25): their questions and its answers (by the verified phone, or the
 * widget sessions tied to them), and the tools it ran in those sessions.
 */
export const aiPersonalData = {
    ...tableHolder('ai', {
        ai_chat_history: { phone: 'phone_number', session: 'session_id' },
        ai_function_calls: { session: 'session_id' }
    }, {
        sessionsOf: (person, db) => sessionsByPhone(db, 'ai_chat_history', { phone: 'phone_number', session: 'session_id' }, person)
    }),
    async retain(organizationId: number, cutoffs: RetentionCutoffs, db: Db) {
        return {
            ai_chat_history: await deleteOlder(db, 'ai_chat_history', 'created_at', organizationId, cutoffs.ai),
            ai_function_calls: await deleteOlder(db, 'ai_function_calls', 'created_at', organizationId, cutoffs.ai)
        };
    }
};
