import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { notFound } from '../../../core/http/errors';
import { ownOrganizationId } from '../../../core/http/own-organization';
import type { OrganizationAnalytics } from '../../../core/types/api';
import type { AnalyticsService } from '../services/analytics-service';
import type { AnalyticsReports } from '../services/reports';
import { dayRange } from '../lib/time';
import { RangeQuery, rangeQuery } from './query';

/**
 * SPEC §7 GET /api/org/analytics: the totals of the organization user's own organization (org token) over the
 * last `days` local days (30) or startDate..endDate, and its daily rows for the dashboard's chart.
 */
export function registerOrgTotalsRoute(server: Server, analytics: AnalyticsService, reports: AnalyticsReports): void {
    server.route<{ Query: RangeQuery }>({
        method: 'GET',
        path: '/api/org/analytics',
        options: {
            id: 'analytics.org-totals.get',
            auth: allow('org_user'),
            description: 'Totals of the caller\'s organization over the last `days` days (30) or startDate..endDate, and its daily rows',
            validate: { query: rangeQuery },
            handler: async (request): Promise<OrganizationAnalytics> => {
                const organizationId = ownOrganizationId(request);
                const organization = await server.app.services.tenants.getOrganization(organizationId);
                if (!organization) {
                    throw notFound('Organization');
                }
                const timeZone = await analytics.timeZoneOf(organizationId);
                const q = request.query;
                if (q.startDate && q.endDate && q.endDate < q.startDate) {
                    throw Boom.badRequest('"endDate" must not be before "startDate"');
                }
                const range = dayRange({ days: q.days ?? 30, startDate: q.startDate, endDate: q.endDate }, timeZone);
                return {
                    organizationId,
                    name: organization.name,
                    domain: organization.domain,
                    subdomain: organization.subdomain,
                    ...await analytics.organizationTotals(organizationId, range),
                    from: new Date(range.from).toISOString(),
                    to: new Date(range.to).toISOString(),
                    timeZone,
                    daily: await reports.daily({ organizationId, timeZone, range })
                };
            }
        }
    });
}
