import { expect } from 'chai';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connect, connectCustomer, createSession, inbox, Inbox, NesClient, request, setAvailable } from '../helpers/livechat-client';
import { PrivateRedis, startPrivateRedis } from '../helpers/private-redis';
import { signUserToken } from '../../core/auth/tokens';

/** How often each node re-checks its sockets' users and organizations in these tests (WS_REVOCATION_CHECK_MS). */
const CHECK_MS = 200;
/** A revoked socket must be closed within this long, Redis or not (the default check is every 2 s). */
const CLOSED_WITHIN_MS = 1500;

/** Resolves with how long it took for the client to be disconnected by the server; rejects past ms. */
function closedWithin(client: NesClient, ms: number, what: string): Promise<number> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what}: still connected after ${ms} ms`)), ms);
        const previous = client.onDisconnect;
        client.onDisconnect = (...args: unknown[]) => {
            previous?.(...args);
            clearTimeout(timer);
            resolve(Date.now() - started);
        };
    });
}

const outages = [
    { name: 'killed', stop: (r: PrivateRedis) => r.kill(), start: (r: PrivateRedis) => r.restart() },
    { name: 'frozen (SIGSTOP)', stop: async (r: PrivateRedis) => r.pause(), start: async (r: PrivateRedis) => r.resume() }
];

/**
 * Revocation without Redis (issue 25, fix 5): a user disabled, a password changed or an organization deactivated on
 * node A while Redis is down cannot reach node B through pub/sub, so node B re-checks its own sockets' users and
 * organizations in the database (every WS_REVOCATION_CHECK_MS) and closes the revoked ones: no more requests, no more
 * pushes. Before, a revoked agent's socket on node B kept reading customer data until its next re-verification (15 s).
 */
for (const [n, outage] of outages.entries()) {
    describe(`revocation across two nodes while their Redis is ${outage.name}`, function () {
        this.timeout(60000);
        let redis: PrivateRedis;
        let nodeA: TestServer;
        let nodeB: TestServer;
        let shop: Tenant;
        let other: Tenant;
        const clients: NesClient[] = [];
        let disabled: { client: NesClient; box: Inbox };
        let renamed: { client: NesClient; box: Inbox; userId: number };
        let staying: { client: NesClient; box: Inbox };
        let otherAgent: NesClient;
        let otherCustomer: NesClient;
        let shopCustomer: NesClient;

        async function agentOn(node: TestServer, tenant: Tenant, token: string): Promise<{ client: NesClient; box: Inbox }> {
            const box = inbox();
            const client = await connect(node.url, token);
            clients.push(client);
            await client.subscribe(`/agents/${tenant.organization.id}`, (m: unknown) => box.messages.push(m));
            return { client, box };
        }
        async function secondAdmin(tenant: Tenant, email: string): Promise<{ id: number; token: string }> {
            const user = await nodeA.server.app.services.users.create({ email, password: 'correct-horse-battery', role: 'admin', organizationId: tenant.organization.id });
            return { id: user.id, token: signUserToken(nodeA.config.jwtSecret, { id: user.id, role: 'admin', organizationId: tenant.organization.id, tokenVersion: 0 }) };
        }

        before(async () => {
            redis = await startPrivateRedis();
            nodeA = await startTestServer({ listen: true, env: { REDIS_URL: redis.url, WS_REVOCATION_CHECK_MS: String(CHECK_MS) } });
            nodeB = await startTestServer({ listen: true, shareWith: nodeA, env: { REDIS_URL: redis.url, WS_REVOCATION_CHECK_MS: String(CHECK_MS) } });
            shop = await createTenant(nodeA.server, `revoke${n}`);
            other = await createTenant(nodeA.server, `revokeo${n}`);
            const y = await secondAdmin(shop, `y${n}@revoke.test`);
            const z = await secondAdmin(shop, `z${n}@revoke.test`);

            // Agents and customers on node B; the revocations are made on node A.
            disabled = await agentOn(nodeB, shop, shop.admin.token);
            renamed = { ...(await agentOn(nodeB, shop, y.token)), userId: y.id };
            staying = await agentOn(nodeB, shop, z.token);
            otherAgent = (await agentOn(nodeB, other, other.admin.token)).client;
            await setAvailable(nodeB.server, shop, true);
            const shopChat = await createSession(nodeB.server, shop, `revoke_shop_${n}`, 'Hello');
            shopCustomer = (await connectCustomer(nodeB.url, shopChat.token, `revoke_shop_${n}`)).client;
            clients.push(shopCustomer);
            const otherChat = await createSession(nodeB.server, other, `revoke_other_${n}`, 'Hello');
            otherCustomer = (await connectCustomer(nodeB.url, otherChat.token, `revoke_other_${n}`)).client;
            clients.push(otherCustomer);
            await disabled.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === `revoke_shop_${n}`);
        });
        after(async () => {
            await redis?.ensureUp();
            for (const client of clients) {
                await client.disconnect().catch(() => undefined);
            }
            await nodeB?.close();
            await nodeA?.close();
            await redis?.stop();
        });

        it('closes on node B, within 1.5 s, the socket of a user disabled on node A; it gets no push and no answer afterwards', async () => {
            await outage.stop(redis);
            const closed = closedWithin(disabled.client, CLOSED_WITHIN_MS, 'the disabled agent\'s socket');
            await nodeA.server.app.services.users.update(shop.admin.id, { isActive: false });
            await closed;
            // A new customer on node B: the agents still there hear of it, the revoked one does not.
            await nodeB.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': shop.bot.publicKey },
                payload: { sessionId: `revoke_after_${n}`, phoneNumber: '+15555550123', customerMessage: 'Anyone?' } });
            await staying.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === `revoke_after_${n}`, 3000);
            expect(disabled.box.messages.filter((m) => m.sessionId === `revoke_after_${n}`)).to.deep.equal([]);
            const answer = await request(disabled.client, 'GET', '/api/chat/waiting').then(() => 'answered', () => 'refused');
            expect(answer).to.equal('refused');
        });

        it('closes the socket of a user whose password changed, and every socket of an organization deactivated, leaving the others open', async () => {
            // The password hash (scrypt) takes a moment of its own before the revocation.
            const closed = Promise.all([
                closedWithin(renamed.client, CLOSED_WITHIN_MS + 1500, 'the agent whose password changed'),
                closedWithin(otherAgent, CLOSED_WITHIN_MS, 'the deactivated store\'s agent'),
                closedWithin(otherCustomer, CLOSED_WITHIN_MS, 'the deactivated store\'s customer')
            ]);
            await Promise.all([
                nodeA.server.app.services.users.update(renamed.userId, { password: 'another-long-passphrase-42' }),
                nodeA.server.app.services.tenants.updateOrganization(other.organization.id, { isActive: false }),
                closed
            ]);
            // Still served: an agent and a customer nobody revoked.
            expect((await request(staying.client, 'GET', '/api/chat/waiting')).statusCode).to.equal(200);
            expect((await request(shopCustomer, 'GET', `/api/chat/session/revoke_shop_${n}/messages`)).statusCode).to.equal(200);
            await outage.start(redis);
        });
    });
}
