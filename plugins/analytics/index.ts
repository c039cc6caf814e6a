import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { allow } from '../../core/http/access';
import { clientIp } from '../../core/http/client-ip';
import { e164, fields, MAX_ID } from '../../core/http/fields';
import { widgetOf } from '../../core/http/callers';
import { hostOf } from '../../core/http/origins';
import { Limit } from '../../core/http/rate-limit';
import { AnalyticsService, WIDGET_ACTIONS } from './services/analytics-service';
import { registerOrgTotalsRoute } from './routes/org-totals';
import { migrations } from './migrations';

declare module '../../core/types' {
    interface Services {
        analytics: AnalyticsService;
    }
}

/** SPEC §3 'Analytics event' as the widget posts it; organization and bot come from the widget key. */
interface TrackPayload {
    sessionId?: string | null;
    action: typeof WIDGET_ACTIONS[number];
    phoneNumber?: string | null;
    success?: boolean | null;
    errorMessage?: string | null;
    pointsRetrieved?: number | null;
    questionId?: number | null;
    /** Ignored: the page's host comes from the Origin header (older loaders still send it). */
    domain?: string | null;
}

const trackPayload = Joi.object<TrackPayload>({
    sessionId: fields.widgetSessionId.allow(null, ''),
    action: Joi.string().valid(...WIDGET_ACTIONS).required(),
    // A failed verification is mostly a mistyped number: it is kept, marked as malformed (see MALFORMED_PHONE).
    phoneNumber: Joi.when('action', {
        is: 'verification_failed',
        then: Joi.string().max(200).allow(null, ''),
        otherwise: fields.phone.allow(null, '')
    }),
    success: Joi.boolean().allow(null),
    errorMessage: Joi.string().max(1000).allow(null, ''),
    pointsRetrieved: Joi.number().integer().min(0).max(MAX_ID).allow(null),
    questionId: Joi.number().integer().min(0).max(MAX_ID).allow(null),
    domain: fields.domain.allow(null, '')
}).required();

/** The error_message of a verification_failed event whose phone was not a phone number (phone_number stays empty). */
export const MALFORMED_PHONE = 'malformed phone number';

/** E.164 when the number is possible (as the loyalty routes store it), else its digits. */
export function normalizeEventPhone(text: string | null | undefined): string | null {
    if (!text) {
        return null;
    }
    return e164(text) ?? text.replace(/[^\d+]/g, '').slice(0, 20);
}

const feature: FeaturePlugin = {
    migrations,
    plugin: {
        name: 'analytics',
        dependencies: ['tenants', 'auth'],
        register(server: Server) {
            const service = new AnalyticsService({ db: server.app.db, jobs: server.app.jobs });
            provide(server, 'analytics', service);
            const limit = new Limit(server.app, { name: 'analytics-track-ip', points: 600, duration: 60 });
            registerOrgTotalsRoute(server, service);

            server.route<{ Payload: TrackPayload }>({
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
                        const p = request.payload;
                        const malformed = !!p.phoneNumber && !!fields.phone.validate(p.phoneNumber).error;
                        await service.track({
                            organizationId: widget.organizationId,
                            botInstanceId: widget.botInstanceId,
                            sessionId: p.sessionId || null,
                            action: p.action,
                            phoneNumber: malformed ? null : normalizeEventPhone(p.phoneNumber),
                            success: p.success ?? null,
                            errorMessage: malformed ? [MALFORMED_PHONE, p.errorMessage].filter(Boolean).join(': ').slice(0, 1000) : p.errorMessage || null,
                            pointsRetrieved: p.pointsRetrieved ?? null,
                            questionId: p.questionId ?? null,
                            // Where the page is, as the browser says: never what the body claims.
                            domain: hostOf(request.headers.origin as string | undefined) ?? hostOf(request.headers.referer as string | undefined)
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
