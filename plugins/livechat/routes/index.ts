import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Request, Server, ServerRoute } from '@hapi/hapi';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Limit, tooMany } from '../../../core/http/rate-limit';
import { allow } from '../../../core/http/access';
import { hostOf } from '../../../core/http/origins';
import { clientIp } from '../../../core/http/client-ip';
import { fields, MAX_ID } from '../../../core/http/fields';
import { adminOf, callerOf, widgetOf } from '../../../core/http/callers';
import { customerTokenFor, signCustomerToken } from '../../../core/auth/customer-token';
import { coded, withCodes } from '../../../core/http/errors';
import { LIVECHAT_ERRORS, LIVECHAT_INPUT_CODES, messageTooLong } from '../errors';

const params = Joi.object({ sessionId: fields.chatSessionId.required() });

/**
 * The page a customer writes from (issue 23): an http(s) URL, which the widget sends as origin and path only (no
 * query or fragment, which may carry personal data); the console shows it as text and a link.
 */
const pageUrl = withCodes(Joi.string().trim().max(2000).uri({ scheme: ['http', 'https'] }).allow('', null)
    .messages({ 'string.uri': '"pageUrl" must be an http(s) URL', 'string.uriCustomScheme': '"pageUrl" must be an http(s) URL' }),
{ '*': LIVECHAT_INPUT_CODES.pageUrl });

/** Per-connection send limit over nes (SPEC: hardening): this many messages per CHAT_SEND_WINDOW_SECONDS (10). */
export const SOCKET_SEND_POINTS = 20;
/** How many of the customer's last questions to the AI agent a left message's mail to the store carries. */
const EARLIER_TURNS = 5;
const TOO_FAST = LIVECHAT_ERRORS.tooFast;

type Actor =
    | { kind: 'agent'; organizationId: number; userId: number }
    | { kind: 'customer'; organizationId: number; sessionId: string };

/**
 * Who is calling: an admin of an organization, or the customer of one chat. The route's access already bound
 * a customer to the chat of its path (`session:{sessionId}` scope); the check here keeps that true for any
 * caller of this function.
 */
function actorOf(request: Request): Actor {
    const caller = callerOf(request);
    if (caller.kind === 'customer') {
        const sessionId = (request.params as { sessionId?: string }).sessionId;
        if (sessionId !== undefined && sessionId !== caller.sessionId) {
            throw Boom.notFound('Chat session not found');
        }
        return { kind: 'customer', organizationId: caller.organizationId, sessionId: caller.sessionId };
    }
    const admin = adminOf(request);
    return { kind: 'agent', organizationId: admin.organizationId, userId: admin.userId };
}

export function livechatRoutes(server: Server): ServerRoute[] {
    const chat = () => server.app.services.livechat;
    const createLimit = new Limit(server.app, { name: 'chat-create-ip', points: 20, duration: 60 });
    const offlineLimit = new Limit(server.app, { name: 'chat-offline-ip', points: 5, duration: 3600 });
    // Per store too (issue 25): many addresses must not turn into as many mails to one store.
    const offlineStoreLimit = new Limit(server.app, { name: 'chat-offline-store', points: server.app.config.chat.offlineMessagesPerStoreHour, duration: 3600 });
    const testEmailLimit = new Limit(server.app, { name: 'chat-test-email-store', points: server.app.config.chat.testEmailsPerStoreHour, duration: 3600 });
    const sendLimit = new Limit(server.app, { name: 'chat-send', points: 30, duration: 10 });
    const sendWindowMs = server.app.config.chat.sendWindowMs;
    // One typing signal per sender and chat every CHAT_TYPING_THROTTLE_MS, on this node (a cosmetic signal:
    // a second node may pass one more); the ones in between are answered `throttled` and pushed to nobody.
    const typingLimit = new RateLimiterMemory({ keyPrefix: 'chat-typing', points: 1, duration: server.app.config.chat.typingThrottleMs / 1000 });

    // A socket's own budget (per connection, on the node that holds it): SOCKET_SEND_POINTS messages per
    // CHAT_SEND_WINDOW_SECONDS; the 429 says when the next one may go.
    const socketSendLimit = new RateLimiterMemory({ keyPrefix: 'chat-send-socket', points: SOCKET_SEND_POINTS, duration: sendWindowMs / 1000 });

    /** nes: the socket's own budget; HTTP: the shared limit per chat and sender. */
    async function limitSend(request: Request, key: string): Promise<void> {
        const socket = request.plugins.nes?.socket;
        if (socket) {
            try {
                await socketSendLimit.consume(socket.id);
            }
            catch (res) {
                throw tooMany(TOO_FAST.message, (res as { msBeforeNext?: number }).msBeforeNext ?? sendWindowMs, TOO_FAST.code);
            }
            return;
        }
        await sendLimit.consume(key, TOO_FAST);
    }

    const maxLength = server.app.config.chat.maxMessageLength;

    return [
        {
            method: 'POST',
            path: '/api/chat/check-availability',
            options: {
                id: 'livechat.availability.check',
                auth: allow('widget'),
                tags: ['widget'],
                validate: { payload: Joi.object({ sessionId: fields.widgetSessionId.allow('') }).allow(null).unknown(false) },
                handler: async (request) => {
                    const c = widgetOf(request);
                    // Outside the support hours (issue 26): closed, when it opens, and what the widget offers meanwhile.
                    const hours = await server.app.services.livechatHours.availability(c.organizationId);
                    if (!hours.open) {
                        return { available: false, reason: 'closed', opensAt: hours.opensAt, whenClosed: hours.whenClosed, message: 'Live support is closed right now' };
                    }
                    const available = await chat().agentsAvailable(c.organizationId);
                    // Nobody available is an expected outcome, not an error (issue 11): 200 either way.
                    return available ? { available: true, reason: 'open' } : { available: false, reason: 'no_agent', message: 'No agents are available right now' };
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/create-session',
            options: {
                id: 'livechat.session.create',
                auth: allow('widget'),
                tags: ['widget'],
                validate: {
                    payload: Joi.object({
                        sessionId: fields.widgetSessionId.required(),
                        phoneNumber: Joi.string().trim().max(20).allow('', null),
                        customerMessage: Joi.string().trim().max(maxLength).allow('', null)
                            .messages({ 'string.max': `"customerMessage" must be at most ${maxLength} characters` }),
                        pageUrl,
                        // The customer's language (issue 27): kept with the chat, shown in the console.
                        lang: withCodes(Joi.string().trim().max(35).pattern(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
                            .messages({ 'string.pattern.base': '"lang" must be a language tag such as en or es-MX' }), { '*': LIVECHAT_INPUT_CODES.lang })
                    })
                },
                handler: async (request, h) => {
                    const c = widgetOf(request);
                    await createLimit.consume(clientIp(request), LIVECHAT_ERRORS.tooManyChats);
                    const body = request.payload as { sessionId: string; phoneNumber?: string | null; customerMessage?: string | null; pageUrl?: string | null; lang?: string };
                    // Outside the support hours only a chat already open goes on (issue 26); a new one is refused.
                    const hours = await server.app.services.livechatHours.availability(c.organizationId);
                    if (!hours.open && !await chat().hasOpenChat(c.organizationId, body.sessionId)) {
                        throw coded(Boom.conflict(LIVECHAT_ERRORS.closed.message), LIVECHAT_ERRORS.closed.code, hours.opensAt ? { opensAt: hours.opensAt } : undefined);
                    }
                    // A customer who talked with the AI agent first arrives with that conversation (issue 13).
                    const aiConversation = await server.app.services.ai.conversationForSession(c.organizationId, body.sessionId) ?? [];
                    const { session, created } = await chat().createSession({
                        organizationId: c.organizationId,
                        botInstanceId: c.botInstanceId,
                        sessionId: body.sessionId,
                        phoneNumber: body.phoneNumber ?? null,
                        customerMessage: body.customerMessage ?? null,
                        pageUrl: body.pageUrl || null,
                        lang: body.lang ?? null,
                        domain: hostOf(request.headers.origin as string | undefined) ?? hostOf(request.headers.referer as string | undefined),
                        ...(aiConversation.length ? {
                            via: 'ai' as const,
                            aiContext: { originalQuestion: body.customerMessage?.trim() || aiConversation[aiConversation.length - 1].question, aiConversation }
                        } : {})
                    });
                    if (created) {
                        // The AI's answers this session still had pending were not enough: handed off (issue 23 triage).
                        await server.app.services.ai?.handedOff(c.organizationId, body.sessionId);
                    }
                    // One token (DESIGN §10): the widget session's own token, renewed and naming the chat, keeps the
                    // phone its code check proved (and its deadline); without one, the new token names no phone.
                    const secret = server.app.config.jwtSecret;
                    const held = customerTokenFor(secret, request.headers.authorization, c.organizationId, body.sessionId);
                    const token = signCustomerToken(secret, { organizationId: c.organizationId, sessionId: body.sessionId, chatId: session.sessionId, phone: held?.phone });
                    return h.response({
                        sessionId: session.sessionId,
                        status: session.status,
                        lastSeq: session.lastSeq,
                        token,
                        socketPath: '/ws',
                        subscription: `/chat/sessions/${session.sessionId}`,
                        message: 'Live chat session created'
                    }).code(created ? 201 : 200);
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/offline-message',
            options: {
                id: 'livechat.offline.create',
                auth: allow('widget'),
                tags: ['widget'],
                validate: {
                    payload: Joi.object({
                        sessionId: fields.widgetSessionId.required(),
                        email: withCodes(Joi.string().trim().email({ tlds: false }).max(254).required()
                            .messages({ 'string.email': LIVECHAT_ERRORS.invalidEmail.message }), { '*': LIVECHAT_ERRORS.invalidEmail.code }),
                        message: withCodes(Joi.string().trim().min(1).max(maxLength).required()
                            .messages({ 'string.max': messageTooLong(maxLength).message, 'string.empty': LIVECHAT_ERRORS.messageEmpty.message }),
                        { 'string.max': messageTooLong(maxLength).code, '*': LIVECHAT_ERRORS.messageEmpty.code }, messageTooLong(maxLength).args),
                        phoneNumber: Joi.string().trim().max(20).allow('', null),
                        name: withCodes(Joi.string().trim().max(100).allow('', null), { '*': LIVECHAT_INPUT_CODES.name }),
                        pageUrl,
                        // The customer's language: the agents' replies are mailed in it (DESIGN §10).
                        lang: withCodes(Joi.string().trim().max(35).pattern(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
                            .messages({ 'string.pattern.base': '"lang" must be a language tag such as en or es-MX' }), { '*': LIVECHAT_INPUT_CODES.lang })
                    }).unknown(false)
                },
                handler: async (request, h) => {
                    const c = widgetOf(request);
                    await offlineLimit.consume(clientIp(request), LIVECHAT_ERRORS.tooManyOffline);
                    await offlineStoreLimit.consume(String(c.organizationId), LIVECHAT_ERRORS.offlineStoreFull);
                    const body = request.payload as { sessionId: string; email: string; message: string; phoneNumber?: string | null; name?: string | null; pageUrl?: string | null; lang?: string };
                    // What the customer asked the AI agent before writing (its last turns), for the store's mail.
                    const earlier = (await server.app.services.ai?.conversationForSession(c.organizationId, body.sessionId, EARLIER_TURNS) ?? [])
                        .map((turn) => ({ question: turn.question, answer: turn.answer }));
                    const { session } = await chat().offlineMessage({
                        organizationId: c.organizationId, botInstanceId: c.botInstanceId, sessionId: body.sessionId, email: body.email,
                        message: body.message, phoneNumber: body.phoneNumber ?? null, name: body.name || null, pageUrl: body.pageUrl || null, lang: body.lang ?? null, earlier,
                        domain: hostOf(request.headers.origin as string | undefined) ?? hostOf(request.headers.referer as string | undefined)
                    });
                    // Leaving a message for a person is a hand-off too: the AI's answers still pending were not enough (issue 23).
                    await server.app.services.ai?.handedOff(c.organizationId, body.sessionId);
                    return h.response({ ok: true, sessionId: session.sessionId, message: 'Thanks! The store will answer by email.' }).code(201);
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/waiting',
            options: {
                id: 'livechat.waiting.list',
                auth: allow('admin'),
                handler: async (request) => {
                    const { organizationId } = adminOf(request);
                    // Each with its open offer (issue 26): who has it, until when.
                    return server.app.services.livechatRouting.withOffers(organizationId, await chat().listWaiting(organizationId));
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/sessions',
            options: {
                id: 'livechat.session.list',
                auth: allow('admin'),
                validate: {
                    query: Joi.object({
                        status: Joi.string().valid('active', 'recent').default('active'),
                        includeArchived: Joi.boolean().default(false)
                    })
                },
                handler: async (request) => {
                    const q = request.query as { status: 'active' | 'recent'; includeArchived: boolean };
                    return server.app.services.livechatConsole.listSessions(adminOf(request).organizationId, q);
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/session/{sessionId}',
            options: {
                id: 'livechat.session.get',
                auth: allow('admin', 'customer'),
                validate: { params },
                handler: async (request) => {
                    const actor = actorOf(request);
                    const { sessionId } = request.params as { sessionId: string };
                    const session = await chat().getSession(actor.organizationId, sessionId, { messages: true });
                    // The customer's rating (issue 28): the console's conversation and History show it.
                    return { ...session, rating: await server.app.services.livechatRatings.ratingOf(actor.organizationId, sessionId) };
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/session/{sessionId}/messages',
            options: {
                id: 'livechat.message.list',
                auth: allow('admin', 'customer'),
                validate: { params, query: Joi.object({ after: Joi.number().integer().min(0).max(MAX_ID).default(0) }) },
                handler: async (request) => {
                    const actor = actorOf(request);
                    const { session, messages } = await chat().messagesAfter(actor.organizationId,
                        (request.params as { sessionId: string }).sessionId, (request.query as { after: number }).after);
                    // Waiting: the customer's place in the queue and the typical wait (issue 26), read on every (re)connect.
                    const queue = session.status === 'waiting' ? await server.app.services.livechatQueue.placeOf(actor.organizationId, session.sessionId) : null;
                    return { sessionId: session.sessionId, status: session.status, endReason: session.endReason, lastSeq: session.lastSeq, messages, ...(queue ? { queue } : {}) };
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/messages',
            options: {
                id: 'livechat.message.send',
                auth: allow('admin', 'customer'),
                tags: ['widget'],
                validate: {
                    params,
                    payload: Joi.object({
                        // With files (issue 29) the text may be empty: a message may be files only.
                        message: Joi.string().trim().max(maxLength).messages({
                            'string.max': `Message is too long: at most ${maxLength} characters`,
                            'string.empty': 'Message must not be empty',
                            'any.required': 'Message must not be empty'
                        }).when('attachments', { is: Joi.array().min(1).required(), then: Joi.string().allow('').default(''), otherwise: Joi.string().min(1).required() }),
                        attachments: Joi.array().items(Joi.string().pattern(/^[A-Za-z0-9_-]{16,64}$/)).max(5)
                            .messages({ 'array.max': 'You can send up to 5 files in one message.' }),
                        clientMessageId: Joi.string().trim().min(1).max(64).pattern(/^[A-Za-z0-9_.:-]+$/),
                        sender: Joi.string().valid('customer', 'agent'),
                        timestamp: Joi.string().isoDate()
                    })
                },
                handler: async (request, h) => {
                    const actor = actorOf(request);
                    const { sessionId } = request.params as { sessionId: string };
                    const body = request.payload as { message: string; clientMessageId?: string; sender?: string; attachments?: string[] };
                    if (body.sender && body.sender !== (actor.kind === 'agent' ? 'agent' : 'customer')) {
                        throw Boom.badRequest(`"sender" must be ${actor.kind === 'agent' ? 'agent' : 'customer'}`);
                    }
                    await limitSend(request, `${actor.organizationId}:${sessionId}:${actor.kind}`);
                    const { message, duplicate } = await chat().sendMessage(actor.organizationId, sessionId,
                        actor.kind === 'agent' ? { sender: 'agent', userId: actor.userId } : { sender: 'customer', userId: null },
                        { message: body.message ?? '', clientMessageId: body.clientMessageId, attachments: body.attachments });
                    if (actor.kind === 'agent' && !duplicate) {
                        // The chat's first response (issue 26), recorded off the message's path.
                        server.app.services.livechatRouting.agentMessage(actor.organizationId, sessionId, actor.userId)
                            .catch((err) => server.app.log.warn({ err }, 'first response not recorded'));
                    }
                    return h.response(message).code(duplicate ? 200 : 201);
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/typing',
            options: {
                id: 'livechat.session.typing',
                auth: allow('admin', 'customer'),
                tags: ['widget'],
                description: 'The customer or the agent is typing: pushed to the other side (at most every CHAT_TYPING_THROTTLE_MS per sender and chat)',
                validate: { params, payload: Joi.object({}).allow(null) },
                handler: async (request) => {
                    // Who is typing comes from the caller's credentials, never from the request.
                    const actor = actorOf(request);
                    const { sessionId } = request.params as { sessionId: string };
                    const who = actor.kind === 'agent' ? `agent${actor.userId}` : 'customer';
                    try {
                        await typingLimit.consume(`${actor.organizationId}:${sessionId}:${who}`);
                    }
                    catch {
                        return { type: 'typing', throttled: true };
                    }
                    await chat().typing(actor.organizationId, sessionId, actor.kind === 'agent' ? 'agent' : 'customer');
                    return { type: 'typing', throttled: false };
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/accept',
            options: {
                id: 'livechat.session.accept',
                auth: allow('admin'),
                validate: { params, payload: Joi.object({ agentId: Joi.any().strip() }).allow(null) },
                handler: async (request) => {
                    // The agent is the one logged in (SPEC §6 fixed it to 1; DESIGN: real identity).
                    const agent = adminOf(request);
                    return chat().accept(agent.organizationId, agent.userId, (request.params as { sessionId: string }).sessionId);
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/end',
            options: {
                id: 'livechat.session.end',
                auth: allow('admin', 'customer'),
                tags: ['widget'],
                validate: { params, payload: Joi.object({ reason: Joi.string().valid('agent_ended', 'customer_disconnected', 'customer_left') }).allow(null) },
                handler: async (request) => {
                    const actor = actorOf(request);
                    const reason = (request.payload as { reason?: string } | null)?.reason;
                    return chat().end(actor.organizationId, (request.params as { sessionId: string }).sessionId,
                        actor.kind === 'agent' ? 'agent' : 'customer', reason);
                }
            }
        },
        {
            method: 'PATCH',
            path: '/api/chat/session/{sessionId}/star',
            options: {
                id: 'livechat.session.star',
                auth: allow('admin'),
                validate: { params, payload: Joi.object({ isStarred: Joi.boolean().required() }) },
                handler: async (request) => chat().setFlags(adminOf(request).organizationId,
                    (request.params as { sessionId: string }).sessionId, request.payload as { isStarred: boolean })
            }
        },
        {
            method: 'PATCH',
            path: '/api/chat/session/{sessionId}/archive',
            options: {
                id: 'livechat.session.archive',
                auth: allow('admin'),
                validate: { params, payload: Joi.object({ isArchived: Joi.boolean().required() }) },
                handler: async (request) => chat().setFlags(adminOf(request).organizationId,
                    (request.params as { sessionId: string }).sessionId, request.payload as { isArchived: boolean })
            }
        },
        {
            method: 'GET',
            path: '/api/chat/agent/status',
            options: {
                id: 'livechat.agent.status',
                auth: allow('admin'),
                handler: async (request) => {
                    const agent = adminOf(request);
                    return { agentId: agent.userId, ...(await chat().agentStatus(agent.userId)) };
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/agent/activity',
            options: {
                id: 'livechat.agent.activity',
                auth: allow('admin'),
                description: 'The staff app saw the agent\'s mouse or keyboard (reported at most about once a minute): keeps an Available agent from going Away idle',
                validate: { payload: Joi.object({}).allow(null) },
                handler: async (request) => {
                    const agent = adminOf(request);
                    return { agentId: agent.userId, ...(await server.app.services.presence.activity(agent.userId, agent.organizationId)) };
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/agent/logout',
            options: {
                id: 'livechat.agent.logout',
                auth: allow('admin'),
                description: 'The staff app signs out (called before it forgets the token): the agent is Away at once',
                validate: { payload: Joi.object({}).allow(null) },
                handler: async (request) => {
                    const { userId } = adminOf(request);
                    const away = await server.app.services.presence.logout(userId);
                    await server.app.services.livechatRouting.agentAway(userId);        // their offers move on (issue 26)
                    return away;
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/agent/availability',
            options: {
                id: 'livechat.agent.availability',
                auth: allow('admin'),
                validate: { payload: Joi.object({ available: Joi.boolean().required() }) },
                handler: async (request) => {
                    const agent = adminOf(request);
                    const result = await chat().setAvailability(agent.userId, agent.organizationId, (request.payload as { available: boolean }).available);
                    // Waiting chats find an agent who is back; the ones offered to an agent who leaves move on (issue 26).
                    if (result.available) {
                        await server.app.services.livechatRouting.routeWaiting(agent.organizationId);
                    }
                    else {
                        await server.app.services.livechatRouting.agentAway(agent.userId);
                    }
                    return { ...result, message: result.available ? 'You are available for chats' : 'You are unavailable' };
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/email-settings',
            options: {
                id: 'livechat.email-settings.get',
                auth: allow('admin'),
                handler: async (request) => chat().getEmailSettings(adminOf(request).organizationId)
            }
        },
        {
            method: 'POST',
            path: '/api/chat/email-settings',
            options: {
                id: 'livechat.email-settings.update',
                plugins: { audit: { action: 'settings.email.update' } },
                auth: allow('admin'),
                validate: {
                    payload: Joi.object({
                        emailNotificationsEnabled: Joi.boolean().required(),
                        emailRecipient: Joi.string().trim().email({ tlds: false }).max(320).allow('', null)
                    })
                },
                handler: async (request) => {
                    const settings = await chat().setEmailSettings(adminOf(request).organizationId,
                        request.payload as { emailNotificationsEnabled: boolean; emailRecipient?: string | null });
                    return { ...settings, message: settings.emailNotificationsEnabled
                        ? `Chat transcripts will be emailed to ${settings.emailRecipient}`
                        : 'Chat transcript emails are off' };
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/test-email',
            options: {
                id: 'livechat.email.test',
                auth: allow('admin'),
                handler: async (request) => {
                    const { organizationId } = adminOf(request);
                    // Only to the store's own staff (400), then at most TEST_EMAILS_PER_STORE_HOUR an hour (429).
                    await chat().testEmailRecipient(organizationId);
                    await testEmailLimit.consume(String(organizationId), 'Too many test emails for this store. Please try again in an hour.');
                    try {
                        return await chat().sendTestEmail(organizationId);
                    }
                    catch (err) {
                        if (Boom.isBoom(err)) {
                            throw err;
                        }
                        throw Boom.badGateway(`Email configuration test failed: ${(err as Error).message}`);
                    }
                }
            }
        }
    ];
}
