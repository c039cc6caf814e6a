import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import { e164 } from '../../../core/http/fields';
import type { Services } from '../../../core/types';
import type { CannedReply, ChatSession, CustomerContext, CustomerOrder, HistoryPage, LeftMessagesPage, LeftMessageState, Sender } from '../../../core/types/api';

export type { CannedReply, CustomerContext, CustomerOrder, HistoryPage };
import { ChatMessageModel, ChatSessionModel } from '../models';
import { OPEN_STATUSES, paths, toSession } from './chat-shapes';
import type { Realtime } from '../../../core/realtime/socket-server';
import { createMessageSearch, MessageSearch, searchTerms } from './message-search';

/** A History search counts and ranks at most this many matching chats (the newest). */
export const SEARCH_CAP = 200;

/** The History view's filters (GET /api/chat/history). */
export interface HistoryFilter {
    /** Chats started at or after / before these instants (epoch ms). */
    from?: number;
    to?: number;
    starred?: boolean;
    /** 'exclude' (default): not archived; 'only': archived only; 'include': both. */
    archived?: 'exclude' | 'only' | 'include';
    /** A part of the phone number. */
    phone?: string;
    /** Words to find in the chat's messages, each as the start of a word (case and accents aside; punctuation separates words). */
    q?: string;
    page?: number;
    pageSize?: number;
}


/** `%`, `_` and the escape character itself stand for themselves in a LIKE pattern (`escape '\'`). */
export function likeContains(text: string): string {
    return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ConsoleServiceDeps {
    db: Db;
    realtime: Realtime;
    services: Services;
}

/**
 * The agent console's reads beyond the live queue: previews and unread counts of chats, the History view
 * (ended chats, filters, message search), the customer context panel and canned replies.
 */
export class ConsoleService {
    private readonly db: Db;
    private readonly search: MessageSearch;

    constructor(private readonly deps: ConsoleServiceDeps) {
        this.db = deps.db;
        this.search = createMessageSearch(deps.db);
    }

    /** Adds each chat's newest message and unread count (customer messages after agent_read_seq). */
    async withPreviews(rows: ChatSessionModel[]): Promise<ChatSession[]> {
        const ids = rows.map((r) => r.id);
        const last = new Map<number, { sender: Sender; message: string; timestamp: string }>();
        const unread = new Map<number, number>();
        for (let i = 0; i < ids.length; i += 500) {
            const chunk = ids.slice(i, i + 500);
            const lastRows = await ChatMessageModel.query(this.db)
                .select('chat_messages.chat_session_id', 'chat_messages.sender', 'chat_messages.message', 'chat_messages.created_at')
                .join('chat_sessions', 'chat_sessions.id', 'chat_messages.chat_session_id')
                .whereIn('chat_messages.chat_session_id', chunk)
                .whereRaw('chat_messages.seq = chat_sessions.last_seq');
            for (const m of lastRows) {
                last.set(m.chatSessionId, { sender: m.sender, message: m.message, timestamp: iso(m.createdAt)! });
            }
            const counts = await ChatMessageModel.query(this.db)
                .select('chat_messages.chat_session_id').count({ n: '*' })
                .join('chat_sessions', 'chat_sessions.id', 'chat_messages.chat_session_id')
                .whereIn('chat_messages.chat_session_id', chunk)
                .where('chat_messages.sender', 'customer')
                .whereRaw('chat_messages.seq > chat_sessions.agent_read_seq')
                .groupBy('chat_messages.chat_session_id')
                .castTo<Array<{ chatSessionId: number; n: number | string }>>();
            for (const c of counts) {
                unread.set(Number(c.chatSessionId), Number(c.n));
            }
        }
        return rows.map((r) => ({
            ...toSession(r),
            ...(r.messageCount !== undefined ? { messageCount: Number(r.messageCount) } : {}),
            lastMessage: last.get(r.id) ?? null,
            unreadCount: unread.get(r.id) ?? 0
        }));
    }

    /** GET /api/chat/sessions: active chats (and with `recent` ended ones too), newest first, with counts, previews and unread counts. */
    async listSessions(organizationId: number, filter: { status: 'active' | 'recent'; includeArchived: boolean }): Promise<ChatSession[]> {
        const query = ChatSessionModel.query(this.db)
            .select('chat_sessions.*', ChatSessionModel.relatedQuery('messages').count().as('message_count'))
            .where('organization_id', organizationId);
        if (filter.status === 'active') {
            query.where('status', 'agent_connected');
        }
        else {
            query.whereNot('status', 'waiting').where('kind', 'chat');
        }
        if (!filter.includeArchived) {
            query.where('is_archived', false);
        }
        return this.withPreviews(await query.orderBy('created_at', 'desc').limit(100));
    }

    /**
     * GET /api/chat/left-messages (issue 23): the store's left messages in one state ('open', 'done' or 'all'), newest
     * first, each with its last message and unread count, and the inbox's counts (open, and open with unread).
     */
    async leftMessages(organizationId: number, state: LeftMessageState | 'all'): Promise<LeftMessagesPage> {
        const query = ChatSessionModel.query(this.db)
            .select('chat_sessions.*', ChatSessionModel.relatedQuery('messages').count().as('message_count'))
            .where({ organization_id: organizationId, kind: 'left_message' });
        if (state !== 'all') {
            query.where('inbox_state', state);
        }
        const messages = await this.withPreviews(await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200));
        const [{ n }] = await ChatSessionModel.query(this.db).where({ organization_id: organizationId, kind: 'left_message', inbox_state: 'open' })
            .count({ n: '*' }).castTo<Array<{ n: number | string }>>();
        const [{ u }] = await ChatSessionModel.query(this.db).where({ organization_id: organizationId, kind: 'left_message', inbox_state: 'open' })
            .whereExists(ChatMessageModel.query(this.db).select(1)
                .whereColumn('chat_messages.chat_session_id', 'chat_sessions.id')
                .where('chat_messages.sender', 'customer')
                .whereRaw('chat_messages.seq > chat_sessions.agent_read_seq'))
            .count({ u: '*' }).castTo<Array<{ u: number | string }>>();
        return { messages, open: Number(n), unread: Number(u) };
    }

    /** An agent read the chat up to `seq` (never backwards, never past the last message); told to the store's other agents. */
    async markRead(organizationId: number, sessionId: string, seq: number): Promise<{ sessionId: string; agentReadSeq: number; unreadCount: number }> {
        const row = await ChatSessionModel.query(this.db)
            .findOne({ organization_id: organizationId, session_id: sessionId })
            .throwIfNotFound({ message: 'Chat session not found' });
        const target = Math.min(seq, row.lastSeq);
        if (target > row.agentReadSeq) {
            await ChatSessionModel.query(this.db).where('id', row.id).where('agent_read_seq', '<', target).patch({ agentReadSeq: target });
        }
        const fresh = await row.$query(this.db);
        const [{ n }] = await fresh.$relatedQuery('messages', this.db).where('sender', 'customer')
            .where('seq', '>', fresh.agentReadSeq).count({ n: '*' }).castTo<Array<{ n: number | string }>>();
        const result = { sessionId, agentReadSeq: fresh.agentReadSeq, unreadCount: Number(n) };
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'session_read', ...result });
        return result;
    }

    /**
     * Ended chats, filtered. Without `q`, newest first with an exact count. With `q` (the words of searchTerms, each the
     * start of a word of any message of the chat), the newest SEARCH_CAP matching chats are found through the full-text
     * index (message-search.ts), ranked by their best matching message (ties: newest first) and paged; `total` counts
     * up to SEARCH_CAP and `totalCapped` says more chats match, so a common word does not count or rank every match.
     */
    async history(organizationId: number, filter: HistoryFilter): Promise<HistoryPage> {
        const page = filter.page ?? 1;
        const pageSize = filter.pageSize ?? 25;
        const base = () => {
            // Live chats only: left messages have their own inbox (Messages), open or done.
            const query = ChatSessionModel.query(this.db)
                .where('chat_sessions.organization_id', organizationId)
                .where('chat_sessions.kind', 'chat')
                .whereNotIn('chat_sessions.status', OPEN_STATUSES);
            if (filter.from !== undefined) {
                query.where('chat_sessions.created_at', '>=', filter.from);
            }
            if (filter.to !== undefined) {
                query.where('chat_sessions.created_at', '<', filter.to);
            }
            if (filter.starred !== undefined) {
                query.where('chat_sessions.is_starred', filter.starred);
            }
            const archived = filter.archived ?? 'exclude';
            if (archived !== 'include') {
                query.where('chat_sessions.is_archived', archived === 'only');
            }
            if (filter.phone?.trim()) {
                query.whereRaw('chat_sessions.phone_number like ? escape ?', [likeContains(filter.phone.trim()), '\\']);
            }
            return query;
        };
        const withCounts = (query: ReturnType<typeof base>) => query
            .select('chat_sessions.*', ChatSessionModel.relatedQuery('messages').count().as('message_count'));
        if (!filter.q?.trim()) {
            const [{ n }] = await base().count({ n: '*' }).castTo<Array<{ n: number | string }>>();
            const rows = await withCounts(base())
                .orderBy('chat_sessions.ended_at', 'desc').orderBy('chat_sessions.id', 'desc')
                .limit(pageSize).offset((page - 1) * pageSize);
            return { sessions: await this.withPreviews(rows), total: Number(n), page, pageSize };
        }
        const terms = searchTerms(filter.q);
        if (!terms.length) {
            // Only punctuation: no word to look for.
            return { sessions: [], total: 0, totalCapped: false, page, pageSize };
        }
        const matching = base();
        await this.search.restrict(matching, organizationId, terms);
        const found: Array<{ id: number }> = await matching.clearSelect().select('chat_sessions.id')
            .orderBy('chat_sessions.ended_at', 'desc').orderBy('chat_sessions.id', 'desc')
            .limit(SEARCH_CAP + 1).castTo<Array<{ id: number }>>();
        const candidates = found.slice(0, SEARCH_CAP).map((r) => Number(r.id));
        const matched = await this.search.matches(terms, candidates);
        const ranked = candidates.map((id, newest) => ({ id, newest, score: matched.get(id)?.score ?? 0 }))
            .sort((a, b) => b.score - a.score || a.newest - b.newest)
            .slice((page - 1) * pageSize, page * pageSize).map((c) => c.id);
        const rows = ranked.length ? await withCounts(ChatSessionModel.query(this.db)).whereIn('chat_sessions.id', ranked) : [];
        rows.sort((a, b) => ranked.indexOf(a.id) - ranked.indexOf(b.id));
        const sessions: HistoryPage['sessions'] = await this.withPreviews(rows);
        // The first matching message of each chat of the page, shown in the list.
        const firsts = ranked.filter((id) => matched.has(id));
        const texts: Array<{ chatSessionId: number; seq: number; message: string }> = firsts.length ? await ChatMessageModel.query(this.db)
            .select('chat_session_id', 'seq', 'message')
            .where((q) => {
                for (const id of firsts) {
                    q.orWhere((w) => w.where('chat_session_id', id).where('seq', matched.get(id)!.firstSeq));
                }
            }) : [];
        rows.forEach((r, i) => {
            const m = texts.find((x) => x.chatSessionId === r.id);
            sessions[i].match = m ? { seq: m.seq, message: m.message } : null;
        });
        return { sessions, total: candidates.length, totalCapped: found.length > SEARCH_CAP, page, pageSize };
    }

    /** The customer beside a conversation: phone (verified or not), loyalty data and orders, earlier chats, the AI conversation. */
    async context(organizationId: number, sessionId: string): Promise<CustomerContext> {
        const row = await ChatSessionModel.query(this.db)
            .findOne({ organization_id: organizationId, session_id: sessionId })
            .throwIfNotFound({ message: 'Chat session not found' });
        const { loyalty, ai } = this.deps.services;
        const verified = row.widgetSessionId ? await loyalty.verifiedPhone(organizationId, row.widgetSessionId) : null;
        const typed = row.phoneNumber && row.phoneNumber !== 'Unknown' ? row.phoneNumber : null;
        const phone = verified ?? typed;
        const normalized = phone ? e164(phone) : null;
        const result: CustomerContext = {
            sessionId, phoneNumber: phone, phoneVerified: !!verified && (!typed || e164(typed) === verified),
            customer: null, orders: [], loyaltyError: null, previousChats: [], aiConversation: null
        };
        if (!normalized) {
            result.loyaltyError = phone ? 'The phone number is not valid' : 'The customer gave no phone number';
        }
        else {
            try {
                const customer = await loyalty.customer(organizationId, normalized);
                if (!customer) {
                    result.loyaltyError = 'Not a loyalty member';
                }
                else {
                    result.customer = { name: customer.name, email: customer.email, loyaltyId: customer.loyaltyId, points: customer.points };
                    result.orders = await this.orders(organizationId, normalized);
                }
            }
            catch (err) {
                result.loyaltyError = `The loyalty provider could not be reached: ${(err as Error).message}`;
            }
        }
        if (phone) {
            const phones = [...new Set([phone, typed, normalized].filter((p): p is string => !!p))];
            const earlier = await ChatSessionModel.query(this.db)
                .select('chat_sessions.*', ChatSessionModel.relatedQuery('messages').count().as('message_count'))
                .where('organization_id', organizationId).whereIn('phone_number', phones).whereNot('id', row.id)
                .orderBy('created_at', 'desc').limit(10);
            result.previousChats = await this.withPreviews(earlier);
        }
        if (row.widgetSessionId) {
            try {
                const conversation = await ai.conversationForSession(organizationId, row.widgetSessionId);
                result.aiConversation = conversation;
            }
            catch {
                result.aiConversation = null;
            }
        }
        return result;
    }

    /** The customer's last five orders (the loyalty service's read for other plugins). */
    private async orders(organizationId: number, phone: string): Promise<CustomerOrder[]> {
        return this.deps.services.loyalty.orders(organizationId, phone, 5);
    }

    /** Pre-made answers (active questions) and the AI agent's active knowledge entries. */
    async cannedReplies(organizationId: number): Promise<CannedReply[]> {
        const questions = await this.deps.services.questions.list(organizationId, { activeOnly: true });
        const replies: CannedReply[] = questions.map((q) => ({ id: `question-${q.id}`, kind: 'question', title: q.question, text: q.answer }));
        for (const e of await this.deps.services.ai.listKnowledge(organizationId, { activeOnly: true })) {
            replies.push({ id: `knowledge-${e.id}`, kind: 'knowledge', title: e.title, text: e.content });
        }
        return replies;
    }
}
