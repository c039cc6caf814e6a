import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type { AnalyticsChatSession, AnalyticsChatStatus } from '../../../core/types/api';
import { ChatMessageModel, ChatSessionModel } from '../models';

/** Most sessions one analytics answer reads (the durations and trends of a range; pages are smaller). */
export const MAX_ANALYTICS_SESSIONS = 10_000;

/**
 * SPEC §3 'Chat session row (analytics)' from the live-chat tables, read-only: the chats created in
 * [from, to] (epoch ms), newest first, `offset`/`limit` of them, with their message counts by sender.
 * duration: minutes from creation to the end (or now while open), one decimal; waitTime: seconds from
 * creation until an agent accepted (or it ended, or now).
 */
export async function analyticsSessions(db: Db, organizationId: number, range: { from: number; to: number },
    page: { offset: number; limit: number } = { offset: 0, limit: MAX_ANALYTICS_SESSIONS }): Promise<{ total: number; rows: AnalyticsChatSession[] }> {
    const base = () => ChatSessionModel.query(db).where('organization_id', organizationId).whereBetween('created_at', [range.from, range.to]);
    const [{ n }] = await base().count({ n: '*' }).castTo<Array<{ n: number | string }>>();
    const sessions = await base().orderBy('created_at', 'desc').orderBy('id', 'desc')
        .offset(page.offset).limit(Math.min(page.limit, MAX_ANALYTICS_SESSIONS));
    const counts = sessions.length
        ? await ChatMessageModel.query(db).select('chat_session_id', 'sender').count({ n: '*' })
            .whereIn('chat_session_id', sessions.map((s) => s.id)).groupBy('chat_session_id', 'sender')
            .castTo<Array<{ chat_session_id?: number; chatSessionId?: number; sender: string; n: number | string }>>()
        : [];
    const now = Date.now();
    return {
        total: Number(n),
        rows: sessions.map((s) => {
            const mine = counts.filter((c) => Number(c.chatSessionId ?? c.chat_session_id) === s.id);
            const of = (sender: string) => mine.filter((c) => c.sender === sender).reduce((sum, c) => sum + Number(c.n), 0);
            const customerMessages = of('customer');
            const agentMessages = of('agent');
            const end = s.endedAt ?? now;
            return {
                sessionId: s.sessionId,
                phoneNumber: s.phoneNumber,
                status: s.status as AnalyticsChatStatus,
                messageCount: mine.reduce((sum, c) => sum + Number(c.n), 0),
                customerMessages,
                agentMessages,
                duration: Math.round(Math.max(0, end - s.createdAt) / 6000) / 10,
                waitTime: Math.round(Math.max(0, (s.acceptedAt ?? end) - s.createdAt) / 1000),
                startedAt: iso(s.createdAt)!,
                endedAt: iso(s.endedAt),
                isStarred: s.isStarred,
                isArchived: s.isArchived
            };
        })
    };
}
