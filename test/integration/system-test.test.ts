import { expect } from 'chai';
import * as Net from 'net';
import { startWithStores, startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';
import { connectAgent, createSession, setAvailable, disconnectAll } from '../helpers/livechat-client';

/** A local port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
    const server = Net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as Net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
}

describe('the system test dashboard\'s round trips (/api/admin/system-test/*)', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    const clients: any[] = [];

    before(async () => {
        ({ t, stores: [a, b] } = await startWithStores(['sysalpha', 'sysbeta']));
        await t.server.app.services.loyalty.seedDemoCustomers(a.organization.id, [
            { phone: '+15555550100', name: 'Avery Stone', email: 'avery@example.com', loyaltyId: 'LC-1', points: 1250, orders: [] }
        ]);
    });
    after(async () => {
        await disconnectAll(clients);
        await t?.close();
    });

    const call = (tenant: Tenant, method: string, url: string, payload?: object) =>
        t.server.inject({ method, url, headers: bearer(tenant.admin.token), payload });

    it('answers the admin\'s own organization for the shell header', async () => {
        const res = await call(a, 'GET', '/api/admin/organization');
        expect(res.statusCode).to.equal(200);
        expect(res.result).to.deep.include({ id: a.organization.id, subdomain: 'sysalpha', domain: 'sysalpha.test' });
        // The store's zone: staff screens show every time in it, named (DESIGN §10 'Times', issue 27).
        expect((res.result as any).timeZone).to.be.a('string').and.match(/^[A-Za-z_]+(\/[A-Za-z_+-]+)*$/);
        expect((res.result as any).user).to.deep.equal({ id: a.admin.id, email: a.admin.email, role: 'admin' });
        expect((await t.server.inject({ method: 'GET', url: '/api/admin/organization', headers: bearer(a.orgUser.token) })).statusCode).to.equal(401);
        expect((await t.server.inject({ method: 'GET', url: '/api/admin/organization' })).statusCode).to.equal(401);
    });

    it('tracks an analytics event dated 1970, reads it back, and no 30-day window counts it', async () => {
        const before = (await call(a, 'GET', '/api/admin/system-test/summary')).result as any;
        const res = await call(a, 'POST', '/api/admin/system-test/analytics');
        expect(res.statusCode, res.payload).to.equal(200);
        const body = res.result as any;
        expect(body.ok).to.equal(true);
        expect(body.ms).to.be.a('number');
        expect(body.eventTime.slice(0, 4)).to.equal('1970');
        const after = (await call(a, 'GET', '/api/admin/system-test/summary')).result as any;
        expect(after.totalInteractions, 'the test event is outside every window').to.equal(before.totalInteractions);
        const org = await t.server.inject({ method: 'GET', url: '/api/org/analytics', headers: bearer(a.orgUser.token) });
        expect((org.result as any).totalInteractions ?? 0, 'the organization dashboard does not count it either').to.equal(0);
    });

    it('sums the last 30 days (interactions, success rate, active domains) and lists the waiting chats', async () => {
        const analytics = t.server.app.services.analytics;
        const now = Date.now();
        await analytics.track({ organizationId: a.organization.id, action: 'widget_opened', domain: 'shop.sysalpha.test', createdAt: now - 1000 });
        await analytics.track({ organizationId: a.organization.id, action: 'points_retrieved', domain: 'www.sysalpha.test', createdAt: now - 2000 });
        await analytics.track({ organizationId: a.organization.id, action: 'code_verification_failed', domain: 'www.sysalpha.test', createdAt: now - 3000 });
        await analytics.track({ organizationId: a.organization.id, action: 'widget_opened', domain: 'old.sysalpha.test', createdAt: now - 40 * 86400000 });
        await analytics.track({ organizationId: b.organization.id, action: 'widget_opened', domain: 'sysbeta.test', createdAt: now - 1000 });
        await createSession(t.server, a, 'sys_wait_1', 'Anyone there?', '+15555550142');
        // The events are ingested by a job (in process, or on Bull with Redis): wait until both stores' are in.
        let summary: any;
        let other: any;
        for (let i = 0; i < 200; i++) {
            summary = (await call(a, 'GET', '/api/admin/system-test/summary')).result;
            other = (await call(b, 'GET', '/api/admin/system-test/summary')).result;
            if (summary.totalInteractions >= 3 && other.totalInteractions >= 1) {
                break;
            }
            await new Promise((r) => setTimeout(r, 50));
        }
        expect(summary).to.include({ days: 30, totalInteractions: 3, successRate: 50, activeDomains: 2 });
        expect(summary.waitingSessions.map((s: any) => s.sessionId)).to.deep.equal(['sys_wait_1']);
        expect(summary.waitingSessions[0]).to.include({ phoneNumber: '+15555550142', firstMessage: 'Anyone there?' });
        expect(other).to.include({ totalInteractions: 1, activeDomains: 1 });
        expect(other.waitingSessions).to.deep.equal([]);
    });

    it('reports availability as a customer would see it', async () => {
        let res = await call(a, 'GET', '/api/admin/system-test/availability');
        expect(res.result).to.include({ ok: true, agentsAvailable: false });
        await setAvailable(t.server, a, true);
        const agent = await connectAgent(t.url, a);
        clients.push(agent.client);
        res = await call(a, 'GET', '/api/admin/system-test/availability');
        expect(res.result).to.include({ ok: true, agentsAvailable: true, waitingSessions: 1 });
        expect((res.result as any).you).to.deep.equal({ available: true, connections: 1 });
    });

    it('looks up the test phone at the loyalty provider and sends no text', async () => {
        const outbox = async () => (await t.server.app.services.loyalty.listOutbox({ limit: 100 })).length;
        const sent = await outbox();
        const res = await call(a, 'POST', '/api/admin/system-test/loyalty', {});
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.deep.include({ ok: true, provider: 'builtin', phone: '+15555550100', found: true, customer: { name: 'Avery Stone', points: 1250 } });
        expect((res.result as any).sms).to.deep.equal({ provider: 'outbox', dryRun: true, sent: false, to: '+15555550100' });
        const unknown = await call(a, 'POST', '/api/admin/system-test/loyalty', { phone: '555-555-0199' });
        expect(unknown.result).to.include({ ok: true, found: false, phone: '+15555550199' });
        expect(await outbox(), 'a dry run').to.equal(sent);
        const bad = await call(a, 'POST', '/api/admin/system-test/loyalty', { phone: 'call me' });
        expect(bad.statusCode).to.equal(400);
        expect((bad.result as any).message).to.contain('"phone" must be a phone number');
    });

    it('answers 503 naming the provider and its error when the loyalty provider is unreachable', async () => {
        const port = await closedPort();
        const down = await startTestServer({ env: { LOYALTY_PROVIDER: 'alpineiq', ALPINEIQ_API_KEY: 'k', ALPINEIQ_UID: '1', ALPINEIQ_BASE_URL: `http://127.0.0.1:${port}` } });
        try {
            const c = await createTenant(down.server, 'sysdown', 'sysdown.test');
            const res = await down.server.inject({ method: 'POST', url: '/api/admin/system-test/loyalty', headers: bearer(c.admin.token), payload: {} });
            expect(res.statusCode, res.payload).to.equal(503);
            expect((res.result as any).message).to.match(/^Loyalty provider "alpineiq" failed: Alpine IQ cannot be reached/);
        }
        finally {
            await down.close();
        }
    });
});
