import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Knex } from 'knex';
import type { AppContext } from '../../../core/types';
import type { Realtime } from '../../../core/realtime/socket-server';
import { iso, now } from '../../../core/db/base-model';
import { AgentPresenceModel, ChatMessageModel, ChatSessionModel, ChatStatus, EmailSettingsModel } from '../models';
import type { MailService } from './mail-service';
import type { ChatMessage, ChatSession, EmailSettings } from '../../../core/types/api';

export type { ChatMessage, ChatSession, EmailSettings };

export const TRANSCRIPT_JOB = 'livechat.transcript';
export const WAIT_TIMEOUT_JOB = 'livechat.wait-timeout';
/** An agent counts as connected while some node saw them within this window (nodes refresh every 20 s). */
export const PRESENCE_TTL_MS = 75_000;

export const OPEN_STATUSES: ChatStatus[] = ['waiting', 'agent_connected'];

export const SESSION_ROUTE = '/chat/sessions/{sessionId}';

/** Paths of the nes subscriptions (DESIGN §6). */
export const paths = {
    session: (sessionId: string) => `/chat/sessions/${sessionId}`,
    agents: (organizationId: number) => `/agents/${organizationId}`
};

/**
 * Live chat (SPEC §2, §4, §7): sessions waiting → agent_connected → completed / failed_to_respond /
 * no_interaction, messages stored with a per-session sequence number before they are pushed, agent
 * presence in agent_presence (shared by every node), email settings and transcripts.
 */
export class ChatService {
    constructor(private readonly app: AppContext, private readonly realtime: Realtime, private readonly mail: MailService) {}

    private get db(): Knex {
        return this.app.db;
    }

    // ---- presence -------------------------------------------------------------------------------

    async agentConnected(userId: number, organizationId: number): Promise<void> {
        const t = now();
        await this.db('agent_presence')
            .insert({ user_id: userId, organization_id: organizationId, available: false, connections: 1, last_seen_at: t })
            .onConflict('user_id')
            .merge({ connections: this.db.raw('?? + 1', ['agent_presence.connections']), last_seen_at: t, organization_id: organizationId });
    }

    async agentDisconnected(userId: number): Promise<void> {
        await AgentPresenceModel.query(this.db).where('user_id', userId)
            .patch({ connections: this.db.raw('case when connections > 0 then connections - 1 else 0 end') as any });
    }

    async touchAgents(userIds: number[]): Promise<void> {
        if (userIds.length) {
            await AgentPresenceModel.query(this.db).whereIn('user_id', userIds).patch({ last_seen_at: now() });
        }
    }

    async setAvailability(userId: number, organizationId: number, available: boolean): Promise<{ available: boolean }> {
        const t = now();
        await this.db('agent_presence')
            .insert({ user_id: userId, organization_id: organizationId, available, connections: 0, last_seen_at: t })
            .onConflict('user_id')
            .merge({ available, organization_id: organizationId });
        await this.realtime.publish(paths.agents(organizationId), { type: 'agent_availability', agentId: userId, available });
        return { available };
    }

    async agentStatus(userId: number): Promise<{ available: boolean; connections: number }> {
        const row = await AgentPresenceModel.query(this.db).findById(userId);
        return { available: row?.available ?? false, connections: row?.connections ?? 0 };
    }

    /** True when an agent of the organization is connected (on any node) and marked Available. */
    async agentsAvailable(organizationId: number): Promise<boolean> {
        const row = await AgentPresenceModel.query(this.db)
            .where({ organization_id: organizationId, available: true })
            .where('connections', '>', 0)
            .where('last_seen_at', '>', now() - PRESENCE_TTL_MS)
            .first();
        return !!row;
    }

    // ---- figures for analytics (SPEC §3 'Chat status' and 'Websocket stats') ----------------------

    /** SPEC §3 'Chat status': activeSessions, waitingSessions. */
    async chatStatus(organizationId: number): Promise<{ activeSessions: number; waitingSessions: number }> {
        const rows = await this.db('chat_sessions').select('status').count({ n: '*' })
            .where('organization_id', organizationId).whereIn('status', OPEN_STATUSES).groupBy('status');
        const count = (status: string) => Number(rows.find((r: any) => r.status === status)?.n ?? 0);
        return { activeSessions: count('agent_connected'), waitingSessions: count('waiting') };
    }

    /**
     * SPEC §3 'Websocket stats'. Agent connections come from agent_presence (every node); customer
     * connections and the last connection time are this node's (they are not shared between nodes).
     */
    async websocketStats(organizationId: number): Promise<{ totalActiveChatConnections: number; totalAgentConnections: number; activeSessionIds: string[]; lastConnectionTime: string | null }> {
        const agents = await this.db('agent_presence').sum({ n: 'connections' }).where('organization_id', organizationId)
            .where('last_seen_at', '>', now() - PRESENCE_TTL_MS).first() as { n: number | string | null } | undefined;
        const active = await ChatSessionModel.query(this.db).select('session_id')
            .where({ organization_id: organizationId, status: 'agent_connected' }).orderBy('accepted_at', 'desc').limit(500);
        const local = this.localCustomers.get(organizationId);
        return {
            totalActiveChatConnections: local?.count ?? 0,
            totalAgentConnections: Number(agents?.n ?? 0),
            activeSessionIds: active.map((r) => r.session_id),
            lastConnectionTime: local?.last ? iso(local.last) : null
        };
    }

    /** Customer sockets on this node, per organization (see websocketStats). */
    private readonly localCustomers = new Map<number, { count: number; last: number | null }>();

    customerSocket(organizationId: number, delta: 1 | -1): void {
        const entry = this.localCustomers.get(organizationId) ?? { count: 0, last: null };
        entry.count = Math.max(0, entry.count + delta);
        if (delta > 0) {
            entry.last = now();
        }
        this.localCustomers.set(organizationId, entry);
    }

    // ---- sessions -------------------------------------------------------------------------------

    private async findSession(organizationId: number, sessionId: string): Promise<ChatSessionModel> {
        const row = await ChatSessionModel.query(this.db).where({ organization_id: organizationId, session_id: sessionId }).first();
        if (!row) {
            throw Boom.notFound('Chat session not found');
        }
        return row;
    }

    /**
     * A customer asks for a human. Idempotent for a session that is still open (a retried call, or the
     * widget refreshing its token); a widget session whose earlier chat ended gets a new chat with a
     * suffixed id (`…~2`), which the answer names.
     */
    async createSession(input: {
        organizationId: number;
        botInstanceId: number | null;
        sessionId: string;
        phoneNumber: string | null;
        customerMessage: string | null;
        domain: string | null;
        via?: 'widget' | 'ai';
    }): Promise<{ session: ChatSession; created: boolean }> {
        // This widget session's chats, by equality (never a LIKE pattern a client's `_` or `%` could widen).
        const existing = await ChatSessionModel.query(this.db)
            .where({ organization_id: input.organizationId, widget_session_id: input.sessionId })
            .orderBy('id', 'desc');
        const open = existing.find((s) => OPEN_STATUSES.includes(s.status));
        if (open) {
            return { session: this.toSession(open), created: false };
        }
        const sessionId = existing.length ? `${input.sessionId}~${existing.length + 1}` : input.sessionId;
        const t = now();
        const first = input.customerMessage?.trim() || null;
        const row = await this.db.transaction(async (trx) => {
            const created = await ChatSessionModel.query(trx).insertAndFetch({
                organization_id: input.organizationId,
                bot_instance_id: input.botInstanceId,
                session_id: sessionId,
                widget_session_id: input.sessionId,
                phone_number: input.phoneNumber?.trim() || 'Unknown',
                status: 'waiting',
                customer_message: first,
                domain: input.domain,
                last_seq: first ? 1 : 0,
                is_starred: false,
                is_archived: false,
                created_at: t,
                updated_at: t
            });
            if (first) {
                await ChatMessageModel.query(trx).insert({
                    organization_id: input.organizationId, chat_session_id: created.id, seq: 1, sender: 'customer',
                    sender_user_id: null, message: first, client_message_id: 'initial', created_at: t
                });
            }
            return created;
        });
        const session = this.toSession(row);
        const type = input.via === 'ai' ? 'ai_transfer_request' : 'new_customer';
        await this.realtime.publish(paths.agents(input.organizationId), {
            type, sessionId, phoneNumber: session.phoneNumber, message: first, originalQuestion: first, createdAt: session.createdAt
        });
        await this.app.jobs.add(WAIT_TIMEOUT_JOB, { organizationId: input.organizationId, sessionId },
            { delay: this.app.config.chat.waitTimeoutSeconds * 1000, jobId: `wait-${input.organizationId}-${sessionId}` });
        return { session, created: true };
    }

    async getSession(organizationId: number, sessionId: string, options: { messages?: boolean } = {}): Promise<ChatSession> {
        const row = await this.findSession(organizationId, sessionId);
        const session = this.toSession(row);
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
        const t = now();
        return rows.map((r) => ({ ...this.toSession(r), waitSeconds: Math.floor((t - r.created_at) / 1000) }));
    }

    /** Active chats (agent_connected), and with `recent` the last ended ones too, newest first, with message counts. */
    async listSessions(organizationId: number, filter: { status: 'active' | 'recent'; includeArchived: boolean }): Promise<ChatSession[]> {
        const query = ChatSessionModel.query(this.db).where('organization_id', organizationId);
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
        const counts = rows.length
            ? await this.db('chat_messages').select('chat_session_id').count({ n: '*' })
                .whereIn('chat_session_id', rows.map((r) => r.id)).groupBy('chat_session_id')
            : [];
        const byId = new Map(counts.map((c: any) => [Number(c.chat_session_id), Number(c.n)]));
        return rows.map((r) => ({ ...this.toSession(r), messageCount: byId.get(r.id) ?? 0 }));
    }

    async messagesAfter(organizationId: number, sessionId: string, afterSeq: number): Promise<{ session: ChatSession; messages: ChatMessage[] }> {
        const row = await this.findSession(organizationId, sessionId);
        return { session: this.toSession(row), messages: await this.messagesOf(row, afterSeq) };
    }

    private async messagesOf(row: ChatSessionModel, afterSeq: number): Promise<ChatMessage[]> {
        const rows = await ChatMessageModel.query(this.db)
            .where('chat_session_id', row.id)
            .where('seq', '>', afterSeq)
            .orderBy('seq', 'asc')
            .limit(1000);
        return rows.map((m) => this.toMessage(m, row.session_id));
    }

    /** The logged-in agent takes a waiting chat. A second agent (or a late click) gets 409. */
    async accept(organizationId: number, agentId: number, sessionId: string): Promise<ChatSession> {
        const t = now();
        const updated = await ChatSessionModel.query(this.db)
            .where({ organization_id: organizationId, session_id: sessionId, status: 'waiting' })
            .patch({ status: 'agent_connected', agent_user_id: agentId, accepted_at: t, updated_at: t });
        const row = await this.findSession(organizationId, sessionId);
        if (!updated) {
            if (row.status === 'agent_connected' && row.agent_user_id === agentId) {
                return this.toSession(row);
            }
            throw Boom.conflict(row.status === 'agent_connected' ? 'This chat was already accepted by another agent' : 'This chat has already ended');
        }
        const session = this.toSession(row);
        await this.realtime.publishAll([
            { path: paths.agents(organizationId), message: { type: 'session_accepted', sessionId, agentId, acceptedAt: session.acceptedAt } },
            { route: SESSION_ROUTE, path: paths.session(sessionId), message: { organizationId, type: 'agent_connected', sessionId, timestamp: session.acceptedAt } }
        ]);
        return session;
    }

    /**
     * Stores a message with the next sequence number, then pushes it. A retry with the same client message
     * id returns the stored message and is not pushed again.
     */
    async sendMessage(organizationId: number, sessionId: string, from: { sender: 'customer' | 'agent'; userId: number | null },
        input: { message: string; clientMessageId?: string | null }): Promise<{ message: ChatMessage; duplicate: boolean }> {
        const text = input.message.trim();
        if (!text) {
            throw Boom.badRequest('Message must not be empty');
        }
        const max = this.app.config.chat.maxMessageLength;
        if (text.length > max) {
            throw Boom.badRequest(`Message is too long: at most ${max} characters`);
        }
        const clientMessageId = input.clientMessageId ?? Crypto.randomUUID();
        const allowed: ChatStatus[] = from.sender === 'agent' ? ['agent_connected'] : OPEN_STATUSES;
        // Hot path: the next sequence number (the chat must be open) and the insert, atomically. On PostgreSQL
        // that is one statement and one round trip; SQLite (in process) runs the two in a transaction.
        // A retried client message id hits the unique (chat_session_id, sender, client_message_id).
        let stored: ChatMessageModel | null = null;
        let failure: unknown = null;
        try {
            stored = this.app.dbClient === 'postgres'
                ? await this.storePg(organizationId, sessionId, allowed, from, text, clientMessageId)
                : await this.db.transaction(async (trx) => {
                    const t = now();
                    const [next] = await trx('chat_sessions')
                        .where({ organization_id: organizationId, session_id: sessionId })
                        .whereIn('status', allowed)
                        .update({ last_seq: trx.raw('last_seq + 1'), updated_at: t }, ['id', 'last_seq']);
                    if (!next) {
                        return null;
                    }
                    const [row] = await trx('chat_messages').insert({
                        organization_id: organizationId, chat_session_id: next.id, seq: next.last_seq, sender: from.sender,
                        sender_user_id: from.userId, message: text, client_message_id: clientMessageId, created_at: t
                    }, ['id', 'seq', 'sender', 'message', 'client_message_id', 'created_at']);
                    return row as ChatMessageModel;
                });
        }
        catch (err) {
            failure = err;
        }
        if (!stored) {
            // Not stored: unknown chat (404), a retry of a stored message, or a chat that is not open for this sender.
            const session = await this.findSession(organizationId, sessionId);
            const earlier = await ChatMessageModel.query(this.db)
                .where({ chat_session_id: session.id, sender: from.sender, client_message_id: clientMessageId }).first();
            if (earlier) {
                return { message: this.toMessage(earlier, sessionId), duplicate: true };
            }
            if (failure) {
                throw failure;
            }
            throw Boom.conflict(OPEN_STATUSES.includes(session.status) ? 'Accept the chat before sending messages' : 'This chat has ended');
        }
        const message = this.toMessage(stored, sessionId);
        const push = { type: 'chat_message', ...message };
        await this.pushToChat(organizationId, sessionId, push);
        return { message, duplicate: false };
    }

    /** To the chat's customer and to the organization's agents, in one pub/sub message. */
    private async pushToChat(organizationId: number, sessionId: string, push: Record<string, unknown>): Promise<void> {
        await this.realtime.publishAll([
            { route: SESSION_ROUTE, path: paths.session(sessionId), message: { organizationId, ...push } },
            { path: paths.agents(organizationId), message: push }
        ]);
    }

    /** One statement: the UPDATE … RETURNING of the sequence feeds the INSERT, so both happen or neither. */
    private async storePg(organizationId: number, sessionId: string, allowed: ChatStatus[], from: { sender: 'customer' | 'agent'; userId: number | null },
        text: string, clientMessageId: string): Promise<ChatMessageModel | null> {
        const t = now();
        const result = await this.db.raw(`with next as (
                update chat_sessions set last_seq = last_seq + 1, updated_at = ?
                where organization_id = ? and session_id = ? and status in (${allowed.map(() => '?').join(', ')})
                returning id, last_seq
            )
            insert into chat_messages (organization_id, chat_session_id, seq, sender, sender_user_id, message, client_message_id, created_at)
            select ?, next.id, next.last_seq, ?, ?, ?, ?, ? from next
            returning id, seq, sender, message, client_message_id, created_at`,
        [t, organizationId, sessionId, ...allowed, organizationId, from.sender, from.userId, text, clientMessageId, t]);
        return (result.rows[0] as ChatMessageModel | undefined) ?? null;
    }

    /**
     * Ends an open chat (idempotent). Status: completed once an agent had accepted it, no_interaction when
     * it ended while still waiting, failed_to_respond when nobody accepted in time.
     */
    async end(organizationId: number, sessionId: string, by: 'agent' | 'customer' | 'system', reason?: string): Promise<ChatSession> {
        const row = await this.findSession(organizationId, sessionId);
        if (!OPEN_STATUSES.includes(row.status)) {
            return this.toSession(row);
        }
        const t = now();
        const status: ChatStatus = by === 'system' && row.status === 'waiting'
            ? 'failed_to_respond'
            : row.status === 'waiting' ? 'no_interaction' : 'completed';
        const endReason = reason ?? (by === 'agent' ? 'agent_ended' : by === 'customer' ? 'customer_disconnected' : 'failed_to_respond');
        const updated = await ChatSessionModel.query(this.db)
            .where({ id: row.id }).whereIn('status', OPEN_STATUSES)
            .patch({ status, ended_by: by, end_reason: endReason, ended_at: t, updated_at: t });
        const fresh = await ChatSessionModel.query(this.db).findById(row.id) as ChatSessionModel;
        if (!updated) {
            return this.toSession(fresh);
        }
        const push = { type: 'session_ended', sessionId, reason: endReason, endedBy: by, status, timestamp: iso(t) };
        await this.pushToChat(organizationId, sessionId, push);
        const settings = await this.getEmailSettings(organizationId);
        if (settings.emailNotificationsEnabled && fresh.last_seq > 0) {
            await this.app.jobs.add(TRANSCRIPT_JOB, { organizationId, sessionId }, { jobId: `transcript-${fresh.id}` });
        }
        return this.toSession(fresh);
    }

    async expireWaiting(organizationId?: number): Promise<number> {
        const query = ChatSessionModel.query(this.db).where('status', 'waiting')
            .where('created_at', '<', now() - this.app.config.chat.waitTimeoutSeconds * 1000).limit(100);
        if (organizationId !== undefined) {
            query.where('organization_id', organizationId);
        }
        const rows = await query;
        for (const r of rows) {
            await this.end(r.organization_id, r.session_id, 'system', 'failed_to_respond');
        }
        return rows.length;
    }

    async setFlag(organizationId: number, sessionId: string, flag: 'is_starred' | 'is_archived', value: boolean): Promise<ChatSession> {
        const row = await this.findSession(organizationId, sessionId);
        await ChatSessionModel.query(this.db).findById(row.id).patch({ [flag]: value, updated_at: now() });
        return this.toSession({ ...row, [flag]: value } as ChatSessionModel);
    }

    // ---- email ----------------------------------------------------------------------------------

    /** SPEC §9: a company contact address by default: the organization's first admin, else support@{domain}. */
    async defaultRecipient(organizationId: number): Promise<string> {
        const users = await this.app.services.users.list({ organizationId });
        const admin = users.filter((u) => u.role === 'admin' && u.isActive).sort((a, b) => a.id - b.id)[0];
        if (admin) {
            return admin.email;
        }
        const org = await this.app.services.tenants.getOrganization(organizationId);
        return `support@${org?.domain ?? 'localhost'}`;
    }

    async getEmailSettings(organizationId: number): Promise<EmailSettings> {
        const row = await EmailSettingsModel.query(this.db).findById(organizationId);
        return {
            emailNotificationsEnabled: row?.email_notifications_enabled ?? false,
            emailRecipient: row?.email_recipient || await this.defaultRecipient(organizationId)
        };
    }

    async setEmailSettings(organizationId: number, input: { emailNotificationsEnabled: boolean; emailRecipient?: string | null }): Promise<EmailSettings> {
        const t = now();
        const recipient = input.emailRecipient?.trim() || null;
        await this.db('email_settings')
            .insert({ organization_id: organizationId, email_notifications_enabled: input.emailNotificationsEnabled, email_recipient: recipient, updated_at: t })
            .onConflict('organization_id')
            .merge({ email_notifications_enabled: input.emailNotificationsEnabled, email_recipient: recipient, updated_at: t });
        return this.getEmailSettings(organizationId);
    }

    async sendTestEmail(organizationId: number): Promise<{ message: string; to: string }> {
        const settings = await this.getEmailSettings(organizationId);
        const org = await this.app.services.tenants.getOrganization(organizationId);
        await this.mail.send({
            organizationId,
            to: settings.emailRecipient,
            subject: `Test email from ${org?.storeName ?? 'loyalty-chat'} live chat`,
            text: 'This is a test of your live chat transcript emails. If you can read this, transcripts will reach this address.'
        });
        return { message: `Test email sent to ${settings.emailRecipient}`, to: settings.emailRecipient };
    }

    /** The transcript job: one email with every message of the session, as plain text. */
    async sendTranscript(organizationId: number, sessionId: string): Promise<void> {
        const session = await this.getSession(organizationId, sessionId, { messages: true });
        const settings = await this.getEmailSettings(organizationId);
        const org = await this.app.services.tenants.getOrganization(organizationId);
        const lines = [
            `Live chat transcript — ${org?.storeName ?? ''}`.trim(),
            `Session: ${session.sessionId}`,
            `Customer phone: ${session.phoneNumber}`,
            `Started: ${session.createdAt}`,
            `Accepted: ${session.acceptedAt ?? '-'}`,
            `Ended: ${session.endedAt ?? '-'} (${session.endReason ?? session.status})`,
            '',
            ...(session.messages ?? []).map((m) => `[${m.timestamp}] ${m.sender === 'customer' ? 'Customer' : m.sender === 'agent' ? 'Agent' : 'System'}: ${m.message}`)
        ];
        await this.mail.send({
            organizationId,
            to: settings.emailRecipient,
            subject: `Chat transcript: ${session.phoneNumber} (${session.sessionId.slice(-8)})`,
            text: lines.join('\n') + '\n'
        });
    }

    // ---- mapping --------------------------------------------------------------------------------

    toSession(row: ChatSessionModel): ChatSession {
        return {
            sessionId: row.session_id,
            phoneNumber: row.phone_number,
            status: row.status,
            firstMessage: row.customer_message,
            domain: row.domain,
            agentId: row.agent_user_id,
            createdAt: iso(row.created_at)!,
            startedAt: iso(row.created_at)!,
            acceptedAt: iso(row.accepted_at),
            endedAt: iso(row.ended_at),
            endedBy: row.ended_by,
            endReason: row.end_reason,
            isStarred: !!row.is_starred,
            isArchived: !!row.is_archived,
            lastSeq: row.last_seq
        };
    }

    toMessage(row: ChatMessageModel, sessionId: string): ChatMessage {
        return {
            id: Number(row.id),
            sessionId,
            seq: row.seq,
            sender: row.sender,
            message: row.message,
            clientMessageId: row.client_message_id,
            timestamp: iso(row.created_at)!
        };
    }
}
