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
import { AnalyticsService, PRUNE_JOB, WIDGET_ACTIONS } from './services/analytics-service';
import type { ChatSessionCounter } from './services/analytics-service';
import { AnalyticsReports } from './services/reports';
import { SocketCounts, REFRESH_MS } from './lib/socket-counts';
import { registerOrgTotalsRoute } from './routes/org-totals';
import { registerDashboardRoutes } from './routes/dashboard';
import { migrations } from './migrations';
import { analyticsPersonalData } from './services/personal-data';

declare module '../../core/types' {
    interface Services {
        analytics: AnalyticsService;
    }
}

/** How often each node queues the retention prune (one job id, so several nodes run it once). */
const PRUNE_EVERY_MS = 6 * 3600 * 1000;

/** SPEC §3 'Analytics event' as the widget posts it; organization and bot come from the widget key. */
interface TrackPayload {
    sessionId?: string | null;
    action: typeof WIDGET_ACTIONS[number];
    phoneNumber?: string | null;
    success?: boolean | null;
    errorMessage?: string | null;
    pointsRetrieved?: number | null;
    questionId?: number | null;
    domain?: string | null;
}

const trackPayload = Joi.object<TrackPayload>({
    sessionId: fields.widgetSessionId.allow(null, ''),
    action: Joi.string().valid(...WIDGET_ACTIONS).required(),
    // A failed verification may carry what an older widget sent as the number (any text): only a phone number is stored.
    phoneNumber: Joi.when('action', {
        is: 'verification_failed',
        then: Joi.string().trim().max(40).allow(null, ''),
        otherwise: fields.phone.allow(null, '')
    }),
    success: Joi.boolean().allow(null),
    errorMessage: Joi.string().max(1000).allow(null, ''),
    pointsRetrieved: Joi.number().integer().min(0).max(MAX_ID).allow(null),
    questionId: Joi.number().integer().min(0).max(MAX_ID).allow(null),
    domain: fields.domain.allow(null, '')
}).required();

/**
 * The phone an event stores (DESIGN §8: only parsed, valid numbers are phones): E.164 when the text is a possible
 * number (as the loyalty routes store it), else none. The event is kept either way; free text never becomes a phone.
 */
export function normalizeEventPhone(text: string | null | undefined): { phone: string | null; valid: boolean } {
    const phone = text ? e164(text) : null;
    return { phone, valid: true };
}

const feature: FeaturePlugin = {
    migrations,
    plugin: {
        name: 'analytics',
        // livechat: the chat figures; loyalty: order history; questions: question usage (read at request time)
        dependencies: ['tenants', 'auth', 'livechat', 'loyalty', 'questions'],
        register(server: Server) {
            // A chat session is livechat's to define (issue 23): asked through its declared service, read when used.
            const chatSessionCount: ChatSessionCounter = async (organizationId, range) =>
                await server.app.services.livechat?.chatSessionCount(organizationId, range) ?? 0;
            const service = new AnalyticsService({
                db: server.app.db,
                jobs: server.app.jobs,
                timeZoneOf: (id) => server.app.services.tenants.timeZoneOf(id),
                chatSessionCount
            });
            provide(server, 'analytics', service);
            server.app.personalData.register(analyticsPersonalData);
            const reports = new AnalyticsReports(server.app.db, chatSessionCount);
            const { config } = server.app;
            const sockets = new SocketCounts(server.app.redis, config.redisPrefix, config.nodeId,
                () => server.app.services.livechat?.customerSocketCounts() ?? []);
            const limit = new Limit(server.app, { name: 'analytics-track-ip', points: 600, duration: 60 });
            registerOrgTotalsRoute(server, service, reports);
            registerDashboardRoutes(server, service, reports, sockets);

            server.app.jobs.define(PRUNE_JOB, async () => {
                const deleted = await service.prune(config.analytics.retentionDays);
                if (deleted) {
                    server.app.log.info({ deleted, retentionDays: config.analytics.retentionDays }, 'analytics events pruned');
                }
            });
            const timers: NodeJS.Timeout[] = [];
            server.ext('onPostStart', () => {
                const publish = () => sockets.publish().catch((err) => server.app.log.warn({ err: err.message }, 'websocket counts not published'));
                const prune = () => server.app.jobs.add(PRUNE_JOB, {}, { jobId: `analytics-prune-${Math.floor(Date.now() / PRUNE_EVERY_MS)}`, attempts: 1 })
                    .catch((err) => server.app.log.warn({ err: err.message }, 'analytics prune not queued'));
                timers.push(setInterval(publish, REFRESH_MS), setInterval(prune, PRUNE_EVERY_MS));
                timers.forEach((t) => t.unref());
            });
            server.ext('onPreStop', async () => {
                timers.forEach((t) => clearInterval(t));
                await sockets.withdraw().catch(() => undefined);
            });

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
                        const phone = normalizeEventPhone(p.phoneNumber);
                        await service.track({
                            organizationId: widget.organizationId,
                            botInstanceId: widget.botInstanceId,
                            sessionId: p.sessionId || null,
                            action: p.action,
                            phoneNumber: phone.phone,
                            phoneValid: phone.valid,
                            success: p.success ?? null,
                            errorMessage: p.errorMessage || null,
                            pointsRetrieved: p.pointsRetrieved ?? null,
                            questionId: p.questionId ?? null,
                            // The page the event came from, as the browser says (Origin, else Referer): never what the body claims.
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
