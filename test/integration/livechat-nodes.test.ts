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

    it('carries a push only to the nodes that hold a subscriber of its path (targeted fan-out, issue 24)', async () => {
        const other = await createTenant(nodeA.server, 'fanoutother', 'fanout-other.test');
        const agentA = await connectAgent(nodeA.url, tenant);
        const agentOther = await connectAgent(nodeB.url, other);
        const created = await createSession(nodeB.server, tenant, 'fanout_1', 'Hello');
        await agentA.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === 'fanout_1');
        const customer = await connectCustomer(nodeB.url, created.token, 'fanout_1');
        await request(agentA.client, 'POST', '/api/chat/session/fanout_1/accept');
        await customer.box.waitFor((m) => m.type === 'agent_connected');

        // The store's agent feed: node A holds its only subscriber (node B holds another store's feed only).
        const stats = () => ({ a: nodeA.server.app.realtime.fanOutStats().received, b: nodeB.server.app.realtime.fanOutStats().received });
        let before = stats();
        for (let i = 0; i < 5; i++) {
            await nodeB.server.app.realtime.publish('/agents/' + tenant.organization.id, { type: 'probe', i });
        }
        await agentA.box.waitFor((m) => m.type === 'probe' && m.i === 4);
        let after = stats();
        expect(after.a - before.a, 'node A received the five').to.equal(5);
        expect(after.b - before.b, 'node B, published from, received none').to.equal(0);
        expect(agentOther.box.messages.filter((m) => m.type === 'probe'), 'another store\'s agent hears nothing of it').to.deep.equal([]);

        // The chat's own path: both nodes hold a subscriber (the customer on B, the accepting agent on A).
        before = stats();
        await nodeA.server.app.realtime.publish('/chat/sessions/fanout_1', { type: 'probe_customer' });
        await customer.box.waitFor((m) => m.type === 'probe_customer');
        await new Promise((r) => setTimeout(r, 100));
        after = stats();
        expect(after.b - before.b).to.equal(1);
        expect(after.a - before.a).to.be.at.most(1);

        // A push on a path no node subscribes to is received by nobody.
        const idle = { a: nodeA.server.app.realtime.fanOutStats().received, b: nodeB.server.app.realtime.fanOutStats().received };
        for (let i = 0; i < 10; i++) {
            await nodeA.server.app.realtime.publish('/chat/sessions/nobody_here', { type: 'lost' });
        }
        await new Promise((r) => setTimeout(r, 200));       // nobody may receive these: no event to wait for, so a window well past a pub/sub round trip
        expect(nodeA.server.app.realtime.fanOutStats().received - idle.a).to.equal(0);
        expect(nodeB.server.app.realtime.fanOutStats().received - idle.b).to.equal(0);
        await customer.client.disconnect();
        await agentA.client.disconnect();
        await agentOther.client.disconnect();
    });
});
