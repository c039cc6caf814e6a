import { expect } from 'chai';
import { startTestServer, createTenant, bearer, TestServer, Tenant, usingPostgres, usingRedis } from '../helpers/server';
import { connectAgent, connectCustomer, createSession, request, setAvailable } from '../helpers/livechat-client';

describe('live chat across two nodes sharing PostgreSQL and Redis', function () {
    this.timeout(30000);
    let nodeA: TestServer;
    let nodeB: TestServer;
    let tenant: Tenant;

    before(async function () {
        if (!(usingPostgres && usingRedis)) {
            this.skip();
        }
        nodeA = await startTestServer({ listen: true });
        nodeB = await startTestServer({ listen: true, shareWith: nodeA });
        tenant = await createTenant(nodeA.server, 'twonodes', 'twonodes.test');
    });
    after(async () => {
        await nodeB?.close();
        await nodeA?.close();
    });

    it('lets a customer on node B chat with an agent on node A', async () => {
        expect(nodeA.server.app.pubsub.backend).to.equal('redis');
        const agent = await connectAgent(nodeA.url, tenant);
        await setAvailable(nodeA.server, tenant, true);
        const avail = await nodeB.server.inject({ method: 'POST', url: '/api/chat/check-availability', headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId: 'n1' } });
        expect(avail.statusCode, 'node B sees the agent connected to node A').to.equal(200);

        const created = await createSession(nodeB.server, tenant, 'nodes_1', 'Hello from node B');
        await agent.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === 'nodes_1');
        const waitingOnB = await nodeB.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(tenant.admin.token) });
        expect((waitingOnB.result as any[]).map((s) => s.sessionId)).to.include('nodes_1');

        const customer = await connectCustomer(nodeB.url, created.token, 'nodes_1');
        await request(agent.client, 'POST', '/api/chat/session/nodes_1/accept');
        await customer.box.waitFor((m) => m.type === 'agent_connected');
        await request(agent.client, 'POST', '/api/chat/session/nodes_1/messages', { message: 'Hi from node A', clientMessageId: 'a1' });
        await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Hi from node A');
        await request(customer.client, 'POST', '/api/chat/session/nodes_1/messages', { message: 'Thanks!', clientMessageId: 'c1' });
        await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Thanks!');
        await request(agent.client, 'POST', '/api/chat/session/nodes_1/end');
        const ended = await customer.box.waitFor((m) => m.type === 'session_ended');
        expect(ended.reason).to.equal('agent_ended');
        // Each push reached each socket once.
        expect(customer.box.messages.filter((m) => m.type === 'chat_message' && m.message === 'Hi from node A')).to.have.length(1);
        expect(agent.box.messages.filter((m) => m.type === 'chat_message' && m.message === 'Thanks!')).to.have.length(1);

        await customer.client.disconnect();
        await agent.client.disconnect();
        // Node B hears that the agent left node A.
        const availability = () => nodeB.server.inject({ method: 'POST', url: '/api/chat/check-availability', headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId: 'n1' } });
        let gone = await availability();
        for (const end = Date.now() + 5000; (gone.result as { available?: boolean }).available !== false && Date.now() < end;) {
            await new Promise((r) => setTimeout(r, 20));
            gone = await availability();
        }
        expect(gone.statusCode).to.equal(200);
        expect(gone.result, 'the agent left node A').to.include({ available: false });
    });
});
