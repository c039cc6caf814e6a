import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { notFound } from '../../../core/http/errors';
import { organizationQuery, ownOrganizationId } from '../../../core/http/own-organization';
import type { OrganizationAnalytics } from '../../../core/types/api';
import type { AnalyticsService } from '../services/analytics-service';

const DAY = 24 * 3600 * 1000;

interface RangeQuery {
    organizationId?: number;
    days: number;
    startDate?: Date;
    endDate?: Date;
}

const rangeQuery = organizationQuery.keys({
    days: Joi.number().integer().min(1).max(366).default(30),
    startDate: Joi.date().iso(),
    endDate: Joi.date().iso().min(Joi.ref('startDate'))
}).with('endDate', 'startDate');

/** Range from startDate/endDate (YYYY-MM-DD, end defaults to start, whole days, UTC) or the last `days` days. */
export function rangeOf(query: { days?: number; startDate?: Date; endDate?: Date }, nowMs = Date.now()): { from: number; to: number } {
    if (query.startDate) {
        const from = query.startDate.getTime();
        const end = query.endDate ?? query.startDate;
        return { from, to: end.getTime() + DAY - 1 };
    }
    return { from: nowMs - (query.days ?? 30) * DAY, to: nowMs };
}

/** SPEC §7 GET /api/org/analytics: the totals of the organization user's own organization (org token). */
export function registerOrgTotalsRoute(server: Server, analytics: AnalyticsService): void {
    server.route<{ Query: RangeQuery }>({
        method: 'GET',
        path: '/api/org/analytics',
        options: {
            id: 'analytics.org-totals.get',
            auth: allow('org_user'),
            description: 'Totals of the caller\'s organization over the last `days` days (30) or startDate..endDate',
            validate: { query: rangeQuery },
            handler: async (request): Promise<OrganizationAnalytics> => {
                const organizationId = ownOrganizationId(request);
                const organization = await server.app.services.tenants.getOrganization(organizationId);
                if (!organization) {
                    throw notFound('Organization');
                }
                const range = rangeOf(request.query);
                return {
                    organizationId,
                    name: organization.name,
                    domain: organization.domain,
                    subdomain: organization.subdomain,
                    ...await analytics.organizationTotals(organizationId, range),
                    from: new Date(range.from).toISOString(),
                    to: new Date(range.to).toISOString()
                };
            }
        }
    });
}
