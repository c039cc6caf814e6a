import type { TenancyCase } from './tenancy-cases-tenants';

/**
 * Issue 25: a store's admin naming another store in a customer's data request, or in the audit trail, gets 404 (as if
 * it did not exist), whatever the other store keeps about that phone.
 */
const PHONE = '+15555550177';

async function customerOfB(server: Parameters<TenancyCase>[0]['server'], organizationId: number): Promise<void> {
    await server.app.db('loyalty_customers').insert({ organization_id: organizationId, phone: PHONE, name: 'Only B knows', email: 'only@b.test', points: 5, created_at: Date.now(), updated_at: Date.now() });
}

const person = (action: string): TenancyCase => async ({ server, a, b }) => {
    await customerOfB(server, b.organization.id).catch(() => { /* planted by an earlier case */ });
    return {
        method: 'POST',
        url: `/api/privacy/customers/${action}`,
        payload: { organizationId: b.organization.id, phone: PHONE, ...(action === 'erase' ? { confirm: true } : {}) },
        headers: { authorization: 'Bearer ' + a.admin.token }
    };
};

export const cases: Record<string, TenancyCase> = {
    'privacy.customer.find': person('find'),
    'privacy.customer.export': person('export'),
    'privacy.customer.erase': person('erase'),
    'privacy.audit.list': async ({ server, a, b }) => {
        await server.app.audit.record({ organizationId: b.organization.id, actorUserId: b.admin.id, actorRole: 'admin', action: 'settings.email.update' });
        return { method: 'GET', url: `/api/privacy/audit?organizationId=${b.organization.id}`, headers: { authorization: 'Bearer ' + a.admin.token } };
    }
};
