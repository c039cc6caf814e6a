import Joi from 'joi';
import type { Server, ServerRoute } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { fields } from '../../../core/http/fields';
import { callerOf } from '../../../core/http/callers';

export const MAX_RATING_COMMENT = 1000;

/** A rating's body (issue 28): a score 1 to 5 and an optional comment of at most 1000 characters. */
export const ratingPayload = Joi.object({
    score: Joi.number().integer().min(1).max(5).required()
        .messages({ 'number.min': '"score" must be from 1 to 5', 'number.max': '"score" must be from 1 to 5', 'number.base': '"score" must be a number from 1 to 5' }),
    comment: Joi.string().trim().max(MAX_RATING_COMMENT).allow('', null)
        .messages({ 'string.max': `"comment" must be at most ${MAX_RATING_COMMENT} characters` })
}).required().unknown(false);

export function ratingRoutes(server: Server): ServerRoute[] {
    return [
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/rating',
            options: {
                id: 'livechat.session.rate',
                description: 'The customer rates their ended chat (issue 28): 201; a second rating 409; another chat\'s or store\'s 404',
                // The chat's own customer: the token the widget already sends to live chat routes (DESIGN §10).
                auth: allow('customer'),
                tags: ['widget'],
                validate: { params: Joi.object({ sessionId: fields.chatSessionId.required() }), payload: ratingPayload },
                handler: async (request, h) => {
                    const caller = callerOf(request);
                    const { sessionId } = request.params as { sessionId: string };
                    if (caller.kind !== 'customer' || caller.sessionId !== sessionId) {
                        return h.response({ statusCode: 404, error: 'Not Found', message: 'Chat session not found' }).code(404);
                    }
                    const body = request.payload as { score: number; comment?: string | null };
                    const rating = await server.app.services.livechatRatings.rate(caller.organizationId, sessionId, body, 'widget');
                    return h.response({ sessionId, ...rating, message: 'Thanks for your rating' }).code(201);
                }
            }
        }
    ];
}
