import Joi from 'joi';
import type { Server, ServerRoute } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { adminOf } from '../../../core/http/callers';
import { fields } from '../../../core/http/fields';
import { withCodes } from '../../../core/http/errors';
import type { ConsoleService, HistoryFilter } from '../services/console-service';
import { LIVECHAT_ERRORS, LIVECHAT_INPUT_CODES, LIVECHAT_STAFF_ERRORS, messageTooLong } from '../errors';
import { Limit } from '../../../core/http/rate-limit';

/** Replies to left messages a store may mail per hour (every agent together). */
export const LEFT_MESSAGE_REPLIES_PER_STORE_HOUR = 200;
import type { LeftMessageState } from '../../../core/types/api';

const params = Joi.object({ sessionId: fields.chatSessionId.required() });

/** The agent console's routes beyond the live queue (issue 14): read marks, history, customer context, canned replies. */
export function consoleRoutes(server: Server, console: ConsoleService): ServerRoute[] {
    const maxLength = server.app.config.chat.maxMessageLength;
    const chat = () => server.app.services.livechat;
    const replyLimit = new Limit(server.app, { name: 'chat-left-reply-store', points: LEFT_MESSAGE_REPLIES_PER_STORE_HOUR, duration: 3600 });
    return [
        {
            method: 'GET',
            path: '/api/chat/left-messages',
            options: {
                id: 'livechat.left-message.list',
                auth: allow('admin'),
                description: 'The Messages inbox (issue 23): left messages in one state, with previews, unread counts and the inbox counts',
                validate: { query: Joi.object({ state: withCodes(Joi.string().valid('open', 'done', 'all').default('open'), { '*': LIVECHAT_INPUT_CODES.state }) }) },
                handler: async (request) => console.leftMessages(adminOf(request).organizationId, (request.query as { state: LeftMessageState | 'all' }).state)
            }
        },
        {
            method: 'POST',
            path: '/api/chat/left-messages/{sessionId}/reply',
            options: {
                id: 'livechat.left-message.reply',
                auth: allow('admin'),
                description: 'Answers a left message: mailed to the customer (Reply-To the store), then kept in its thread',
                validate: {
                    params,
                    payload: Joi.object({
                        message: withCodes(Joi.string().trim().min(1).max(maxLength).required()
                            .messages({ 'string.max': messageTooLong(maxLength).message, 'string.empty': LIVECHAT_ERRORS.messageEmpty.message }),
                        { 'string.max': messageTooLong(maxLength).code, '*': LIVECHAT_ERRORS.messageEmpty.code }, messageTooLong(maxLength).args),
                        clientMessageId: withCodes(Joi.string().trim().min(1).max(64).pattern(/^[A-Za-z0-9_.:-]+$/), { '*': LIVECHAT_INPUT_CODES.clientMessageId })
                    })
                },
                handler: async (request, h) => {
                    const agent = adminOf(request);
                    const body = request.payload as { message: string; clientMessageId?: string };
                    await replyLimit.consume(String(agent.organizationId), LIVECHAT_STAFF_ERRORS.tooManyReplies);
                    const { duplicate, ...reply } = await chat().replyToLeftMessage(agent.organizationId,
                        (request.params as { sessionId: string }).sessionId, agent.userId, body);
                    return h.response(reply).code(duplicate ? 200 : 201);
                }
            }
        },
        {
            method: 'PATCH',
            path: '/api/chat/left-messages/{sessionId}',
            options: {
                id: 'livechat.left-message.update',
                auth: allow('admin'),
                description: 'Marks a left message done, or open again',
                validate: { params, payload: Joi.object({ state: withCodes(Joi.string().valid('open', 'done').required(), { '*': LIVECHAT_INPUT_CODES.state }) }) },
                handler: async (request) => chat().setLeftMessageState(adminOf(request).organizationId,
                    (request.params as { sessionId: string }).sessionId, (request.payload as { state: LeftMessageState }).state)
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/read',
            options: {
                id: 'livechat.session.read',
                auth: allow('admin'),
                validate: { params, payload: Joi.object({ seq: Joi.number().integer().min(0).max(1_000_000_000).required() }) },
                handler: async (request) => console.markRead(adminOf(request).organizationId,
                    (request.params as { sessionId: string }).sessionId, (request.payload as { seq: number }).seq)
            }
        },
        {
            method: 'GET',
            path: '/api/chat/history',
            options: {
                id: 'livechat.history.list',
                auth: allow('admin'),
                validate: {
                    query: Joi.object({
                        from: Joi.date().iso(),
                        to: Joi.date().iso().when('from', { is: Joi.exist(), then: Joi.date().min(Joi.ref('from')) })
                            .messages({ 'date.min': '"to" must not be before "from"' }),
                        starred: Joi.boolean(),
                        archived: Joi.string().valid('exclude', 'only', 'include').default('exclude'),
                        phone: Joi.string().trim().max(30).allow(''),
                        q: Joi.string().trim().max(200).allow(''),
                        page: Joi.number().integer().min(1).max(10_000).default(1),
                        pageSize: Joi.number().integer().min(1).max(100).default(25)
                    })
                },
                handler: async (request) => {
                    const q = request.query as Omit<HistoryFilter, 'from' | 'to'> & { from?: Date; to?: Date };
                    return console.history(adminOf(request).organizationId, {
                        ...q,
                        from: q.from?.getTime(),
                        to: q.to?.getTime()
                    });
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/session/{sessionId}/context',
            options: {
                id: 'livechat.session.context',
                auth: allow('admin'),
                validate: { params },
                handler: async (request) => console.context(adminOf(request).organizationId, (request.params as { sessionId: string }).sessionId)
            }
        },
        {
            method: 'GET',
            path: '/api/chat/canned-replies',
            options: {
                id: 'livechat.canned-replies.list',
                auth: allow('admin'),
                handler: async (request) => console.cannedReplies(adminOf(request).organizationId)
            }
        }
    ];
}
