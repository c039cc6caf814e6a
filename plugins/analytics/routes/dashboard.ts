import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Request, Server } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { e164, fields } from '../../../core/http/fields';
import { iso } from '../../../core/db/model';
import type {
    AnalyticsChatSession, ChatAnalytics, CsatReport, ChatDurations, CustomerLookupResult, OrderDetails, OrderHistoryResponse,
    QuestionUsageRow, WebsocketStats
} from '../../../core/types/api';
import { daysBetween, dayKey } from '../lib/time';
import type { SocketCounts } from '../lib/socket-counts';
import { AnalyticsReports, pagination, Scope } from '../services/reports';
import type { AnalyticsService } from '../services/analytics-service';
import { PagedQuery, pagedQuery, RangeQuery, rangeKeys, rangeQuery, scopeOf, organizationOf } from './query';
import { registerExportRoute } from './export';
import { csatReport } from '../lib/csat';

/** A cached customer lookup is used for a day; then the next request asks the provider again. */
export const LOOKUP_MAX_AGE_MS = 24 * 3600 * 1000;

const phoneParam = Joi.object({ phone: fields.phone.required() });

/** The stored form of a phone in a path: E.164 when possible, else its digits (as the track route keeps it). */
export function phoneOf(text: string): string {
    return e164(text) ?? text.replace(/[^\d+]/g, '').slice(0, 20);
}

/** Every chat of a range (for the chat figures; capped by the livechat service). */
async function sessionsOf(server: Server, s: Scope): Promise<AnalyticsChatSession[]> {
    return (await server.app.services.livechat.analyticsSessions(s.organizationId, s.range)).rows;
}

export function chatAnalytics(rows: AnalyticsChatSession[], s: Scope): ChatAnalytics {
    const days = new Map(daysBetween(s.range.fromDay, s.range.toDay).map((date) => [date, { date, sessions: 0, completed: 0 }]));
    for (const r of rows) {
        const day = days.get(dayKey(Date.parse(r.startedAt), s.timeZone));
        if (day) {
            day.sessions += 1;
            day.completed += r.status === 'completed' ? 1 : 0;
        }
    }
    return {
        summary: {
            totalSessions: rows.length,
            completedSessions: rows.filter((r) => r.status === 'completed').length,
            failedToRespondSessions: rows.filter((r) => r.status === 'failed_to_respond').length
        },
        dailyTrends: [...days.values()]
    };
}

export const DURATION_RANGES: Array<[string, number]> = [['0-5 min', 5], ['5-15 min', 15], ['15-30 min', 30], ['30-60 min', 60], ['60+ min', Infinity]];

export function chatDurations(rows: AnalyticsChatSession[]): ChatDurations {
    const done = rows.filter((r) => r.status === 'completed');
    const values = done.map((r) => r.duration);
    const ranges = Object.fromEntries(DURATION_RANGES.map(([label]) => [label, 0]));
    for (const v of values) {
        ranges[DURATION_RANGES.find(([, max]) => v < max)![0]] += 1;
    }
    const round = (v: number) => Math.round(v * 10) / 10;
    return {
        totalCompletedSessions: done.length,
        averageDuration: values.length ? round(values.reduce((a, b) => a + b, 0) / values.length) : 0,
        maxDuration: values.length ? Math.max(...values) : 0,
        minDuration: values.length ? Math.min(...values) : 0,
        durationRanges: ranges,
        recentSessions: done.slice(0, 10).map((r) => ({ sessionId: r.sessionId, phoneNumber: r.phoneNumber, startedAt: r.startedAt, duration: r.duration, status: r.status }))
    };
}

/** The CSAT report of a scope (issue 28): live chat's facts (its declared service), agents named by the users service. */
export async function csatOf(server: Server, s: Scope): Promise<CsatReport> {
    const [facts, users] = await Promise.all([
        server.app.services.livechatRatings.qualityFacts(s.organizationId, s.range),
        server.app.services.users.list({ organizationId: s.organizationId })
    ]);
    const names = new Map(users.map((u) => [u.id, u.displayName?.trim() || u.name?.trim() || u.email]));
    return csatReport(facts, s.range, s.timeZone, names);
}

/** SPEC §3 order history: the order_history_viewed events of the range, with the orders of each page's phones. */
export async function orderHistory(server: Server, reports: AnalyticsReports, s: Scope, page: number, limit: number): Promise<OrderHistoryResponse> {
    const views = await reports.orderHistoryViews(s, page, limit);
    const details = new Map<string, OrderDetails>();
    for (const phone of new Set(views.rows.map((r) => r.phoneNumber).filter((p): p is string => !!p))) {
        try {
            const h = await server.app.services.loyalty.orderHistory(s.organizationId, phone, 5);
            details.set(phone, {
                found: h.found, customerName: h.customerName, totalOrders: h.totalOrders,
                orders: h.orders.slice(0, 5).map((o) => ({ productName: o.productName, quantity: o.quantity, price: o.price, orderDate: o.orderDate })),
                ...(h.error ? { error: h.error } : {})
            });
        }
        catch (err) {
            details.set(phone, { found: false, customerName: null, totalOrders: 0, orders: [], error: (err as Error).message });
        }
    }
    const p = pagination(page, limit, views.totalViews);
    return {
        summary: { totalViews: views.totalViews, successfulViews: views.successfulViews, uniquePhones: views.uniquePhones, uniqueDomains: views.uniqueDomains },
        orderHistory: views.rows.map(({ createdAt, ...r }) => ({
            phoneNumber: r.phoneNumber,
            timestamp: iso(createdAt)!,
            success: r.success,
            errorMessage: r.errorMessage,
            domain: r.domain,
            sessionId: r.sessionId,
            orderDetails: r.phoneNumber ? details.get(r.phoneNumber) ?? null : null
        })),
        pagination: { page, totalPages: p.totalPages, totalCount: views.totalViews, limit }
    };
}

/**
 * SPEC §7 'Analytics': the dashboard's reads. Admins read their own organization, super admins any (by
 * organizationId); organization users have /api/org/analytics (org-totals.ts).
 */
export function registerDashboardRoutes(server: Server, analytics: AnalyticsService, reports: AnalyticsReports, sockets: SocketCounts): void {
    const auth = allow('admin', 'super_admin');
    const get = <Q extends object, P extends object = object>(id: string, path: string, description: string,
        validate: { query: Joi.ObjectSchema; params?: Joi.ObjectSchema },
        handler: (request: Request<{ Query: Q; Params: P }>) => Promise<unknown>) => {
        server.route<{ Query: Q; Params: P }>({ method: 'GET', path, options: { id, auth, description, tags: ['api', 'analytics'], validate, handler } });
    };

    get<RangeQuery>('analytics.summary.get', '/api/analytics/summary', 'SPEC §3 Summary over the range (30 days)', { query: rangeQuery },
        async (request) => reports.summary(await scopeOf(request, server, analytics)));
    get<RangeQuery>('analytics.hourly.get', '/api/analytics/hourly', 'Events per local hour of the day (7 days)', { query: rangeQuery },
        async (request) => reports.hourly(await scopeOf(request, server, analytics, 7)));
    get<RangeQuery>('analytics.daily.get', '/api/analytics/daily-interactions', 'Events per local day (7 days)', { query: rangeQuery },
        async (request) => reports.daily(await scopeOf(request, server, analytics, 7)));
    get<RangeQuery>('analytics.timeline.get', '/api/analytics/timeline', 'Events per local day (30 days)', { query: rangeQuery },
        async (request) => reports.timeline(await scopeOf(request, server, analytics)));
    get<RangeQuery>('analytics.domains.list', '/api/analytics/domains', 'The domains with events in the range', { query: rangeQuery },
        async (request) => reports.domains(await scopeOf(request, server, analytics)));
    get<RangeQuery, { domain: string }>('analytics.domain.get', '/api/analytics/domain/{domain}', 'One domain: figures and latest events',
        { query: rangeQuery, params: Joi.object({ domain: fields.domain.required() }) },
        async (request) => {
            const detail = await reports.domain(await scopeOf(request, server, analytics), request.params.domain);
            if (!detail) {
                throw Boom.notFound('No events from this domain in the selected range');
            }
            return detail;
        });
    get<RangeQuery>('analytics.questions.get', '/api/analytics/questions', 'Pre-made question usage', { query: rangeQuery },
        async (request): Promise<QuestionUsageRow[]> => {
            const s = await scopeOf(request, server, analytics);
            const counts = await reports.questionCounts(s);
            const questions = await server.app.services.questions.list(s.organizationId);
            return counts.map((c) => {
                const q = questions.find((x) => x.id === c.questionId);
                return { questionId: c.questionId, question: q?.question ?? `Question ${c.questionId}`, answer: q?.answer ?? '', count: c.count };
            }).filter((r) => r.count > 0).sort((a, b) => b.count - a.count || a.questionId - b.questionId);
        });
    get<PagedQuery>('analytics.phones.list', '/api/analytics/phones', 'Phones, most recent activity first (paged)', { query: pagedQuery },
        async (request) => {
            const s = await scopeOf(request, server, analytics);
            return reports.phones(s, request.query, s.today);
        });
    get<RangeQuery, { phone: string }>('analytics.phone.activity', '/api/analytics/phone/{phone}', 'A phone\'s events (30 days)',
        { query: rangeQuery, params: phoneParam },
        async (request) => reports.phoneActivity(await scopeOf(request, server, analytics), phoneOf(request.params.phone)));
    get<RangeQuery, { phone: string }>('analytics.phone.details', '/api/analytics/phone-details/{phone}', 'A phone\'s summary, points history and actions',
        { query: rangeQuery, params: phoneParam },
        async (request) => reports.phoneDetail(await scopeOf(request, server, analytics), phoneOf(request.params.phone)));
    get<RangeQuery, { phone: string }>('analytics.customer.lookup', '/api/analytics/alpine-customer/{phone}',
        'The loyalty customer of a phone, cached per phone for a day', { query: Joi.object({ organizationId: rangeKeys.organizationId }), params: phoneParam },
        async (request): Promise<CustomerLookupResult> => {
            const organizationId = await organizationOf(request, server);
            const phone = phoneOf(request.params.phone);
            const cached = await reports.cachedLookup(organizationId, phone, LOOKUP_MAX_AGE_MS);
            if (cached.lookup) {
                return cached.lookup;
            }
            if (!e164(request.params.phone)) {
                return { found: false, email: null, name: null, alpineId: null, error: 'Not a phone number' };
            }
            const lookup = await server.app.services.loyalty.lookupCustomer(organizationId, phone);
            if (cached.known && !lookup.error) {
                await reports.storeLookup(organizationId, phone, lookup);
            }
            return lookup;
        });
    get<PagedQuery>('analytics.failed-verifications.list', '/api/analytics/failed-verifications', 'Failed verification attempts (paged)',
        { query: pagedQuery.keys({ limit: Joi.number().integer().min(1).max(200).default(100) }) },
        async (request) => reports.failedVerifications(await scopeOf(request, server, analytics), request.query));

    get<RangeQuery>('analytics.chat.get', '/api/analytics/chat', 'Chat analytics: summary and daily trends', { query: rangeQuery },
        async (request) => {
            const s = await scopeOf(request, server, analytics);
            return chatAnalytics(await sessionsOf(server, s), s);
        });
    get<RangeQuery>('analytics.chat-durations.get', '/api/analytics/chat-durations', 'Durations of completed chats', { query: rangeQuery },
        async (request) => chatDurations(await sessionsOf(server, await scopeOf(request, server, analytics))));
    get<RangeQuery>('analytics.chat-status.get', '/api/analytics/chat-status', 'Open chats: active and waiting',
        { query: Joi.object({ organizationId: rangeKeys.organizationId }) },
        async (request) => server.app.services.livechat.chatStatus(await organizationOf(request, server)));
    // Ratings and the per-agent report (issue 28): live chat's facts through its declared service, bucketed here.
    get<RangeQuery>('analytics.csat.get', '/api/analytics/csat', 'Customer ratings (CSAT) and the per-agent report', { query: rangeQuery },
        async (request) => csatOf(server, await scopeOf(request, server, analytics)));
    get<PagedQuery>('analytics.chat-sessions.list', '/api/analytics/chat-sessions', 'Chat sessions of the range (paged)', { query: pagedQuery },
        async (request) => {
            const s = await scopeOf(request, server, analytics);
            const { page, limit } = request.query;
            const result = await server.app.services.livechat.analyticsSessions(s.organizationId, s.range, { offset: (page - 1) * limit, limit });
            return { data: result.rows, pagination: pagination(page, limit, result.total) };
        });
    get<RangeQuery, { sessionId: string }>('analytics.chat-messages.list', '/api/analytics/chat-sessions/{sessionId}/messages', 'A chat\'s messages',
        { query: Joi.object({ organizationId: rangeKeys.organizationId }), params: Joi.object({ sessionId: fields.chatSessionId.required() }) },
        async (request) => {
            const organizationId = await organizationOf(request, server);
            const session = await server.app.services.livechat.getSession(organizationId, request.params.sessionId, { messages: true });
            return {
                sessionId: session.sessionId,
                messages: (session.messages ?? []).map((m) => ({ id: m.id, sender: m.sender, message: m.message, timestamp: m.timestamp }))
            };
        });
    get<PagedQuery>('analytics.order-history.list', '/api/analytics/order-history', 'Order history views with their orders (paged)', { query: pagedQuery },
        async (request) => orderHistory(server, reports, await scopeOf(request, server, analytics), request.query.page, request.query.limit));
    get<RangeQuery>('analytics.websocket.get', '/api/analytics/websocket', 'WebSocket connections on every node',
        { query: Joi.object({ organizationId: rangeKeys.organizationId }) },
        async (request): Promise<WebsocketStats> => {
            const organizationId = await organizationOf(request, server);
            const own = await server.app.services.livechat.websocketStats(organizationId);
            const all = await sockets.total(organizationId);
            return { ...own, totalActiveChatConnections: all.count, lastConnectionTime: all.last ? iso(all.last) : null };
        });

    registerExportRoute(server, analytics, reports);
}
