import Joi from 'joi';
import type { Request, Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { clientIp } from '../../core/http/client-ip';
import { fields } from '../../core/http/fields';
import { widgetOf } from '../../core/http/callers';
import type { Organization } from '../tenants/services/tenant-service';
import { LoyaltyService, WidgetContext } from './services/loyalty-service';
import { BuiltinLoyaltyProvider } from './providers/builtin';
import { AlpineIqLoyaltyProvider } from './providers/alpineiq';
import { OutboxSmsSender, TwilioSmsSender } from './sms';
import { DEMO_CUSTOMERS } from './demo-data';
import baseline from './migrations/20260101000002-loyalty';

declare module '../../core/types' {
    interface Services {
        loyalty: LoyaltyService;
    }
}

export function hostOfOrigin(request: Request): string | null {
    const origin = (request.headers.origin ?? request.headers.referer) as string | undefined;
    if (!origin) {
        return null;
    }
    try {
        return new URL(origin).hostname.toLowerCase();
    }
    catch {
        return null;
    }
}

const sessionId = fields.widgetSessionId;
const identifier = Joi.string().trim().min(1).max(40).required()
    .messages({ 'any.required': 'Please enter your phone number', 'string.empty': 'Please enter your phone number', 'string.max': 'Please enter a valid phone number' });

function widgetContext(server: Server, request: Request, session?: string): WidgetContext {
    const widget = widgetOf(request);
    const organization = (request.auth.artifacts as { organization: Organization }).organization;
    return {
        organizationId: widget.organizationId,
        botInstanceId: widget.botInstanceId,
        storeName: organization.storeName,
        ip: clientIp(request),
        sessionId: session ?? null,
        domain: hostOfOrigin(request)
    };
}

const feature: FeaturePlugin = {
    migrations: [baseline],
    /** The demo store's loyalty members and their orders, for the built-in provider. */
    async seedDemo(server, organizationId) {
        return server.app.services.loyalty.seedDemoCustomers(organizationId, DEMO_CUSTOMERS);
    },
    plugin: {
        name: 'loyalty',
        dependencies: ['tenants', 'auth'],
        register(server: Server) {
            const { config, db, log } = server.app;
            const provider = config.loyalty.provider === 'alpineiq'
                ? new AlpineIqLoyaltyProvider(config.loyalty.alpineiq)
                : new BuiltinLoyaltyProvider(db);
            const sms = config.sms.provider === 'twilio'
                ? new TwilioSmsSender(db, config.sms.twilio, log)
                : new OutboxSmsSender(db, log, { logBody: config.env === 'development' });
            const service = new LoyaltyService(server.app, provider, sms);
            provide(server, 'loyalty', service);

            server.route([
                {
                    method: 'POST',
                    path: '/api/loyalty/verify',
                    options: {
                        id: 'loyalty.code.send',
                        auth: allow('widget'),
                        tags: ['widget'],
                        validate: {
                            payload: Joi.object({
                                identifier,
                                type: Joi.string().valid('phone').optional(),
                                sessionId: sessionId.optional()
                            })
                        },
                        handler: (request) => {
                            const p = request.payload as { identifier: string; sessionId?: string };
                            return service.requestCode(widgetContext(server, request, p.sessionId), p.identifier);
                        }
                    }
                },
                {
                    method: 'POST',
                    path: '/api/loyalty/view',
                    options: {
                        id: 'loyalty.points.view',
                        auth: allow('widget'),
                        tags: ['widget'],
                        validate: {
                            payload: Joi.object({
                                identifier,
                                code: Joi.string().trim().pattern(/^\d{6}$/).required()
                                    .messages({ 'string.pattern.base': 'The code must be 6 digits', 'any.required': 'Please enter the 6-digit code', 'string.empty': 'Please enter the 6-digit code' }),
                                sessionId: sessionId.optional()
                            })
                        },
                        handler: (request) => {
                            const p = request.payload as { identifier: string; code: string; sessionId?: string };
                            return service.viewPoints(widgetContext(server, request, p.sessionId), p.identifier, p.code);
                        }
                    }
                }
            ]);
        }
    }
};

export default feature;
export { LoyaltyService };
