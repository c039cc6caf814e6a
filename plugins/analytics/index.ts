import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { clientIp } from '../../core/http/client-ip';
import { fields } from '../../core/http/fields';
import { widgetOf } from '../../core/http/callers';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { Limit } from '../../core/http/rate-limit';
import { AnalyticsService, WIDGET_ACTIONS } from './services/analytics-service';
import { registerOrgTotalsRoute } from './routes/org-totals';
import baseline from './migrations/20260101000003-analytics';

declare module '../../core/types' {
    interface Services {
        analytics: AnalyticsService;
    }
}

/** SPEC §3 'Analytics event' as the widget posts it; organization and bot come from the widget key. */
const trackPayload = Joi.object({
    sessionId: fields.widgetSessionId.allow(null, ''),
    action: Joi.string().valid(...WIDGET_ACTIONS).required(),
    phoneNumber: Joi.string().trim().max(30).pattern(/^\+?[0-9() .-]{4,30}$/).allow(null, '')
        .messages({ 'string.pattern.base': '"phoneNumber" must be a phone number' }),
    success: Joi.boolean().allow(null),
    errorMessage: Joi.string().max(1000).allow(null, ''),
    pointsRetrieved: Joi.number().integer().min(0).max(2147483647).allow(null),
    questionId: Joi.number().integer().min(0).max(2147483647).allow(null),
    domain: Joi.string().trim().max(253).pattern(/^[A-Za-z0-9.-]+$/).allow(null, '')
        .messages({ 'string.pattern.base': '"domain" must be a host name' })
}).required();

/** E.164 when the number is possible (as the loyalty routes store it), else its digits. */
export function normalizeEventPhone(text: string | null | undefined): string | null {
    if (!text) {
        return null;
    }
    const parsed = parsePhoneNumberFromString(text, 'US');
    return parsed && parsed.isPossible() ? parsed.number : text.replace(/[^\d+]/g, '').slice(0, 20);
}

const feature: FeaturePlugin = {
    migrations: [baseline],
    plugin: {
        name: 'analytics',
        dependencies: ['tenants', 'auth'],
        register(server: Server) {
            const service = new AnalyticsService(server.app);
            provide(server, 'analytics', service);
            const limit = new Limit(server.app, { name: 'analytics-track-ip', points: 600, duration: 60 });
            registerOrgTotalsRoute(server, service);

            server.route({
                method: 'POST',
                path: '/api/analytics/track',
                options: {
                    id: 'analytics.event.track',
                    auth: allow('widget'),
                    tags: ['widget'],
                    validate: { payload: trackPayload },
                    handler: async (request, h) => {
                        const widget = widgetOf(request);
                        await limit.consume(clientIp(request));
                        const p = request.payload as Record<string, any>;
                        let domain: string | null = p.domain || null;
                        if (!domain && request.headers.origin) {
                            try {
                                domain = new URL(String(request.headers.origin)).hostname;
                            }
                            catch { /* no domain */ }
                        }
                        await service.track({
                            organizationId: widget.organizationId,
                            botInstanceId: widget.botInstanceId,
                            sessionId: p.sessionId || null,
                            action: p.action,
                            phoneNumber: normalizeEventPhone(p.phoneNumber),
                            success: p.success ?? null,
                            errorMessage: p.errorMessage || null,
                            pointsRetrieved: p.pointsRetrieved ?? null,
                            questionId: p.questionId ?? null,
                            domain
                        });
                        return h.response({ success: true }).code(202);
                    }
                }
            });
        }
    }
};

export default feature;
export { AnalyticsService };
