import Joi from 'joi';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { clientIp } from '../../core/http/client-ip';
import { fields } from '../../core/http/fields';
import { staffOf, widgetOf } from '../../core/http/callers';
import { hostOf } from '../../core/http/origins';
import { customerTokenFor, signCustomerToken } from '../../core/auth/customer-token';
import type { Organization } from '../../core/types/api';
import { CODES, LoyaltyService, MESSAGES, WidgetContext } from './services/loyalty-service';
import { withCodes } from '../../core/http/errors';
import { MemoryLookupCache, RedisLookupCache } from './services/lookup-cache';
import { ProviderSettingsService, ProviderSettingsUpdate, providerSettingsUpdate } from './services/provider-settings';
import { OutboxSmsSender, TwilioSmsSender } from './sms';
import { DEMO_CUSTOMERS } from './demo-data';
import { migrations } from './migrations';
import { loyaltyPersonalData } from './services/personal-data';

declare module '../../core/types' {
    interface Services {
        loyalty: LoyaltyService;
    }
}

/** The phone as the customer typed it; the service finds its E.164 form. The messages are the widget's to show. */
const identifier = withCodes(fields.phone.required().messages({
    'any.required': MESSAGES.phoneRequired,
    'string.empty': MESSAGES.phoneRequired,
    'string.max': MESSAGES.badPhone,
    'string.pattern.base': MESSAGES.badPhone
}), { 'any.required': CODES.phoneRequired, 'string.empty': CODES.phoneRequired, '*': CODES.badPhone });

interface CodeRequest {
    identifier: string;
    type?: 'phone';
    sessionId?: string;
    /** The widget's language (issue 27): the SMS is written in it. */
    lang?: string;
}

interface PointsRequest {
    identifier: string;
    code: string;
    sessionId?: string;
}

const codeRequest = Joi.object<CodeRequest>({
    identifier,
    type: Joi.string().valid('phone').optional(),
    sessionId: fields.widgetSessionId.optional(),
    lang: Joi.string().trim().max(35).pattern(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/).optional()
        .messages({ 'string.pattern.base': '"lang" must be a language tag such as en or es-MX' })
});

const pointsRequest = Joi.object<PointsRequest>({
    identifier,
    code: withCodes(Joi.string().trim().pattern(/^\d{6}$/).required()
        .messages({ 'string.pattern.base': MESSAGES.codeFormat, 'any.required': MESSAGES.codeRequired, 'string.empty': MESSAGES.codeRequired }),
    { 'any.required': CODES.codeRequired, 'string.empty': CODES.codeRequired, '*': CODES.codeFormat }),
    sessionId: fields.widgetSessionId.optional()
});

/** The widget's store, as the widget strategy resolved it from the key (plugins/auth/widget-scheme.ts). */
function storeNameOf<Refs extends ReqRef>(request: Request<Refs>): string {
    return (request.auth.artifacts.organization as Pick<Organization, 'storeName'>).storeName;
}

function widgetContext<P extends { sessionId?: string; lang?: string }>(request: Request<{ Payload: P }>): WidgetContext {
    const widget = widgetOf(request);
    return {
        organizationId: widget.organizationId,
        botInstanceId: widget.botInstanceId,
        storeName: storeNameOf(request),
        ip: clientIp(request),
        sessionId: request.payload.sessionId ?? null,
        locale: request.payload.lang ?? null,
        domain: hostOf(request.headers.origin as string | undefined) ?? hostOf(request.headers.referer as string | undefined)
    };
}

const feature: FeaturePlugin = {
    migrations,
    /** The demo store's loyalty members and their orders, for the built-in provider. */
    async seedDemo(server, organizationId) {
        return server.app.services.loyalty.seedDemoCustomers(organizationId, DEMO_CUSTOMERS);
    },
    plugin: {
        name: 'loyalty',
        dependencies: ['tenants', 'auth'],
        register(server: Server) {
            const { config, db, log, redis } = server.app;
            const settings = new ProviderSettingsService(db, config, log, server.app.services.tenants);
            const cacheSeconds = config.loyalty.cacheSeconds;
            const cache = redis ? new RedisLookupCache(redis, config.redisPrefix, cacheSeconds) : new MemoryLookupCache(cacheSeconds);
            const sms = config.sms.provider === 'twilio'
                ? new TwilioSmsSender(db, config.sms.twilio, log)
                : new OutboxSmsSender(db, log, { logBody: config.env === 'development' });
            const service = new LoyaltyService({
                db, log, secret: config.jwtSecret, limits: { redis, config: { redisPrefix: config.redisPrefix } }, sms, cache,
                providerOf: (organizationId) => settings.resolve(organizationId)
            });
            provide(server, 'loyalty', service);
            server.app.personalData.register(loyaltyPersonalData(async (organizationId) => (await settings.resolve(organizationId)).provider.name,
                (organizationId, phone) => service.members.forget(organizationId, phone)));

            // ---- super admin: an organization's loyalty provider (the API key is never answered) ----
            const orgParams = Joi.object<{ id: number }>({ id: fields.id.required() });
            server.route<{ Params: { id: number } }>({
                method: 'GET',
                path: '/api/super-admin/organizations/{id}/loyalty-provider',
                options: {
                    id: 'loyalty.provider-settings.get',
                    auth: allow('super_admin'),
                    validate: { params: orgParams },
                    handler: (request) => settings.get(request.params.id)
                }
            });
            server.route<{ Params: { id: number }; Payload: ProviderSettingsUpdate }>({
                method: 'PUT',
                path: '/api/super-admin/organizations/{id}/loyalty-provider',
                options: {
                    id: 'loyalty.provider-settings.update',
                    plugins: { audit: { action: 'loyalty.provider.update', target: (r) => `organization:${r.params.id}`, organization: (r) => Number(r.params.id) } },
                    auth: allow('super_admin'),
                    validate: { params: orgParams, payload: providerSettingsUpdate },
                    handler: (request) => settings.update(request.params.id, request.payload, staffOf(request).userId)
                }
            });
            server.route<{ Params: { id: number } }>({
                method: 'POST',
                path: '/api/super-admin/organizations/{id}/loyalty-provider/check',
                options: {
                    id: 'loyalty.provider-settings.check',
                    auth: allow('super_admin'),
                    validate: { params: orgParams },
                    handler: (request) => settings.check(request.params.id)
                }
            });

            server.route<{ Payload: CodeRequest }>({
                method: 'POST',
                path: '/api/loyalty/verify',
                options: {
                    id: 'loyalty.code.send',
                    auth: allow('widget'),
                    tags: ['widget'],
                    validate: { payload: codeRequest },
                    handler: (request) => service.requestCode(widgetContext(request), request.payload.identifier)
                }
            });
            server.route<{ Payload: PointsRequest }>({
                method: 'POST',
                path: '/api/loyalty/view',
                options: {
                    id: 'loyalty.points.view',
                    auth: allow('widget'),
                    tags: ['widget'],
                    validate: { payload: pointsRequest },
                    handler: async (request) => {
                        const ctx = widgetContext(request);
                        const result = await service.viewPoints(ctx, request.payload.identifier, request.payload.code);
                        if (!result.ok || !ctx.sessionId) {
                            return result;
                        }
                        // The customer's one token, upgraded (DESIGN §10): it now names the verified phone, readable
                        // for tier-2 data until CUSTOMER_VERIFIED_MINUTES from now. A token this session already had
                        // keeps its chat; a phone it named before is replaced.
                        const held = customerTokenFor(config.jwtSecret, request.headers.authorization, ctx.organizationId, ctx.sessionId);
                        const token = signCustomerToken(config.jwtSecret, {
                            organizationId: ctx.organizationId, sessionId: ctx.sessionId, chatId: held?.chatId ?? null,
                            phone: { number: service.normalizePhone(request.payload.identifier), until: Date.now() + config.customerVerifiedMinutes * 60_000 }
                        });
                        return { ...result, token };
                    }
                }
            });
        }
    }
};

export default feature;
export { LoyaltyService };
export { parseCustomersCsv } from './customers-csv';
export { outboxQuery } from './sms';
export type { CustomerRow } from './customers-csv';
