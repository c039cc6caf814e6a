import type { Server } from '@hapi/hapi';
import type { Tenant } from './server';

export interface TenancyRequest { method: string; url: string; payload?: unknown; headers: Record<string, string> }
/** Creates an object in organization B and returns the request that organization A's credentials make for it. */
export type TenancyCase = (ctx: { server: Server; a: Tenant; b: Tenant }) => Promise<TenancyRequest>;

/** The organization API takes the organization id as a query parameter: A's org user asks for B's. */
export const cases: Record<string, TenancyCase> = {
    'tenants.org-bot-instances.list': async ({ a, b }) => ({
        method: 'GET',
        url: `/api/org/bot-instances?organizationId=${b.organization.id}`,
        headers: { authorization: 'Bearer ' + a.orgUser.token }
    }),
    'analytics.org-totals.get': async ({ a, b }) => ({
        method: 'GET',
        url: `/api/org/analytics?organizationId=${b.organization.id}`,
        headers: { authorization: 'Bearer ' + a.orgUser.token }
    })
};
