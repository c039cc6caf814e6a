import type { Logger } from 'pino';
import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import { raw } from 'objection';
import type { Config } from '../../../config';
import type { Db, DbClient } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type { JobQueue } from '../../../core/jobs';
import type { Realtime } from '../../../core/realtime/socket-server';
import type { Services } from '../../../core/types';
import { ChatMessageModel, ChatSessionModel, ChatStatus } from '../models';
import type { MailService } from './mail-service';
import type { AttachmentsService, ClaimedFiles, Uploader } from './attachments-service';
import { analyticsSessions, chatSessionCount } from './analytics-sessions';
import type { AgentStatus, PresenceService } from './presence-service';
import { coded } from '../../../core/http/errors';
import { e164 } from '../../../core/http/fields';
import { LIVECHAT_ERRORS, messageTooLong } from '../errors';
import { AgentNames } from './agent-names';
import { ChatMail } from './chat-mail';
import { CustomerPresence } from './customer-presence';
import { LeftMessageInput, LeftMessages } from './left-messages';
import { OPEN_STATUSES, paths, SESSION_ROUTE, toMessage, toSession } from './chat-shapes';
import { RATING_MAIL_JOB, RatingMail } from './rating-mail';
import type { AiTurn, ChatMessage, ChatSession, EmailSettings, LeftMessageReply, LeftMessageState } from '../../../core/types/api';

export type { ChatMessage, ChatSession, EmailSettings };

export const TRANSCRIPT_JOB = 'livechat.transcript';
export const WAIT_TIMEOUT_JOB = 'livechat.wait-timeout';
export { PRESENCE_TTL_MS } from './presence-service';

export { OPEN_STATUSES, paths, SESSION_ROUTE, toMessage, toSession } from './chat-shapes';
export { agentName, firstName } from './agent-names';

/** What the chat service uses, and nothing else. */
export interface ChatServiceDeps {
    db: Db;
    dbClient: DbClient;
    jobs: JobQueue;
    realtime: Realtime;
    /** CHAT_WAIT_TIMEOUT_SECONDS and CHAT_MAX_MESSAGE_LENGTH. */
    chat: Config['chat'];
    mail: Pick<MailService, 'send'>;
    /** The store (name, domain) and its users (the default transcript recipient). */
    tenants: Pick<Services['tenants'], 'getOrganization' | 'timeZoneOf'>;
    users: Pick<Services['users'], 'list'>;
    /** Agent presence (Available, sockets on every node, the away rules). */
    presence: PresenceService;
    /** Where failures that do not fail the caller's request are told (a routing step after the chat was stored). */
    log?: Pick<Logger, 'warn'>;
    /** PUBLIC_URL: the transcript links the conversation in the console (issue 29). */
    publicUrl?: string | null;
}

export interface NewChat {
    organizationId: number;
    botInstanceId: number | null;
    sessionId: string;
    phoneNumber: string | null;
    customerMessage: string | null;
    domain: string | null;
    /** The page the customer asked from (origin and path), when the widget said. */
    pageUrl?: string | null;
    /** The customer's language (the widget's, issue 27). */
    lang?: string | null;
    via?: 'widget' | 'ai';
    /** The AI conversation before the hand-off (via 'ai'): what the agents see with the request. */
    aiContext?: AiTransferContext;
}

/** What the AI agent hands over with a customer (issue 13): the question that led here and the exchanges before it. */
export interface AiTransferContext {
    originalQuestion: string;
    aiConversation: AiTurn[];
}

export type ChatFlags = Partial<Pick<ChatSession, 'isStarred' | 'isArchived'>>;

type Author = { sender: 'customer' | 'agent'; userId: number | null };

/** Routing's port (issue 26, routing-service.ts): told when a chat is created, accepted and ended. */
export interface ChatRouting {
    created(chat: ChatSessionModel): Promise<{ offeredTo: number | null; expiresAt: string | null }>;
    accepted(chat: ChatSessionModel, agentId: number): Promise<void>;
    ended(chat: ChatSessionModel): Promise<void>;
}

/**
 * Live chat (SPEC §2, §4, §7): sessions waiting → agent_connected → completed / failed_to_respond /
 * no_interaction, and messages stored with a per-session sequence number before they are pushed. The facade of
 * the plugin's chat parts, each in its own file: agent presence (presence-service.ts), the customer's connections
 * and the abandon timers (customer-presence.ts), left messages (left-messages.ts), the store's chat mail and
 * transcripts (chat-mail.ts), agent names (agent-names.ts), the API shapes (chat-shapes.ts) and the analytics
 * reads (analytics-sessions.ts).
 *
 * Every query goes through the models, with one measured exception: on PostgreSQL a message is stored by
 * one raw statement (storePg), the hot path of the p99 delivery budget (bench/realtime.ts).
 */
export class ChatService {
    private readonly db: Db;
    private readonly names: AgentNames;
    private readonly chatMail: ChatMail;
    private readonly customers: CustomerPresence;
    private readonly leftMessages: LeftMessages;

    constructor(private readonly deps: ChatServiceDeps) {
        this.db = deps.db;
        this.names = new AgentNames(deps.users);
        this.chatMail = new ChatMail({ ...deps, chatWithMessages: (organizationId, sessionId) => this.getSession(organizationId, sessionId, { messages: true }) });
        this.customers = new CustomerPresence({ ...deps, abandon: (organizationId, sessionId) => this.end(organizationId, sessionId, 'customer', 'customer_abandoned') });
        this.leftMessages = new LeftMessages({ ...deps, chatMail: this.chatMail, names: this.names });
    }

    private routing: ChatRouting | null = null;

    /** Routing plugs in while the plugin registers (routing-service.ts). */
    useRouting(routing: ChatRouting): void {
        this.routing = routing;
    }

    private files: AttachmentsService | null = null;

    /** Photos and files (issue 29) plug in while the plugin registers (attachments-service.ts). */
    useAttachments(files: AttachmentsService): void {
        this.files = files;
    }

    // ---- presence (presence-service.ts: one per agent, in the database) ------------------------------

    setAvailability(userId: number, organizationId: number, available: boolean): Promise<{ available: boolean }> {
        return this.deps.presence.setAvailability(userId, organizationId, available);
    }

    agentStatus(userId: number): Promise<AgentStatus> {
        return this.deps.presence.status(userId);
    }

    /** True when an agent of the organization is connected (on any node) and marked Available. */
    agentsAvailable(organizationId: number): Promise<boolean> {
        return this.deps.presence.agentsAvailable(organizationId);
    }

    // ---- figures for analytics (SPEC §3 'Chat status' and 'Websocket stats') ----------------------

    /** SPEC §3 'Chat session row (analytics)' of the chats created in [from, to] (read-only; see analytics-sessions.ts). */
    analyticsSessions(organizationId: number, range: { from: number; to: number }, page?: { offset: number; limit: number }): ReturnType<typeof analyticsSessions> {
        return analyticsSessions(this.db, organizationId, range, page);
    }

    /** How many chat sessions [from, to] holds, by the one definition the session list uses (analytics-sessions.ts). */
    chatSessionCount(organizationId: number, range: { from: number; to: number }): Promise<number> {
        return chatSessionCount(this.db, organizationId, range);
    }

    /** SPEC §3 'Chat status': activeSessions, waitingSessions. */
    async chatStatus(organizationId: number): Promise<{ activeSessions: number; waitingSessions: number }> {
        const rows = await ChatSessionModel.query(this.db).select('status').count({ n: '*' })
            .where('organization_id', organizationId).whereIn('status', OPEN_STATUSES).groupBy('status')
            .castTo<Array<{ status: ChatStatus; n: number | string }>>();
        const count = (status: ChatStatus) => Number(rows.find((r) => r.status === status)?.n ?? 0);
        return { activeSessions: count('agent_connected'), waitingSessions: count('waiting') };
    }

    /**
     * SPEC §3 'Websocket stats'. Agent connections come from agent_presence (every node); customer
     * connections and the last connection time are this node's (they are not shared between nodes).
     */
    async websocketStats(organizationId: number): Promise<{ totalActiveChatConnections: number; totalAgentConnections: number; activeSessionIds: string[]; lastConnectionTime: string | null }> {
        const agents = await this.deps.presence.connectionCount(organizationId);
        const active = await ChatSessionModel.query(this.db).select('session_id')
            .where({ organization_id: organizationId, status: 'agent_connected' }).orderBy('accepted_at', 'desc').limit(500);
        const local = this.customers.local(organizationId);
        return {
            totalActiveChatConnections: local?.count ?? 0,
            totalAgentConnections: agents,
            activeSessionIds: active.map((r) => r.sessionId),
            lastConnectionTime: local?.last ? iso(local.last) : null
        };
    }

    /** This node's customer sockets of every organization (analytics sums them over the nodes through Redis). */
    customerSocketCounts(): Array<{ organizationId: number; count: number; last: number | null }> {
        return this.customers.counts();
    }

    customerSocket(organizationId: number, delta: 1 | -1): void {
        this.customers.socket(organizationId, delta);
    }

    // ---- the customer's presence in an open chat (issue 11, customer-presence.ts) ----------------------

    /** A customer socket of this chat opened (first connect, reconnect or resume). */
    customerChatConnected(organizationId: number, sessionId: string): Promise<void> {
        return this.customers.connected(organizationId, sessionId);
    }

    /** A customer socket of this chat closed: on this node's last one, the chat is marked gone and timed. */
    customerChatDisconnected(organizationId: number, sessionId: string): Promise<void> {
        return this.customers.disconnected(organizationId, sessionId);
    }

    /** 'Customer Disconnected' after the grace period, the chat ended after the abandon window (every node). */
    sweepCustomerGone(): Promise<{ notified: number; ended: number; cleared: number }> {
        return this.customers.sweep();
    }

    /** Clears this node's grace and abandon timers (server stop). */
    stopTimers(): void {
        this.customers.stopTimers();
    }

    /**
     * A typing signal (issue 11), never stored: the customer's goes to the organization's agents, an agent's to
     * the chat's customer. Only for an open chat of this organization (else 404).
     */
    async typing(organizationId: number, sessionId: string, sender: 'customer' | 'agent'): Promise<void> {
        const row = await ChatSessionModel.query(this.db).select('status').findOne({ organization_id: organizationId, session_id: sessionId });
        if (!row) {
            throw Boom.notFound('Chat session not found');
        }
        if (!OPEN_STATUSES.includes(row.status)) {
            throw coded(Boom.conflict('This chat has already ended'), LIVECHAT_ERRORS.chatEnded.code);
        }
        const push = { type: 'typing', sessionId, sender, timestamp: iso(Date.now()) };
        if (sender === 'customer') {
            await this.deps.realtime.publish(paths.agents(organizationId), push);
        }
        else {
            await this.deps.realtime.publishAll([{ route: SESSION_ROUTE, path: paths.session(sessionId), message: { organizationId, ...push } }]);
        }
    }

    // ---- left messages (issues 11 and 23, left-messages.ts) ------------------------------------------

    /** A customer left a message while no agent was available: a conversation in the Messages inbox, mailed to the store. */
    offlineMessage(input: LeftMessageInput): Promise<{ session: ChatSession; to: string }> {
        return this.leftMessages.leave(input);
    }

    /** An agent answers a left message by mail (stored in the thread once the mail went). */
    replyToLeftMessage(organizationId: number, sessionId: string, agentId: number,
        input: { message: string; clientMessageId?: string | null }): Promise<LeftMessageReply & { duplicate: boolean }> {
        return this.leftMessages.reply(organizationId, sessionId, agentId, input);
    }

    /** Marks a left message done, or open again. */
    setLeftMessageState(organizationId: number, sessionId: string, state: LeftMessageState): Promise<ChatSession> {
        return this.leftMessages.setState(organizationId, sessionId, state);
    }

    // ---- the waiting queue (issue 26: each waiting customer's place, queue-service.ts) ---------------

    private readonly queueListeners: Array<(organizationId: number) => void> = [];

    /** Called when a chat joins the store's waiting queue or leaves it (accepted, ended). */
    onQueueChange(listener: (organizationId: number) => void): void {
        this.queueListeners.push(listener);
    }

    private queueChanged(organizationId: number): void {
        this.queueListeners.forEach((listener) => listener(organizationId));
    }

    // ---- sessions -------------------------------------------------------------------------------

    /** The chat of this organization with this id; a 404 (objection's NotFoundError) when there is none. */
    private async findSession(organizationId: number, sessionId: string): Promise<ChatSessionModel> {
        return ChatSessionModel.query(this.db)
            .findOne({ organization_id: organizationId, session_id: sessionId })
            .throwIfNotFound({ message: 'Chat session not found' });
    }

    /** True when the organization has a chat with this id (subscriptions check it before they answer). */
    async hasSession(organizationId: number, sessionId: string): Promise<boolean> {
        return !!await ChatSessionModel.query(this.db).select('id').findOne({ organization_id: organizationId, session_id: sessionId });
    }

    /** True when this widget session has a chat still open (waiting or with an agent). */
    async hasOpenChat(organizationId: number, widgetSessionId: string): Promise<boolean> {
        return !!await ChatSessionModel.query(this.db).select('id')
            .findOne({ organization_id: organizationId, widget_session_id: widgetSessionId }).whereIn('status', OPEN_STATUSES);
    }

    /**
     * A customer asks for a human. Idempotent for a session that is still open (a retried call, or the
     * widget refreshing its token); a widget session whose earlier chat ended gets a new chat with a
     * suffixed id (`…~2`), which the answer names.
     */
    async createSession(input: NewChat): Promise<{ session: ChatSession; created: boolean }> {
        // This widget session's chats, by equality (never a LIKE pattern a client's `_` or `%` could widen).
        const existing = await ChatSessionModel.query(this.db)
            .where({ organization_id: input.organizationId, widget_session_id: input.sessionId })
            .orderBy('id', 'desc');
        const open = existing.find((s) => OPEN_STATUSES.includes(s.status));
        if (open) {
            if (!open.pageUrl && input.pageUrl) {
                // Opened by the AI agent's hand-off (no page): the widget's create-session that follows names it.
                await ChatSessionModel.query(this.db).where('id', open.id).whereNull('page_url').patch({ pageUrl: input.pageUrl });
                open.pageUrl = input.pageUrl;
            }
            if (!open.lang && input.lang) {
                await ChatSessionModel.query(this.db).where('id', open.id).whereNull('lang').patch({ lang: input.lang });
                open.lang = input.lang;
            }
            return { session: toSession(open), created: false };
        }
        const sessionId = existing.length ? `${input.sessionId}~${existing.length + 1}` : input.sessionId;
        const first = input.customerMessage?.trim() || null;
        const row = await this.db.transaction(async (trx) => {
            const created = await ChatSessionModel.query(trx).insertAndFetch({
                organizationId: input.organizationId,
                botInstanceId: input.botInstanceId,
                sessionId,
                widgetSessionId: input.sessionId,
                phoneNumber: e164(input.phoneNumber ?? '') ?? 'Unknown',
                status: 'waiting',
                customerMessage: first,
                domain: input.domain,
                pageUrl: input.pageUrl ?? null,
                lang: input.lang ?? null,
                lastSeq: first ? 1 : 0,
                isStarred: false,
                isArchived: false
            });
            if (first) {
                // The message that opened the chat, at the chat's own time.
                await created.$relatedQuery('messages', trx).insert({
                    organizationId: input.organizationId, seq: 1, sender: 'customer', senderUserId: null, message: first,
                    clientMessageId: 'initial', createdAt: created.createdAt
                });
            }
            return created;
        });
        const session = toSession(row);
        const type = input.via === 'ai' ? 'ai_transfer_request' : 'new_customer';
        // Auto-assign (issue 26): offered to one agent first; the others see the queue move without being rung.
        // A routing failure leaves the chat in the queue, as without auto-assign (the offer sweep tries again): the
        // customer's chat is created either way.
        const routed = this.routing ? await this.routing.created(row).catch((err) => {
            this.deps.log?.warn({ err, sessionId }, 'routing a new chat failed: it waits in the queue');
            return null;
        }) : null;
        await this.deps.realtime.publish(paths.agents(input.organizationId), {
            type, sessionId, phoneNumber: session.phoneNumber, visitorNumber: session.visitorNumber, visitorLabel: session.visitorLabel, message: first, lang: session.lang,
            offeredTo: routed?.offeredTo ?? null, offerExpiresAt: routed?.expiresAt ?? null,
            originalQuestion: input.aiContext?.originalQuestion ?? first, createdAt: session.createdAt,
            ...(input.aiContext ? { aiConversation: input.aiContext.aiConversation } : {})
        });
        await this.deps.jobs.add(WAIT_TIMEOUT_JOB, { organizationId: input.organizationId, sessionId },
            { delay: this.deps.chat.waitTimeoutSeconds * 1000, jobId: `wait-${input.organizationId}-${sessionId}` });
        this.queueChanged(input.organizationId);
        return { session, created: true };
    }

    /**
     * The AI agent hands a customer to the live agents: opens the widget session's chat (or keeps its open
     * one) and sends the organization's agents `ai_transfer_request` with the original question and the AI
     * conversation (SPEC §7), which the console shows.
     */
    async setAiTransferContext(input: Omit<NewChat, 'via' | 'aiContext' | 'customerMessage'> & AiTransferContext): Promise<{ session: ChatSession; created: boolean }> {
        const aiContext = { originalQuestion: input.originalQuestion, aiConversation: input.aiConversation };
        const result = await this.createSession({ ...input, customerMessage: input.originalQuestion, via: 'ai', aiContext });
        if (!result.created) {
            const { session } = result;
            await this.deps.realtime.publish(paths.agents(input.organizationId), {
                type: 'ai_transfer_request', sessionId: session.sessionId, phoneNumber: session.phoneNumber, visitorNumber: session.visitorNumber,
                visitorLabel: session.visitorLabel, message: input.originalQuestion,
                originalQuestion: input.originalQuestion, aiConversation: input.aiConversation, createdAt: session.createdAt
            });
        }
        return result;
    }

    async getSession(organizationId: number, sessionId: string, options: { messages?: boolean } = {}): Promise<ChatSession> {
        const row = await this.findSession(organizationId, sessionId);
        const session = toSession(row);
        if (options.messages) {
            session.messages = await this.messagesOf(row, 0);
            session.messageCount = session.messages.length;
        }
        return session;
    }

    /** Sessions still waiting (oldest first); ones past the wait timeout are closed as failed_to_respond first. */
    async listWaiting(organizationId: number): Promise<ChatSession[]> {
        await this.expireWaiting(organizationId);
        const rows = await ChatSessionModel.query(this.db)
            .where({ organization_id: organizationId, status: 'waiting' })
            .orderBy('created_at', 'asc')
            .limit(200);
        const t = Date.now();
        return rows.map((r) => ({ ...toSession(r), waitSeconds: Math.floor((t - r.createdAt) / 1000) }));
    }

    /** Active chats (agent_connected), and with `recent` the last ended ones too, newest first, with message counts. */
    async listSessions(organizationId: number, filter: { status: 'active' | 'recent'; includeArchived: boolean }): Promise<ChatSession[]> {
        const query = ChatSessionModel.query(this.db)
            .select('chat_sessions.*', ChatSessionModel.relatedQuery('messages').count().as('message_count'))
            .where('organization_id', organizationId);
        if (filter.status === 'active') {
            query.where('status', 'agent_connected');
        }
        else {
            query.whereNot('status', 'waiting');
        }
        if (!filter.includeArchived) {
            query.where('is_archived', false);
        }
        const rows = await query.orderBy('created_at', 'desc').limit(100);
        return rows.map((r) => ({ ...toSession(r), messageCount: Number(r.messageCount ?? 0) }));
    }

    async messagesAfter(organizationId: number, sessionId: string, afterSeq: number): Promise<{ session: ChatSession; messages: ChatMessage[] }> {
        const row = await this.findSession(organizationId, sessionId);
        return { session: toSession(row), messages: await this.messagesOf(row, afterSeq) };
    }

    private async messagesOf(row: ChatSessionModel, afterSeq: number): Promise<ChatMessage[]> {
        const rows = await row.$relatedQuery('messages', this.db)
            .where('seq', '>', afterSeq)
            .orderBy('seq', 'asc')
            .limit(1000);
        const messages = await this.withAgentNames(row.organizationId, rows.map((m) => toMessage(m, row.sessionId)), rows);
        return this.withFiles(messages);
    }

    /** Each message with its files (issue 29), read in one query. */
    private async withFiles(messages: ChatMessage[]): Promise<ChatMessage[]> {
        if (this.files && messages.length) {
            const files = await this.files.ofMessages(messages.map((m) => m.id));
            for (const m of messages) {
                const list = files.get(m.id);
                if (list) {
                    m.attachments = list;
                }
            }
        }
        return messages;
    }

    // ---- agent names (agent-names.ts) ---------------------------------------------------------------

    /** A profile changed (services.users tells): this node reads the organization's agent names again. */
    forgetAgentNames(organizationId: number | null): void {
        this.names.forget(organizationId);
    }

    agentFirstName(organizationId: number, userId: number | null): Promise<string | undefined> {
        return this.names.nameOf(organizationId, userId);
    }

    /** The name the customer reads when the agent joins: only a name a person gave. */
    agentJoinName(organizationId: number, userId: number): Promise<string | undefined> {
        return this.names.joinName(organizationId, userId);
    }

    private withAgentNames(organizationId: number, messages: ChatMessage[], rows: ChatMessageModel[]): Promise<ChatMessage[]> {
        return this.names.withNames(organizationId, messages, rows);
    }

    /** The logged-in agent takes a waiting chat. A second agent (or a late click) gets 409. */
    async accept(organizationId: number, agentId: number, sessionId: string): Promise<ChatSession> {
        const updated = await ChatSessionModel.query(this.db)
            .where({ organization_id: organizationId, session_id: sessionId, status: 'waiting' })
            .patch({ status: 'agent_connected', agentUserId: agentId, acceptedAt: Date.now() });
        const row = await this.findSession(organizationId, sessionId);
        if (!updated) {
            if (row.status === 'agent_connected' && row.agentUserId === agentId) {
                return toSession(row);
            }
            throw Boom.conflict(row.status === 'agent_connected' ? 'This chat was already accepted by another agent' : 'This chat has already ended');
        }
        // The chat is the agent's now; recording the assignment must not turn their Accept into an error.
        await this.routing?.accepted(row, agentId).catch((err) => this.deps.log?.warn({ err, sessionId }, 'recording an assignment failed'));
        const session = toSession(row);
        await this.deps.realtime.publishAll([
            { path: paths.agents(organizationId), message: { type: 'session_accepted', sessionId, agentId, acceptedAt: session.acceptedAt } },
            { route: SESSION_ROUTE, path: paths.session(sessionId), message: {
                organizationId, type: 'agent_connected', sessionId, timestamp: session.acceptedAt, agentName: await this.agentJoinName(organizationId, agentId)
            } }
        ]);
        this.queueChanged(organizationId);
        return session;
    }

    /**
     * Stores a message with the next sequence number, then pushes it. A retry with the same client message
     * id returns the stored message and is not pushed again.
     */
    async sendMessage(organizationId: number, sessionId: string, from: Author,
        input: { message: string; clientMessageId?: string | null; attachments?: string[] }): Promise<{ message: ChatMessage; duplicate: boolean }> {
        const text = input.message.trim();
        const fileIds = input.attachments ?? [];
        // A message may be files only (issue 29): then its text is empty.
        if (!text && !fileIds.length) {
            throw coded(Boom.badRequest('Message must not be empty'), LIVECHAT_ERRORS.messageEmpty.code);
        }
        const max = this.deps.chat.maxMessageLength;
        if (text.length > max) {
            const tooLong = messageTooLong(max);
            throw coded(Boom.badRequest(tooLong.message), tooLong.code, tooLong.args);
        }
        const clientMessageId = input.clientMessageId ?? Crypto.randomUUID();
        // The files are checked before anything is stored (a retry finds them claimed by its stored message).
        let claimed: ClaimedFiles | null = null;
        if (fileIds.length) {
            if (!this.files) {
                throw Boom.badRequest('Files are not accepted here');
            }
            try {
                claimed = await this.files.claim(organizationId, sessionId, from as Uploader, fileIds);
            }
            catch (err) {
                const session = await this.findSession(organizationId, sessionId);
                const earlier = await session.$relatedQuery('messages', this.db).findOne({ sender: from.sender, client_message_id: clientMessageId });
                if (earlier) {
                    const [again] = await this.withFiles(await this.withAgentNames(organizationId, [toMessage(earlier, sessionId)], [earlier]));
                    return { message: again, duplicate: true };
                }
                throw err;
            }
        }
        const allowed: ChatStatus[] = from.sender === 'agent' ? ['agent_connected'] : OPEN_STATUSES;
        // Hot path: the next sequence number (the chat must be open) and the insert, atomically. On PostgreSQL
        // that is one statement and one round trip; SQLite (in process) runs the two in a transaction.
        // A retried client message id hits the unique (chat_session_id, sender, client_message_id).
        let stored: ChatMessageModel | null = null;
        let failure: unknown = null;
        try {
            stored = this.deps.dbClient === 'postgres'
                ? await this.storePg(organizationId, sessionId, allowed, from, text, clientMessageId)
                : await this.db.transaction(async (trx) => {
                    const [next] = await ChatSessionModel.query(trx)
                        .where({ organization_id: organizationId, session_id: sessionId })
                        .whereIn('status', allowed)
                        .patch({ lastSeq: raw('last_seq + 1') })
                        .returning(['id', 'last_seq']);
                    if (!next) {
                        return null;
                    }
                    return next.$relatedQuery('messages', trx).insert({
                        organizationId, seq: next.lastSeq, sender: from.sender, senderUserId: from.userId, message: text, clientMessageId
                    });
                });
        }
        catch (err) {
            failure = err;
        }
        if (!stored) {
            // Not stored: unknown chat (404), a retry of a stored message, or a chat that is not open for this sender.
            const session = await this.findSession(organizationId, sessionId);
            const earlier = await session.$relatedQuery('messages', this.db)
                .findOne({ sender: from.sender, client_message_id: clientMessageId });
            if (earlier) {
                return { message: (await this.withFiles(await this.withAgentNames(organizationId, [toMessage(earlier, sessionId)], [earlier])))[0], duplicate: true };
            }
            if (failure) {
                throw failure;
            }
            throw OPEN_STATUSES.includes(session.status) ? Boom.conflict('Accept the chat before sending messages')
                : coded(Boom.conflict(LIVECHAT_ERRORS.chatEnded.message), LIVECHAT_ERRORS.chatEnded.code);
        }
        const [message] = await this.withAgentNames(organizationId, [toMessage(stored, sessionId)], [stored]);
        if (claimed && this.files) {
            await this.files.attach(claimed, Number(stored.id));
            message.attachments = claimed.attachments;
        }
        const push = { type: 'chat_message', ...message };
        await this.pushToChat(organizationId, sessionId, push);
        return { message, duplicate: false };
    }

    /** To the chat's customer and to the organization's agents, in one pub/sub message. */
    private async pushToChat(organizationId: number, sessionId: string, push: Record<string, unknown>): Promise<void> {
        await this.deps.realtime.publishAll([
            { route: SESSION_ROUTE, path: paths.session(sessionId), message: { organizationId, ...push } },
            { path: paths.agents(organizationId), message: push }
        ]);
    }

    /**
     * The service's one raw statement, kept because it is measured to matter (the p99 customer→agent budget,
     * bench/realtime.ts): the UPDATE … RETURNING of the sequence feeds the INSERT, so both happen or neither,
     * in one round trip. The same columns as the models write (updated_at, created_at as epoch ms).
     */
    private async storePg(organizationId: number, sessionId: string, allowed: ChatStatus[], from: Author,
        text: string, clientMessageId: string): Promise<ChatMessageModel | null> {
        const t = Date.now();
        const result = await this.db.raw(`with next as (
                update chat_sessions set last_seq = last_seq + 1, updated_at = ?
                where organization_id = ? and session_id = ? and status in (${allowed.map(() => '?').join(', ')})
                returning id, last_seq
            )
            insert into chat_messages (organization_id, chat_session_id, seq, sender, sender_user_id, message, client_message_id, created_at)
            select ?, next.id, next.last_seq, ?, ?, ?, ?, ? from next
            returning id, seq, sender, sender_user_id, message, client_message_id, created_at`,
        [t, organizationId, sessionId, ...allowed, organizationId, from.sender, from.userId, text, clientMessageId, t]);
        const row = (result.rows as Array<Record<string, unknown>>)[0];
        return row ? ChatMessageModel.fromDatabaseJson(row) : null;
    }

    /**
     * Ends an open chat (idempotent). Status: completed once an agent had accepted it, no_interaction when
     * it ended while still waiting, failed_to_respond when nobody accepted in time.
     */
    /** `also`: flags written in the same update as the end (archiving an open chat: ended and archived at once). */
    async end(organizationId: number, sessionId: string, by: 'agent' | 'customer' | 'system', reason?: string, also: { isArchived?: boolean } = {}): Promise<ChatSession> {
        const row = await this.findSession(organizationId, sessionId);
        if (!OPEN_STATUSES.includes(row.status)) {
            return toSession(row);
        }
        const t = Date.now();
        const status: ChatStatus = by === 'system' && row.status === 'waiting'
            ? 'failed_to_respond'
            : row.status === 'waiting' ? 'no_interaction' : 'completed';
        const endReason = reason ?? (by === 'agent' ? 'agent_ended' : by === 'customer' ? 'customer_disconnected' : 'failed_to_respond');
        const updated = await ChatSessionModel.query(this.db)
            .where('id', row.id).whereIn('status', OPEN_STATUSES)
            .patch({ status, endedBy: by, endReason, endedAt: t, ...also });
        const fresh = await row.$query(this.db);
        if (!updated) {
            return toSession(fresh);
        }
        const push = { type: 'session_ended', sessionId, reason: endReason, endedBy: by, status, timestamp: iso(t) };
        await this.pushToChat(organizationId, sessionId, push);
        if (row.status === 'waiting') {
            this.queueChanged(organizationId);
        }
        await this.routing?.ended(fresh);
        // Its customer's widget was not connected as it ended (closed, or abandoned): asked to rate by mail, when they
        // gave an address in the chat (issue 28; rating-mail.ts). A connected widget asks itself.
        if (RatingMail.asks(row, status)) {
            await this.deps.jobs.add(RATING_MAIL_JOB, { organizationId, sessionId }, { jobId: `rating-mail-${fresh.id}` });
        }
        const settings = await this.getEmailSettings(organizationId);
        if (settings.emailNotificationsEnabled && fresh.lastSeq > 0) {
            await this.deps.jobs.add(TRANSCRIPT_JOB, { organizationId, sessionId }, { jobId: `transcript-${fresh.id}` });
        }
        return toSession(fresh);
    }

    /**
     * The customer gives an email in an open live chat (issue 28): kept on the chat (the console's customer panel shows
     * it; export, erasure and retention cover it with the chat) and told to the store's agents (`customer_email`). If the
     * chat ends while their widget is closed, the link to rate it goes there. An ended chat answers 409.
     */
    async setCustomerEmail(organizationId: number, sessionId: string, email: string): Promise<ChatSession> {
        const row = await this.findSession(organizationId, sessionId);
        if (row.kind === 'left_message') {
            throw Boom.notFound('Chat session not found');
        }
        const updated = await ChatSessionModel.query(this.db).where('id', row.id).whereIn('status', OPEN_STATUSES).patch({ customerEmail: email });
        if (!updated) {
            throw coded(Boom.conflict(LIVECHAT_ERRORS.chatEnded.message), LIVECHAT_ERRORS.chatEnded.code);
        }
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'customer_email', sessionId, customerEmail: email });
        return toSession(await row.$query(this.db));
    }

    async expireWaiting(organizationId?: number): Promise<number> {
        const query = ChatSessionModel.query(this.db).where('status', 'waiting')
            .where('created_at', '<', Date.now() - this.deps.chat.waitTimeoutSeconds * 1000).limit(100);
        if (organizationId !== undefined) {
            query.where('organization_id', organizationId);
        }
        const rows = await query;
        for (const r of rows) {
            await this.end(r.organizationId, r.sessionId, 'system', 'failed_to_respond');
        }
        return rows.length;
    }

    /**
     * Star / archive (SPEC §4). Archive applies to ended chats: archiving an open one ends it first, so its
     * customer is told (session_ended, reason `archived`) instead of writing on to nobody.
     */
    async setFlags(organizationId: number, sessionId: string, flags: ChatFlags): Promise<ChatSession> {
        let row = await this.findSession(organizationId, sessionId);
        if (flags.isArchived && OPEN_STATUSES.includes(row.status)) {
            // One update: nobody told of the end (the agents' lists, History) reads it ended but not yet archived.
            await this.end(organizationId, sessionId, 'agent', 'archived', { isArchived: true });
            row = await this.findSession(organizationId, sessionId);
        }
        await row.$query(this.db).patch(flags);
        return toSession(row);
    }

    // ---- the store's chat mail (chat-mail.ts) ---------------------------------------------------------

    defaultRecipient(organizationId: number): Promise<string> {
        return this.chatMail.defaultRecipient(organizationId);
    }

    getEmailSettings(organizationId: number): Promise<EmailSettings> {
        return this.chatMail.settings(organizationId);
    }

    setEmailSettings(organizationId: number, input: { emailNotificationsEnabled: boolean; emailRecipient?: string | null }): Promise<EmailSettings> {
        return this.chatMail.setSettings(organizationId, input);
    }

    /** Where the test email may go: only an active admin of this store (else 400). */
    testEmailRecipient(organizationId: number): Promise<string> {
        return this.chatMail.testRecipient(organizationId);
    }

    sendTestEmail(organizationId: number): Promise<{ message: string; to: string }> {
        return this.chatMail.sendTest(organizationId);
    }

    /** The transcript job: one email with every message of the session, as plain text. */
    sendTranscript(organizationId: number, sessionId: string): Promise<void> {
        return this.chatMail.sendTranscript(organizationId, sessionId);
    }
}
