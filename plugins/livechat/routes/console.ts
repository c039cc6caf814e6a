import Joi from 'joi';
import type { Server, ServerRoute } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { adminOf } from '../../../core/http/callers';
import { fields } from '../../../core/http/fields';
import type { ConsoleService, HistoryFilter } from '../services/console-service';

const params = Joi.object({ sessionId: fields.chatSessionId.required() });

/** The agent console's routes beyond the live queue (issue 14): read marks, history, customer context, canned replies. */
export function consoleRoutes(server: Server, console: ConsoleService): ServerRoute[] {
    return [
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
