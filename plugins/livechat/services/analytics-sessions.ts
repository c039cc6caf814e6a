import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type { AnalyticsChatSession, AnalyticsChatStatus } from '../../../core/types/api';
import { ChatMessageModel, ChatSessionModel } from '../models';

/**
 * THE definition of a chat session in analytics (issue 23): a live-chat request that created a chat — waiting,
 * connected or ended, whatever its end — created in [from, to]. Not an event (`live_chat_requested` counts clicks,
 * retries and requests that found nobody), and not a left message (stored as an ended chat with the end reason
 * `offline_message`, but no live chat took place). The Chat Sessions card, the Chat tab and its CSV all read this.
 */
export function chatSessionsOf(db: Db, organizationId: number, range: { from: number; to: number }) {
    return ChatSessionModel.query(db).where('organization_id', organizationId).whereBetween('created_at', [range.from, range.to])
        .where((q) => q.whereNull('end_reason').orWhereNot('end_reason', 'offline_message'));
}

/** How many chat sessions (chatSessionsOf) the range holds. */
export async function chatSessionCount(db: Db, organizationId: number, range: { from: number; to: number }): Promise<number> {
    const [{ n }] = await chatSessionsOf(db, organizationId, range).count({ n: '*' }).castTo<Array<{ n: number | string }>>();
    return Number(n);
}

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
    const base = () => chatSessionsOf(db, organizationId, range);
    const total = await chatSessionCount(db, organizationId, range);
    const sessions = await base().orderBy('created_at', 'desc').orderBy('id', 'desc')
        .offset(page.offset).limit(Math.min(page.limit, MAX_ANALYTICS_SESSIONS));
    const counts = sessions.length
        ? await ChatMessageModel.query(db).select('chat_session_id', 'sender').count({ n: '*' })
            .whereIn('chat_session_id', sessions.map((s) => s.id)).groupBy('chat_session_id', 'sender')
            .castTo<Array<{ chat_session_id?: number; chatSessionId?: number; sender: string; n: number | string }>>()
        : [];
    const now = Date.now();
    return {
        total,
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
