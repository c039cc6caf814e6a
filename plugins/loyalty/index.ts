import Joi from 'joi';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { clientIp } from '../../core/http/client-ip';
import { fields } from '../../core/http/fields';
import { widgetOf } from '../../core/http/callers';
import { hostOf } from '../../core/http/origins';
import type { Organization } from '../../core/types/api';
import { LoyaltyService, MESSAGES, ResolvedProvider, WidgetContext } from './services/loyalty-service';
import { MemoryLookupCache, RedisLookupCache } from './services/lookup-cache';
import { BuiltinLoyaltyProvider } from './providers/builtin';
import { AlpineIqLoyaltyProvider } from './providers/alpineiq';
import { OutboxSmsSender, TwilioSmsSender } from './sms';
import { DEMO_CUSTOMERS } from './demo-data';
import { migrations } from './migrations';

declare module '../../core/types' {
    interface Services {
        loyalty: LoyaltyService;
    }
}

/** The phone as the customer typed it; the service finds its E.164 form. The messages are the widget's to show. */
const identifier = fields.phone.required().messages({
    'any.required': 'Please enter your phone number',
    'string.empty': 'Please enter your phone number',
    'string.max': MESSAGES.badPhone,
    'string.pattern.base': MESSAGES.badPhone
});

interface CodeRequest {
    identifier: string;
    type?: 'phone';
    sessionId?: string;
}

interface PointsRequest {
    identifier: string;
    code: string;
    sessionId?: string;
}

const codeRequest = Joi.object<CodeRequest>({
    identifier,
    type: Joi.string().valid('phone').optional(),
    sessionId: fields.widgetSessionId.optional()
});

const pointsRequest = Joi.object<PointsRequest>({
    identifier,
    code: Joi.string().trim().pattern(/^\d{6}$/).required()
        .messages({ 'string.pattern.base': 'The code must be 6 digits', 'any.required': 'Please enter the 6-digit code', 'string.empty': 'Please enter the 6-digit code' }),
    sessionId: fields.widgetSessionId.optional()
});

/** The widget's store, as the widget strategy resolved it from the key (plugins/auth/widget-scheme.ts). */
function storeNameOf<Refs extends ReqRef>(request: Request<Refs>): string {
    return (request.auth.artifacts.organization as Pick<Organization, 'storeName'>).storeName;
}

function widgetContext<P extends { sessionId?: string }>(request: Request<{ Payload: P }>): WidgetContext {
    const widget = widgetOf(request);
    return {
        organizationId: widget.organizationId,
        botInstanceId: widget.botInstanceId,
        storeName: storeNameOf(request),
        ip: clientIp(request),
        sessionId: request.payload.sessionId ?? null,
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
            const builtin: ResolvedProvider = { provider: new BuiltinLoyaltyProvider(db), cacheKey: null };
            const fromEnv: ResolvedProvider = {
                provider: new AlpineIqLoyaltyProvider(async () => config.loyalty.alpineiq, config.loyalty.alpineiq.timeoutMs),
                cacheKey: 'env'
            };
            const cacheSeconds = config.loyalty.cacheSeconds;
            const cache = redis ? new RedisLookupCache(redis, config.redisPrefix, cacheSeconds) : new MemoryLookupCache(cacheSeconds);
            const sms = config.sms.provider === 'twilio'
                ? new TwilioSmsSender(db, config.sms.twilio, log)
                : new OutboxSmsSender(db, log, { logBody: config.env === 'development' });
            const service = new LoyaltyService({
                db, log, secret: config.jwtSecret, limits: { redis, config: { redisPrefix: config.redisPrefix } }, sms, cache,
                providerOf: async () => (config.loyalty.provider === 'alpineiq' ? fromEnv : builtin)
            });
            provide(server, 'loyalty', service);

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
                    handler: (request) => service.viewPoints(widgetContext(request), request.payload.identifier, request.payload.code)
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
