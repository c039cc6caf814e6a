import Joi from 'joi';
import type { Server, ServerRoute } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { adminOf } from '../../../core/http/callers';
import { fields } from '../../../core/http/fields';
import { MAX_CAPACITY } from '../services/routing-service';

const sessionParams = Joi.object({ sessionId: fields.chatSessionId.required() });
const clientId = Joi.string().trim().min(1).max(64).pattern(/^[A-Za-z0-9_.:-]+$/)
    .messages({ 'string.pattern.base': '{{#label}} may hold letters, digits and _ . : - only' });

/** Routing, hand-over and internal notes (issue 26): every route is a store admin's, on their own store's objects. */
export function routingRoutes(server: Server): ServerRoute[] {
    const routing = () => server.app.services.livechatRouting;
    const maxLength = server.app.config.chat.maxMessageLength;
    const noteText = Joi.string().trim().min(1).max(maxLength).required()
        .messages({ 'string.empty': 'Write the note first', 'string.max': `A note is at most ${maxLength} characters` });
    return [
        {
            method: 'GET',
            path: '/api/chat/team',
            options: {
                id: 'livechat.team.list',
                auth: allow('admin'),
                description: 'The store\'s staff: name, role, presence, open chats, capacity',
                handler: async (request) => routing().team(adminOf(request).organizationId)
            }
        },
        {
            method: 'PUT',
            path: '/api/chat/team/{userId}',
            options: {
                id: 'livechat.team.update',
                auth: allow('admin'),
                description: 'Sets an agent\'s capacity (chats at once)',
                validate: {
                    params: Joi.object({ userId: fields.id.required() }),
                    payload: Joi.object({
                        capacity: Joi.number().integer().min(1).max(MAX_CAPACITY).required()
                            .messages({ 'number.min': `"capacity" must be from 1 to ${MAX_CAPACITY}`, 'number.max': `"capacity" must be from 1 to ${MAX_CAPACITY}` })
                    })
                },
                handler: async (request) => routing().setCapacity(adminOf(request).organizationId,
                    (request.params as { userId: number }).userId, (request.payload as { capacity: number }).capacity)
            }
        },
        {
            method: 'GET',
            path: '/api/chat/routing-settings',
            options: {
                id: 'livechat.routing-settings.get',
                auth: allow('admin'),
                handler: async (request) => routing().settings(adminOf(request).organizationId)
            }
        },
        {
            method: 'PUT',
            path: '/api/chat/routing-settings',
            options: {
                id: 'livechat.routing-settings.update',
                auth: allow('admin'),
                description: 'Auto-assign new chats to the available agents, or leave them in the queue',
                validate: { payload: Joi.object({ autoAssign: Joi.boolean().required() }) },
                handler: async (request) => routing().setSettings(adminOf(request).organizationId, request.payload as { autoAssign: boolean })
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/transfer',
            options: {
                id: 'livechat.session.transfer',
                auth: allow('admin'),
                description: 'Hands a chat in progress to another available agent of the store, with a note for them',
                validate: {
                    params: sessionParams,
                    payload: Joi.object({
                        toAgentId: fields.id.required(),
                        note: Joi.string().trim().max(maxLength).allow('', null)
                            .messages({ 'string.max': `A note is at most ${maxLength} characters` }),
                        clientNoteId: clientId
                    })
                },
                handler: async (request) => {
                    const agent = adminOf(request);
                    return routing().transfer(agent.organizationId, (request.params as { sessionId: string }).sessionId, agent.userId,
                        request.payload as { toAgentId: number; note?: string | null; clientNoteId?: string });
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/session/{sessionId}/notes',
            options: {
                id: 'livechat.note.list',
                auth: allow('admin'),
                description: 'A conversation\'s internal notes (staff only)',
                validate: { params: sessionParams },
                handler: async (request) => routing().notes(adminOf(request).organizationId, (request.params as { sessionId: string }).sessionId)
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/notes',
            options: {
                id: 'livechat.note.create',
                auth: allow('admin'),
                description: 'Adds an internal note to a conversation: staff only, never sent to the customer',
                validate: { params: sessionParams, payload: Joi.object({ text: noteText, clientNoteId: clientId }) },
                handler: async (request, h) => {
                    const agent = adminOf(request);
                    const { note, duplicate } = await routing().addNote(agent.organizationId, (request.params as { sessionId: string }).sessionId,
                        agent.userId, request.payload as { text: string; clientNoteId?: string });
                    return h.response(note).code(duplicate ? 200 : 201);
                }
            }
        }
    ];
}
