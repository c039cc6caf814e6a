import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { widgetOf } from '../../core/http/callers';
import { clientIp } from '../../core/http/client-ip';
import { CustomerError } from '../../core/http/errors';
import { fields } from '../../core/http/fields';
import { Limit } from '../../core/http/rate-limit';
import { ConversationService } from './services/conversation-service';
import { DECISION_STEPS, DecisionStep } from './services/decide';

declare module '../../core/types' {
    interface Services {
        conversation: ConversationService;
    }
}

/** The longest message the widget sends (its own limit, widget/src/panel.tsx MAX_LENGTH). */
export const MAX_MESSAGE = 2000;
/** Messages per widget session per minute, and per client address across sessions. */
export const MESSAGES_PER_MINUTE = 60;
export const MESSAGES_PER_IP_MINUTE = 300;

export const CONVERSATION_ERRORS = {
    tooFast: { code: 'conversation.too_fast', message: 'You are sending messages too fast. Please wait a moment.' }
} satisfies Record<string, CustomerError>;

interface MessageRequest {
    sessionId: string;
    step: DecisionStep;
    text: string;
    lang: string;
}

const messageRequest = Joi.object<MessageRequest>({
    sessionId: fields.widgetSessionId.required(),
    step: Joi.string().valid(...DECISION_STEPS).required(),
    text: Joi.string().trim().min(1).max(MAX_MESSAGE).required()
        .messages({ 'string.empty': '"text" must not be empty', 'string.max': `"text" must be at most ${MAX_MESSAGE} characters` }),
    lang: Joi.string().trim().max(35).pattern(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/).default('en')
        .messages({ 'string.pattern.base': '"lang" must be a language tag such as en or es-MX' })
}).required();

/**
 * The widget's conversation model (issue 23; DESIGN §9, §10): the one decision about every message a customer types
 * to the bot — a phone or a code for the step they are in, a resend, a request for a person, a question, a change of
 * mind, a greeting, or nothing to act on — in every language the server has words for (words/<lang>.json). Its own
 * plugin: the decision is neither the widget's files (plugins/widget serves the script and the look) nor the AI
 * agent's (which it calls for retrieval and its confidence, through the service the AI plugin declares) nor
 * loyalty's (the widget still calls /api/loyalty/verify and /view with what the decision found).
 */
const feature: FeaturePlugin = {
    plugin: {
        name: 'conversation',
        dependencies: ['tenants', 'auth', 'questions', 'ai'],
        register(server: Server) {
            const services = server.app.services;
            const service = new ConversationService({
                countryOf: (organizationId) => services.tenants.countryOf(organizationId),
                quickQuestions: async (organizationId) => (await services.questions.list(organizationId, { activeOnly: true }))
                    .map((q) => ({ id: q.id, question: q.question, kind: q.kind })),
                knowledge: services.ai
            });
            provide(server, 'conversation', service);
            const sessionLimit = new Limit(server.app, { name: 'conversation-session', points: MESSAGES_PER_MINUTE, duration: 60 });
            const ipLimit = new Limit(server.app, { name: 'conversation-ip', points: MESSAGES_PER_IP_MINUTE, duration: 60 });

            server.route<{ Payload: MessageRequest }>({
                method: 'POST',
                path: '/api/widget/message',
                options: {
                    id: 'conversation.message.decide',
                    auth: allow('widget'),
                    tags: ['widget'],
                    validate: { payload: messageRequest },
                    handler: async (request) => {
                        const widget = widgetOf(request);
                        await ipLimit.consume(clientIp(request), CONVERSATION_ERRORS.tooFast);
                        await sessionLimit.consume(`${widget.organizationId}:${request.payload.sessionId}`, CONVERSATION_ERRORS.tooFast);
                        // The customer's token (Authorization: Bearer), sent like on every widget call, is not needed: the
                        // decision reads no customer data.
                        return service.decide(widget.organizationId, request.payload);
                    }
                }
            });
        }
    }
};

export default feature;
export { ConversationService };
export { decide, topicOf } from './services/decide';
