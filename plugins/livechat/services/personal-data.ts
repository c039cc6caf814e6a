import type { Knex } from 'knex';
import type { Db } from '../../../core/db';
import { chunks, containsClause, deleteOlder, Person, PersonalDataHolder, PersonScope, plainRows, RetentionCutoffs } from '../../../core/privacy/personal-data';

/**
 * What livechat keeps about a customer (issue 25): their chats and left messages (phone, email, name, page), every
 * message of those chats, and the mails about them in the outbox (transcripts and left messages to the store, replies
 * to the customer). Found by phone, by email, and by the widget sessions any plugin tied to the person.
 */
function chatsOf(db: Db, scope: PersonScope): Knex.QueryBuilder {
    return db('chat_sessions').where('organization_id', scope.organizationId).where((q) => {
        if (scope.phone) {
            q.orWhere('phone_number', scope.phone);
        }
        if (scope.email) {
            q.orWhereRaw('lower(customer_email) = ?', [scope.email]);
        }
        for (const part of chunks(scope.sessionIds)) {
            q.orWhereIn('widget_session_id', part).orWhereIn('session_id', part);
        }
        if (!scope.phone && !scope.email && !scope.sessionIds.length) {
            q.whereRaw('1 = 0');
        }
    });
}

/** The store's mails that name the person: to their address, or naming their phone, email or one of their chats. */
function mailsOf(db: Db, scope: PersonScope, chatIds: string[]): Knex.QueryBuilder {
    return db('email_outbox').where('organization_id', scope.organizationId).where((q) => {
        const needles = [scope.phone, scope.email, ...chatIds.map((id) => `Session: ${id}`)].filter((n): n is string => !!n);
        if (scope.email) {
            q.orWhereRaw('lower(to_address) = ?', [scope.email]);
        }
        for (const needle of needles) {
            const [sql, bindings] = containsClause('body_text', needle);
            q.orWhereRaw(sql, bindings);
        }
        if (!needles.length) {
            q.whereRaw('1 = 0');
        }
    });
}

export const livechatPersonalData: PersonalDataHolder = {
    plugin: 'livechat',
    tables: ['chat_sessions', 'chat_messages', 'email_outbox'],

    async sessionsOf(person: Person, db: Db): Promise<string[]> {
        const rows = await chatsOf(db, { ...person, sessionIds: [] }).select('widget_session_id', 'session_id');
        return rows.map((r: { widget_session_id: string | null; session_id: string }) => r.widget_session_id ?? r.session_id);
    },

    async export(scope: PersonScope, db: Db) {
        const chats = await chatsOf(db, scope).select('*').orderBy('id');
        const ids: number[] = chats.map((c: { id: number }) => c.id);
        const messages = [];
        for (const part of chunks(ids)) {
            messages.push(...await db('chat_messages').whereIn('chat_session_id', part).orderBy(['chat_session_id', 'seq']));
        }
        const mails = await mailsOf(db, scope, chats.map((c: { session_id: string }) => c.session_id)).select('*').orderBy('id');
        return { chat_sessions: plainRows(chats), chat_messages: plainRows(messages), email_outbox: plainRows(mails) };
    },

    async erase(scope: PersonScope, db: Db) {
        const chats = await chatsOf(db, scope).select('id', 'session_id');
        const ids: number[] = chats.map((c: { id: number }) => c.id);
        let messages = 0;
        let sessions = 0;
        const mails = await mailsOf(db, scope, chats.map((c: { session_id: string }) => c.session_id)).delete();
        for (const part of chunks(ids)) {
            messages += await db('chat_messages').whereIn('chat_session_id', part).delete();
            sessions += await db('chat_sessions').whereIn('id', part).delete();
        }
        return { chat_sessions: sessions, chat_messages: messages, email_outbox: mails };
    },

    /**
     * Chats (and left messages) that ended before the 'chats' cutoff go with their messages; a chat still waiting or
     * connected stays whatever its age. Mails go after the 'mail' window.
     */
    async retain(organizationId: number, cutoffs: RetentionCutoffs, db: Db) {
        let sessions = 0;
        let messages = 0;
        if (cutoffs.chats !== undefined) {
            const old: number[] = (await db('chat_sessions').where('organization_id', organizationId).whereNotIn('status', ['waiting', 'agent_connected'])
                .where((q) => q.where('ended_at', '<', cutoffs.chats!).orWhere((o) => o.whereNull('ended_at').where('created_at', '<', cutoffs.chats!)))
                .select('id')).map((r: { id: number }) => r.id);
            for (const part of chunks(old)) {
                messages += await db('chat_messages').whereIn('chat_session_id', part).delete();
                sessions += await db('chat_sessions').whereIn('id', part).delete();
            }
        }
        return { chat_sessions: sessions, chat_messages: messages, email_outbox: await deleteOlder(db, 'email_outbox', 'created_at', organizationId, cutoffs.mail) };
    }
};
