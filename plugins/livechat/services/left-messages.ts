import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import { raw } from 'objection';
import type { Db } from '../../../core/db';
import type { Realtime } from '../../../core/realtime/socket-server';
import type { Services } from '../../../core/types';
import { coded } from '../../../core/http/errors';
import { e164 } from '../../../core/http/fields';
import { ChatMessageModel, ChatSessionModel } from '../models';
import { LIVECHAT_ERRORS, LIVECHAT_STAFF_ERRORS } from '../errors';
import { leftMessageReplyMail, storeLeftMessageMail } from '../texts';
import type { MailService } from './mail-service';
import type { AgentNames } from './agent-names';
import type { ChatMail } from './chat-mail';
import { paths, toMessage, toSession } from './chat-shapes';
import type { ChatSession, LeftMessageReply, LeftMessageState } from '../../../core/types/api';

export interface LeftMessagesDeps {
    db: Db;
    realtime: Realtime;
    mail: Pick<MailService, 'send'>;
    tenants: Pick<Services['tenants'], 'getOrganization'>;
    chatMail: Pick<ChatMail, 'settings'>;
    names: AgentNames;
}

/** A left message from the widget, as the offline-message route passes it. */
export interface LeftMessageInput {
    organizationId: number;
    botInstanceId: number | null;
    sessionId: string;
    email: string;
    message: string;
    phoneNumber: string | null;
    domain: string | null;
    name?: string | null;
    pageUrl?: string | null;
    /** The customer's language (the widget's): the agents' replies are mailed in it. */
    lang?: string | null;
    /** What they asked the AI agent in this widget session before, oldest first: the store's mail carries it. */
    earlier?: ReadonlyArray<{ question: string; answer: string }>;
}

/**
 * Left messages (issues 11 and 23): when no agent was available the customer leaves an email address and a text; it
 * is a conversation in the console's Messages inbox, mailed to the store, answered by mail from the console.
 */
export class LeftMessages {
    constructor(private readonly deps: LeftMessagesDeps) {}

    /**
     * Stored as a conversation of kind `left_message`, open in the Messages inbox and unread (the customer's text, then
     * a system line naming the reply address); the status stays that of a chat that never reached an agent
     * (no_interaction, reason `offline_message`), so the analytics count it as before. Then mailed to the store's
     * transcript recipient (whether or not transcripts are on: it is the store's mail; Reply-To the customer), and
     * pushed to the store's agents (`left_message`).
     */
    async leave(input: LeftMessageInput): Promise<{ session: ChatSession; to: string }> {
        const db = this.deps.db;
        const existing = await ChatSessionModel.query(db).select('id')
            .where({ organization_id: input.organizationId, widget_session_id: input.sessionId });
        const sessionId = existing.length ? `${input.sessionId}~${existing.length + 1}` : input.sessionId;
        const text = input.message.trim();
        const email = input.email.trim();
        const name = input.name?.trim() || null;
        const note = `Offline message: no agent was available. Reply to ${email}`;
        const row = await db.transaction(async (trx) => {
            const t = Date.now();
            const created = await ChatSessionModel.query(trx).insertAndFetch({
                organizationId: input.organizationId, botInstanceId: input.botInstanceId, sessionId, widgetSessionId: input.sessionId,
                phoneNumber: e164(input.phoneNumber ?? '') ?? 'Unknown', status: 'no_interaction', customerMessage: text, domain: input.domain,
                lastSeq: 2, isStarred: false, isArchived: false, endedBy: 'customer', endReason: 'offline_message', endedAt: t,
                kind: 'left_message', inboxState: 'open', customerEmail: email, customerName: name, pageUrl: input.pageUrl ?? null,
                lang: input.lang ?? null
            });
            await created.$relatedQuery('messages', trx).insert({
                organizationId: input.organizationId, seq: 1, sender: 'customer', senderUserId: null, message: text, clientMessageId: 'offline', createdAt: t
            });
            await created.$relatedQuery('messages', trx).insert({
                organizationId: input.organizationId, seq: 2, sender: 'system', senderUserId: null, message: note, clientMessageId: 'offline-note', createdAt: t
            });
            return created;
        });
        const session = toSession(row);
        const settings = await this.deps.chatMail.settings(input.organizationId);
        const org = await this.deps.tenants.getOrganization(input.organizationId);
        // To the store, in the store's default language (DESIGN §10), whatever the customer's.
        const mail = storeLeftMessageMail(org?.languages.default, {
            store: org?.storeName ?? '', email, name, phone: row.phoneNumber, visitorNumber: session.visitorNumber, pageUrl: row.pageUrl ?? null,
            sessionId, message: text, earlier: input.earlier
        });
        await this.deps.mail.send({ organizationId: input.organizationId, to: settings.emailRecipient, replyTo: email, ...mail });
        await this.deps.realtime.publish(paths.agents(input.organizationId), {
            type: 'left_message', sessionId, visitorNumber: session.visitorNumber, visitorLabel: session.visitorLabel,
            email, name, message: text, pageUrl: session.pageUrl, timestamp: session.createdAt
        });
        return { session, to: settings.emailRecipient };
    }

    /** The store's left message with this id (404 for a live chat, or another store's). */
    private async find(organizationId: number, sessionId: string): Promise<ChatSessionModel> {
        const row = await ChatSessionModel.query(this.deps.db).findOne({ organization_id: organizationId, session_id: sessionId, kind: 'left_message' });
        if (!row) {
            throw coded(Boom.notFound(LIVECHAT_STAFF_ERRORS.notFound.message), LIVECHAT_STAFF_ERRORS.notFound.code);
        }
        return row;
    }

    /**
     * An agent answers a left message (issue 23): the reply is mailed to the customer's address, Reply-To the store's
     * recipient (the customer's answer goes to the store's mailbox, not back into the console), then stored in the
     * thread, read up to it, and pushed to the store's agents (`left_message_updated`). Nothing is stored when the
     * mail fails (502). A retry with the same client message id answers the stored reply and mails nothing.
     */
    async reply(organizationId: number, sessionId: string, agentId: number,
        input: { message: string; clientMessageId?: string | null }): Promise<LeftMessageReply & { duplicate: boolean }> {
        const db = this.deps.db;
        const text = input.message.trim();
        if (!text) {
            throw coded(Boom.badRequest('Message must not be empty'), LIVECHAT_ERRORS.messageEmpty.code);
        }
        const row = await this.find(organizationId, sessionId);
        const clientMessageId = input.clientMessageId ?? Crypto.randomUUID();
        const settings = await this.deps.chatMail.settings(organizationId);
        const earlier = await row.$relatedQuery('messages', db).findOne({ sender: 'agent', client_message_id: clientMessageId });
        if (earlier) {
            const [message] = await this.deps.names.withNames(organizationId, [toMessage(earlier, sessionId)], [earlier]);
            return { message, session: toSession(row), to: row.customerEmail ?? '', replyTo: settings.emailRecipient, duplicate: true };
        }
        if (!row.customerEmail) {
            throw coded(Boom.conflict('This message has no reply address'), LIVECHAT_STAFF_ERRORS.noReplyAddress.code);
        }
        const org = await this.deps.tenants.getOrganization(organizationId);
        const agent = await this.deps.names.nameOf(organizationId, agentId);
        // In the language the customer wrote in (DESIGN §10); the store's own mails stay in the store's language.
        const mail = leftMessageReplyMail(row.lang, {
            store: org?.storeName ?? '', agent, name: row.customerName, reply: text, original: row.customerMessage ?? ''
        });
        try {
            await this.deps.mail.send({ organizationId, to: row.customerEmail, replyTo: settings.emailRecipient, subject: mail.subject, text: mail.text });
        }
        catch (err) {
            throw coded(Boom.badGateway(`The reply could not be mailed: ${(err as Error).message}`), LIVECHAT_STAFF_ERRORS.replyNotSent.code);
        }
        let stored: ChatMessageModel;
        try {
            stored = await db.transaction(async (trx) => {
                const [next] = await ChatSessionModel.query(trx).where('id', row.id)
                    .patch({ lastSeq: raw('last_seq + 1') })
                    .returning(['id', 'last_seq']);
                const message = await next.$relatedQuery('messages', trx).insert({
                    organizationId, seq: next.lastSeq, sender: 'agent', senderUserId: agentId, message: text, clientMessageId
                });
                await ChatSessionModel.query(trx).where('id', row.id).where('agent_read_seq', '<', next.lastSeq).patch({ agentReadSeq: next.lastSeq });
                return message;
            });
        }
        catch (err) {
            // Two sends of one reply at once: the unique (chat, sender, client message id) kept the first.
            const first = await row.$relatedQuery('messages', db).findOne({ sender: 'agent', client_message_id: clientMessageId });
            if (!first) {
                throw err;
            }
            stored = first;
        }
        const [message] = await this.deps.names.withNames(organizationId, [toMessage(stored, sessionId)], [stored]);
        const session = toSession(await row.$query(db));
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'left_message_updated', sessionId, inboxState: session.inboxState, message });
        return { message, session, to: row.customerEmail, replyTo: settings.emailRecipient, duplicate: false };
    }

    /** Marks a left message done, or open again; pushed to the store's agents. */
    async setState(organizationId: number, sessionId: string, state: LeftMessageState): Promise<ChatSession> {
        const row = await this.find(organizationId, sessionId);
        await row.$query(this.deps.db).patch({ inboxState: state });
        const session = toSession(await row.$query(this.deps.db));
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'left_message_updated', sessionId, inboxState: state });
        return session;
    }
}
