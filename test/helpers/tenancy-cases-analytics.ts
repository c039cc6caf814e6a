import type { TenancyCase } from './tenancy-cases-tenants';

/**
 * The analytics dashboard reads one organization: A's admin naming organization B (organizationId) is
 * answered 404, as if B did not exist. Paths name objects of B where the route has a parameter.
 */
type TenantOfCase = Parameters<TenancyCase>[0]['b'];

/** A's admin asks for the object (or list) of organization B, naming B's id. */
const of = (path: string | ((b: TenantOfCase) => string)): TenancyCase => async ({ a, b }) => {
    const url = typeof path === 'string' ? path : path(b);
    return {
        method: 'GET',
        url: `${url}${url.includes('?') ? '&' : '?'}organizationId=${b.organization.id}`,
        headers: { authorization: 'Bearer ' + a.admin.token }
    };
};

export const cases: Record<string, TenancyCase> = {
    'analytics.summary.get': of('/api/analytics/summary'),
    'analytics.csat.get': of('/api/analytics/csat'),
    'analytics.hourly.get': of('/api/analytics/hourly'),
    'analytics.daily.get': of('/api/analytics/daily-interactions'),
    'analytics.timeline.get': of('/api/analytics/timeline'),
    'analytics.domains.list': of('/api/analytics/domains'),
    'analytics.domain.get': of((b) => `/api/analytics/domain/${b.organization.domain}`),
    'analytics.questions.get': of('/api/analytics/questions'),
    'analytics.phones.list': of('/api/analytics/phones'),
    'analytics.phone.activity': of('/api/analytics/phone/%2B15555550100'),
    'analytics.phone.details': of('/api/analytics/phone-details/%2B15555550100'),
    'analytics.customer.lookup': of('/api/analytics/alpine-customer/%2B15555550100'),
    'analytics.failed-verifications.list': of('/api/analytics/failed-verifications'),
    'analytics.chat.get': of('/api/analytics/chat'),
    'analytics.chat-durations.get': of('/api/analytics/chat-durations'),
    'analytics.chat-status.get': of('/api/analytics/chat-status'),
    'analytics.chat-sessions.list': of('/api/analytics/chat-sessions'),
    'analytics.chat-messages.list': of('/api/analytics/chat-sessions/widget_tenancy_b/messages'),
    'analytics.order-history.list': of('/api/analytics/order-history'),
    'analytics.websocket.get': of('/api/analytics/websocket'),
    'analytics.export.get': of('/api/analytics/export/phones')
};
