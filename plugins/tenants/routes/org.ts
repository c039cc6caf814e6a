import Boom from '@hapi/boom';
import Joi from 'joi';
import { fields } from '../../../core/http/fields';
import type { Request, Server } from '@hapi/hapi';
import type { TenantService } from '../services/tenant-service';
import { requestBaseUrl } from './common';
import { allow } from '../../../core/http/access';
import { staffOf } from '../../../core/http/callers';

const DAY = 24 * 3600 * 1000;

/** The totals the organization dashboard's Overview shows (SPEC §2 'Organization'). */
export interface OrganizationTotals {
    totalInteractions: number;
    loyaltyChecks: number;
    liveChatSessions: number;
    successRate: number;
}

/** The optional seam the analytics plugin provides; zeros until it does. */
interface OrganizationTotalsSource {
    organizationTotals?(organizationId: number, range: { from: number; to: number }): Promise<OrganizationTotals>;
}

const organizationQuery = Joi.object({
    organizationId: fields.id
        .description('must be the caller\'s own organization; defaults to it')
});

/** The organization the request may see: its own. Any other id answers 404, as if it did not exist. */
function ownOrganizationId(request: Request): number {
    const own = staffOf(request).organizationId;
    const asked = (request.query as { organizationId?: number }).organizationId;
    if (own === null || (asked !== undefined && asked !== own)) {
        throw Boom.notFound('Organization not found');
    }
    return own;
}

/** Range from startDate/endDate (YYYY-MM-DD, end defaults to start, whole days, UTC) or the last `days` days. */
export function rangeOf(query: { days?: number; startDate?: Date; endDate?: Date }, nowMs = Date.now()): { from: number; to: number } {
    if (query.startDate) {
        const from = query.startDate.getTime();
        const end = query.endDate ?? query.startDate;
        return { from, to: end.getTime() + DAY - 1 };
    }
    return { from: nowMs - (query.days ?? 30) * DAY, to: nowMs };
}

/** SPEC §7: the organization user's own bot instances and analytics (org token). */
export function registerOrgRoutes(server: Server, tenants: TenantService): void {
    server.route([
        {
            method: 'GET',
            path: '/api/org/bot-instances',
            options: {
                id: 'tenants.org-bot-instances.list',
                auth: allow('org_user'),
                description: 'The bot instances of the caller\'s organization, with public key and embed snippet',
                validate: { query: organizationQuery },
                handler: (request) => tenants.listBotInstances({ organizationId: ownOrganizationId(request) }, requestBaseUrl(request))
            }
        },
        {
            method: 'GET',
            path: '/api/org/analytics',
            options: {
                id: 'tenants.org-analytics.get',
                auth: allow('org_user'),
                description: 'Totals of the caller\'s organization over the last `days` days (30) or startDate..endDate',
                validate: {
                    query: organizationQuery.keys({
                        days: Joi.number().integer().min(1).max(366).default(30),
                        startDate: Joi.date().iso(),
                        endDate: Joi.date().iso().min(Joi.ref('startDate'))
                    }).with('endDate', 'startDate')
                },
                handler: async (request) => {
                    const organizationId = ownOrganizationId(request);
                    const organization = await tenants.getOrganization(organizationId);
                    if (!organization) {
                        throw Boom.notFound('Organization not found');
                    }
                    const range = rangeOf(request.query as any);
                    const source = (server.app.services as unknown as { analytics?: OrganizationTotalsSource }).analytics;
                    const totals: OrganizationTotals = source?.organizationTotals
                        ? await source.organizationTotals(organizationId, range)
                        : { totalInteractions: 0, loyaltyChecks: 0, liveChatSessions: 0, successRate: 0 };
                    return {
                        organizationId,
                        name: organization.name,
                        domain: organization.domain,
                        subdomain: organization.subdomain,
                        ...totals,
                        from: new Date(range.from).toISOString(),
                        to: new Date(range.to).toISOString()
                    };
                }
            }
        }
    ]);
}
