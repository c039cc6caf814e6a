import Joi from 'joi';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { adminOf, callerOf, widgetOf } from '../../core/http/callers';
import { fields } from '../../core/http/fields';
import { hostOf } from '../../core/http/origins';
import { Limit } from '../../core/http/rate-limit';
import { clientIp } from '../../core/http/client-ip';
import { customerTokenFor, verifiedPhoneOf } from '../../core/auth/customer-token';
import { KnowledgeEntryModel } from './models';
import { DEMO_KNOWLEDGE } from './demo-data';
import { migrations } from './migrations';
import { withCodes } from '../../core/http/errors';
import { AI_ERRORS, AiService, KnowledgeInput, knowledgeCreateSchema, knowledgeFields, knowledgeUpdateSchema } from './services/ai-service';
import { BuiltinProvider } from './providers/builtin';
import { OpenAiProvider } from './providers/openai';
import { sharedMeanings } from './services/meanings';
import { AiBudget } from './services/budget';
import { aiPersonalData } from './services/personal-data';

declare module '../../core/types' {
    interface Services {
        ai: AiService;
    }
}

/** The longest question a customer (or staff on the test page) may ask. */
export const MAX_QUESTION = 1000;
/** Questions per widget session per minute (issue 13). */
export const CHAT_PER_MINUTE = 60;
/** Questions per client address per minute, across sessions (a client minting session ids). */
export const CHAT_PER_IP_MINUTE = 300;

/** Most answers one bulk resolve takes (the history screen shows at most 100 and the unresolved list 100). */
export const MAX_BULK_RESOLVE = 200;
/** How often each node runs the silence rule over every store (it also runs before each history read). */
export const TRIAGE_SWEEP_MS = 60_000;
/** The code of every refused bulk-resolve input (joi's message says what was wrong). */
export const BAD_BULK_RESOLVE = 'ai.bad_bulk_resolve';

interface IdParam {
    id: number;
}

interface ChatRequest {
    sessionId: string;
    message: string;
    /** The customer's language as the widget chose it (issue 27); absent: the store's default. */
    lang?: string;
    /** A suggestion the customer picked (AiChatAnswer.suggestions[].key): answered from that entry. */
    pick?: string;
}

interface FeedbackRequest {
    sessionId: string;
    historyId: number;
    resolved: boolean;
}

const idParam = Joi.object<IdParam>({ id: fields.id.required() });
const message = Joi.string().trim().min(1).max(MAX_QUESTION).required()
    .messages({ 'string.empty': 'Please type a question', 'any.required': 'Please type a question', 'string.max': `Questions are at most ${MAX_QUESTION} characters` });

function orgOf<Refs extends ReqRef>(request: Request<Refs>): number {
    return adminOf(request).organizationId;
}

function domainOf<Refs extends ReqRef>(request: Request<Refs>): string | null {
    return hostOf(request.headers.origin as string | undefined) ?? hostOf(request.headers.referer as string | undefined);
}

/**
 * The AI agent (issue 13; SPEC §2 'AI question management' and 'AI agent configuration panel', §7 'Questions
 * and AI'; DESIGN §7): the knowledge base, the customer's conversation with the agent (built-in retrieval, or an
 * OpenAI-compatible endpoint with tool calling), its history, the enabled switch and the panel's figures.
 */
const feature: FeaturePlugin = {
    migrations,
    async seedDemo(server, organizationId) {
        const db = server.app.db;
        if (await KnowledgeEntryModel.query(db).where('organization_id', organizationId).first()) {
            return [];
        }
        await db.transaction(async (trx) => {
            for (const entry of DEMO_KNOWLEDGE) {
                await KnowledgeEntryModel.query(trx).insert({ organizationId, title: entry.title, content: entry.content, lang: null, isActive: true });
            }
        });
        return [`Created ${DEMO_KNOWLEDGE.length} knowledge entries`];
    },
    plugin: {
        name: 'ai',
        dependencies: ['tenants', 'auth', 'questions', 'loyalty'],
        register(server: Server) {
            const { config, db, log } = server.app;
            const provider = config.ai.provider === 'openai' ? new OpenAiProvider(config.ai.openai, log) : new BuiltinProvider();
            const budget = new AiBudget(server.app, { perHour: config.ai.questionsPerStoreHour, perDay: config.ai.questionsPerStoreDay }, log);
            const meanings = config.ai.meanings ? sharedMeanings() : null;
            const service = new AiService({
                db, log, provider, services: () => server.app.services, budget, resolvedAfterMs: config.ai.resolvedAfterMinutes * 60_000,
                meanings, meaningsWaitMs: config.ai.meaningsWaitMs
            });
            provide(server, 'ai', service);
            server.app.personalData.register(aiPersonalData);
            let sweep: NodeJS.Timeout | null = null;
            server.ext('onPostStart', () => {
                sweep = setInterval(() => {
                    service.sweepTriage().catch((err) => log.warn({ err: (err as Error).message }, 'AI triage sweep failed'));
                }, Math.min(TRIAGE_SWEEP_MS, service.resolvedAfterMs));
                sweep.unref();
            });
            server.ext('onPreStop', () => {
                service.stop();
                if (sweep) {
                    clearInterval(sweep);
                }
            });
            const chatLimit = new Limit(server.app, { name: 'ai-chat-session', points: CHAT_PER_MINUTE, duration: 60 });
            const ipLimit = new Limit(server.app, { name: 'ai-chat-ip', points: CHAT_PER_IP_MINUTE, duration: 60 });

            // ---- knowledge base (admin) ----
            server.route({
                method: 'GET',
                path: '/api/ai/knowledge',
                options: {
                    id: 'ai.knowledge.list',
                    auth: allow('admin'),
                    handler: (request) => service.listKnowledge(orgOf(request))
                }
            });
            server.route({
                method: 'GET',
                path: '/api/ai/knowledge/usage',
                options: {
                    id: 'ai.knowledge.usage',
                    auth: allow('admin'),
                    description: 'Which knowledge entries and questions answered customers in the last 30 days, how often, and which questions (issue 30)',
                    handler: (request) => service.usage(orgOf(request))
                }
            });
            server.route<{ Payload: KnowledgeInput }>({
                method: 'POST',
                path: '/api/ai/knowledge',
                options: {
                    id: 'ai.knowledge.create',
                    plugins: { audit: { action: 'knowledge.create', target: (_r, s) => `knowledge:${(s as { id?: number })?.id ?? ''}` } },
                    auth: allow('admin'),
                    validate: { payload: knowledgeCreateSchema.required() },
                    handler: async (request, h) => h.response(await service.createKnowledge(orgOf(request), request.payload)).code(201)
                }
            });
            server.route<{ Payload: { format: 'markdown' | 'csv'; text: string; lang?: string | null } }>({
                method: 'POST',
                path: '/api/ai/knowledge/import',
                options: {
                    id: 'ai.knowledge.import',
                    plugins: { audit: { action: 'knowledge.import' } },
                    auth: allow('admin'),
                    payload: { maxBytes: 2 * 1024 * 1024 },
                    validate: {
                        payload: Joi.object({
                            format: Joi.string().valid('markdown', 'csv').required(),
                            text: Joi.string().min(1).max(2_000_000).required(),
                            // The language the imported entries are written in (issue 27); absent: the store's default.
                            lang: knowledgeFields.lang.default(null)
                        }).required()
                    },
                    handler: async (request, h) => h.response(await service.importKnowledge(orgOf(request), request.payload.format, request.payload.text, request.payload.lang ?? null)).code(201)
                }
            });
            server.route<{ Params: IdParam; Payload: Partial<KnowledgeInput> }>({
                method: 'PUT',
                path: '/api/ai/knowledge/{id}',
                options: {
                    id: 'ai.knowledge.update',
                    plugins: { audit: { action: 'knowledge.update', target: (r) => `knowledge:${r.params.id}` } },
                    auth: allow('admin'),
                    validate: { params: idParam, payload: knowledgeUpdateSchema.required() },
                    handler: (request) => service.updateKnowledge(orgOf(request), request.params.id, request.payload)
                }
            });
            server.route<{ Params: IdParam }>({
                method: 'DELETE',
                path: '/api/ai/knowledge/{id}',
                options: {
                    id: 'ai.knowledge.delete',
                    plugins: { audit: { action: 'knowledge.delete', target: (r) => `knowledge:${r.params.id}` } },
                    auth: allow('admin'),
                    validate: { params: idParam },
                    handler: async (request, h) => {
                        await service.removeKnowledge(orgOf(request), request.params.id);
                        return h.response().code(204);
                    }
                }
            });

            // ---- chat history (admin) ----
            server.route<{ Query: { limit: number; sessionId?: string } }>({
                method: 'GET',
                path: '/api/ai/chat-history',
                options: {
                    id: 'ai.history.list',
                    auth: allow('admin'),
                    validate: { query: Joi.object({ limit: Joi.number().integer().min(1).max(500).default(50), sessionId: fields.widgetSessionId.optional() }) },
                    handler: (request) => service.history(orgOf(request), request.query)
                }
            });
            server.route({
                method: 'GET',
                path: '/api/ai/unresolved-chats',
                options: {
                    id: 'ai.history.unresolved',
                    auth: allow('admin'),
                    handler: (request) => service.unresolved(orgOf(request))
                }
            });
            server.route<{ Payload: { ids: number[] } }>({
                method: 'POST',
                path: '/api/ai/chat-history/resolve',
                options: {
                    id: 'ai.history.resolve',
                    auth: allow('admin'),
                    description: 'Marks several AI answers resolved at once: all of them, or none (404) when one is not the store\'s',
                    validate: {
                        payload: withCodes(Joi.object({
                            ids: withCodes(Joi.array().items(fields.id.required()).unique().min(1).max(MAX_BULK_RESOLVE).required(), { '*': BAD_BULK_RESOLVE })
                        }).required(), { '*': BAD_BULK_RESOLVE })
                    },
                    handler: (request) => service.resolveMany(orgOf(request), request.payload.ids)
                }
            });
            server.route<{ Params: IdParam; Payload: { isResolved: boolean } }>({
                method: 'PATCH',
                path: '/api/ai/chat-history/{id}',
                options: {
                    id: 'ai.history.update',
                    auth: allow('admin'),
                    validate: { params: idParam, payload: Joi.object({ isResolved: Joi.boolean().required() }).required() },
                    handler: (request) => service.setResolved(orgOf(request), request.params.id, request.payload.isResolved)
                }
            });

            // ---- the agent: status, switch, figures, test (admin); status also for the widget ----
            server.route({
                method: 'GET',
                path: '/api/ai-agent/status',
                options: {
                    id: 'ai.agent.status',
                    auth: allow('admin', 'widget'),
                    tags: ['widget'],
                    handler: (request) => {
                        const caller = callerOf(request);
                        return service.status(caller.kind === 'widget' ? caller.organizationId : orgOf(request));
                    }
                }
            });
            server.route<{ Payload: { isEnabled: boolean } }>({
                method: 'PUT',
                path: '/api/ai-agent/config',
                options: {
                    id: 'ai.agent.config',
                    plugins: { audit: { action: 'settings.ai-agent.update' } },
                    auth: allow('admin'),
                    validate: { payload: Joi.object({ isEnabled: Joi.boolean().required() }).required() },
                    handler: (request) => service.setEnabled(orgOf(request), request.payload.isEnabled)
                }
            });
            server.route({
                method: 'GET',
                path: '/api/ai-agent/sessions',
                options: {
                    id: 'ai.agent.sessions',
                    auth: allow('admin'),
                    handler: (request) => service.sessionsSummary(orgOf(request))
                }
            });
            server.route<{ Payload: { message: string } }>({
                method: 'POST',
                path: '/api/ai/test',
                options: {
                    id: 'ai.agent.test',
                    auth: allow('admin'),
                    validate: { payload: Joi.object({ message }).required() },
                    handler: (request) => service.test(orgOf(request), request.payload.message)
                }
            });

            // ---- the customer (widget key + the widget's session) ----
            server.route<{ Payload: ChatRequest }>({
                method: 'POST',
                path: '/api/ai/chat',
                options: {
                    id: 'ai.chat.ask',
                    auth: allow('widget'),
                    tags: ['widget'],
                    validate: {
                        payload: Joi.object<ChatRequest>({
                            sessionId: fields.widgetSessionId.required(),
                            message,
                            lang: Joi.string().trim().max(35).pattern(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
                                .messages({ 'string.pattern.base': '"lang" must be a language tag such as en or es-MX' }),
                            pick: Joi.string().max(30).pattern(/^(knowledge:[1-9]\d{0,9}|question:[1-9]\d{0,9}|store)$/)
                                .messages({ 'string.pattern.base': '"pick" must be a suggestion\'s key such as knowledge:12' })
                        }).required()
                    },
                    handler: async (request) => {
                        const widget = widgetOf(request);
                        await ipLimit.consume(clientIp(request), AI_ERRORS.tooFast);
                        await chatLimit.consume(`${widget.organizationId}:${request.payload.sessionId}`, AI_ERRORS.tooFast);
                        // Tier-2 data only for the phone the customer's token names (its code check, within the
                        // window), for this store and this widget session: never from the session id alone.
                        const token = customerTokenFor(config.jwtSecret, request.headers.authorization, widget.organizationId, request.payload.sessionId);
                        return service.chat({
                            organizationId: widget.organizationId,
                            botInstanceId: widget.botInstanceId,
                            sessionId: request.payload.sessionId,
                            domain: domainOf(request),
                            verifiedPhone: verifiedPhoneOf(token),
                            lang: request.payload.lang ?? null
                        }, request.payload.message, request.payload.pick);
                    }
                }
            });
            server.route<{ Payload: FeedbackRequest }>({
                method: 'POST',
                path: '/api/ai/feedback',
                options: {
                    id: 'ai.chat.feedback',
                    auth: allow('widget'),
                    tags: ['widget'],
                    validate: {
                        payload: Joi.object<FeedbackRequest>({
                            sessionId: fields.widgetSessionId.required(),
                            historyId: fields.id.required(),
                            resolved: Joi.boolean().required()
                        }).required()
                    },
                    handler: (request) => {
                        const widget = widgetOf(request);
                        return service.feedback(widget.organizationId, request.payload.sessionId, request.payload.historyId, request.payload.resolved);
                    }
                }
            });
        }
    }
};

export default feature;
export { AiService };
