import Joi from 'joi';
import { fields } from '../../core/http/fields';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { adminOf, callerOf } from '../../core/http/callers';
import { createSchema, orderSchema, QuestionCreate, QuestionOrder, QuestionService, QuestionUpdate, updateSchema } from './services/question-service';
import { migrations } from './migrations';
import { SHIPPED_LANGUAGES } from '../../core/shared/languages';

declare module '../../core/types' {
    interface Services {
        questions: QuestionService;
    }
}

interface IdParam {
    id: number;
}

const idParam = Joi.object<IdParam>({ id: fields.id.required() });

function orgOf<Refs extends ReqRef>(request: Request<Refs>): number {
    return adminOf(request).organizationId;
}

const feature: FeaturePlugin = {
    migrations,
    async seedDemo(server, organizationId) {
        return server.app.services.questions.addDefaults(organizationId);
    },
    plugin: {
        name: 'questions',
        dependencies: ['tenants', 'auth'],
        register(server: Server) {
            const service = new QuestionService(server.app.db);
            provide(server, 'questions', service);
            // Every new store starts with the five default questions of SPEC §9, in the transaction creating it.
            server.app.services.tenants.onOrganizationCreated((trx, organization) => service.addDefaults(organization.id, trx));

            server.route({
                method: 'GET',
                path: '/api/questions',
                options: {
                    id: 'questions.question.list',
                    // Admins read every question; the widget (its public key) reads the active ones.
                    auth: allow('admin', 'widget'),
                    tags: ['widget'],
                    // The widget names its customer's language (issue 27): the questions written in it, else the default's.
                    validate: { query: Joi.object({ lang: Joi.string().valid(...SHIPPED_LANGUAGES).messages({ 'any.only': `"lang" must be one of ${SHIPPED_LANGUAGES.join(', ')}` }) }) },
                    handler: async (request) => {
                        const caller = callerOf(request);
                        const lang = (request.query as { lang?: string }).lang;
                        if (caller.kind === 'widget') {
                            if (lang) {
                                const organization = await server.app.services.tenants.getOrganization(caller.organizationId);
                                return service.listForLanguage(caller.organizationId, lang, organization?.languages.default ?? 'en');
                            }
                            return service.list(caller.organizationId, { activeOnly: true });
                        }
                        return service.list(orgOf(request));
                    }
                }
            });
            server.route<{ Payload: QuestionCreate }>({
                method: 'POST',
                path: '/api/questions',
                options: {
                    id: 'questions.question.create',
                    plugins: { audit: { action: 'questions.create', target: (_r, s) => `question:${(s as { id?: number })?.id ?? ''}` } },
                    auth: allow('admin'),
                    validate: { payload: createSchema.required() },
                    handler: async (request, h) => h.response(await service.create(orgOf(request), request.payload)).code(201)
                }
            });
            server.route<{ Payload: QuestionOrder }>({
                method: 'PUT',
                path: '/api/questions/order',
                options: {
                    id: 'questions.order.save',
                    auth: allow('admin'),
                    validate: { payload: orderSchema.required() },
                    handler: (request) => service.reorder(orgOf(request), request.payload)
                }
            });
            server.route<{ Params: IdParam; Payload: QuestionUpdate }>({
                method: 'PUT',
                path: '/api/questions/{id}',
                options: {
                    id: 'questions.question.update',
                    plugins: { audit: { action: 'questions.update', target: (r) => `question:${r.params.id}` } },
                    auth: allow('admin'),
                    validate: { params: idParam, payload: updateSchema.required() },
                    handler: (request) => service.update(orgOf(request), request.params.id, request.payload)
                }
            });
            server.route<{ Params: IdParam }>({
                method: 'DELETE',
                path: '/api/questions/{id}',
                options: {
                    id: 'questions.question.delete',
                    plugins: { audit: { action: 'questions.delete', target: (r) => `question:${r.params.id}` } },
                    auth: allow('admin'),
                    validate: { params: idParam },
                    handler: async (request, h) => {
                        await service.remove(orgOf(request), request.params.id);
                        return h.response().code(204);
                    }
                }
            });
        }
    }
};

export default feature;
export { QuestionService };
