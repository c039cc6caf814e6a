import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connectAgent, connectCustomer, createSession, Inbox, NesClient, request, setAvailable } from '../helpers/livechat-client';
import { PrivateRedis, startPrivateRedis } from '../helpers/private-redis';
import { sleep, until } from '../helpers/wait';
import { AGENT_JOINED_TEXT, createLiveChat, LiveChat } from '../../widget/src/live-chat';

/** What a chat call may take while Redis is down or hung (every Redis call is bounded by 2 s at most). */
const ANSWER_MS = 2500;
/** Health must say so sooner. */
const HEALTH_MS = 1500;

/** Runs call; fails naming what when it has not answered within ms (so old code fails here, not at mocha's timeout). */
async function within<T>(ms: number, what: string, call: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    });
    try {
        const value = await Promise.race([call(), late]);
        if (process.env.SHOW_TIMINGS) {
            console.log(`      ${what}: ${Date.now() - started} ms`);
        }
        return { value, ms: Date.now() - started };
    }
    finally {
        clearTimeout(timer);
    }
}

const outages = [
    // killed: the publishes of the outage never reach Redis, so every node resyncs its sockets when it is back.
    { name: 'killed', stop: (r: PrivateRedis) => r.kill(), start: (r: PrivateRedis) => r.restart(), lost: true },
    // frozen: they wait on the open connection (bounded, see RedisPubSub) and reach the other node when Redis answers,
    // so nothing was missed and nobody resyncs (issue 24: a slow Redis must not make every socket refetch).
    { name: 'frozen (SIGSTOP: connections open, nothing answered)', stop: async (r: PrivateRedis) => r.pause(), start: async (r: PrivateRedis) => r.resume(), lost: false }
];

for (const [n, outage] of outages.entries()) {
    describe(`live chat on two nodes while their Redis is ${outage.name}`, function () {
        this.timeout(60000);
        const sub = `outage${n}`;
        const sessionId = `outage_${n}`;
        const eventSession = `widget_outage_${n}`;
        let redis: PrivateRedis;
        let nodeA: TestServer;
        let nodeB: TestServer;
        let tenant: Tenant;
        let agent: { client: NesClient; box: Inbox };
        let customer: { client: NesClient; box: Inbox };
        let customerToken: string;
        let agentLastSeq = 0;
        // The widget's own live chat client (widget/src/live-chat.ts) on node B, in a second chat.
        let widget: LiveChat;
        const widgetSaw: string[] = [];

        before(async () => {
            redis = await startPrivateRedis();
            // A private Redis for both nodes; the database is this run's (SQLite file, or PostgreSQL).
            nodeA = await startTestServer({ listen: true, env: { REDIS_URL: redis.url } });
            nodeB = await startTestServer({ listen: true, shareWith: nodeA, env: { REDIS_URL: redis.url } });
            expect(nodeA.server.app.pubsub.backend).to.equal('redis');
            expect(nodeB.server.app.jobs.backend).to.equal('bull');
            tenant = await createTenant(nodeA.server, sub);

            // An agent on node A, a customer on node B, and a chat that works across them.
            agent = await connectAgent(nodeA.url, tenant);
            await setAvailable(nodeA.server, tenant, true);
            const created = await createSession(nodeB.server, tenant, sessionId, 'Hello before the outage');
            customerToken = created.token;
            await agent.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === sessionId);
            customer = await connectCustomer(nodeB.url, customerToken, sessionId);
            await request(agent.client, 'POST', `/api/chat/session/${sessionId}/accept`);
            await request(agent.client, 'POST', `/api/chat/session/${sessionId}/messages`, { message: 'Hi, how can I help?', clientMessageId: 'a1' });
            await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Hi, how can I help?');
            await request(customer.client, 'POST', `/api/chat/session/${sessionId}/messages`, { message: 'Before the outage', clientMessageId: 'c1' });
            const seen = await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Before the outage');
            agentLastSeq = seen.seq;

            widget = createLiveChat({
                apiOrigin: nodeB.url, widgetKey: tenant.bot.publicKey, sessionId: `${sessionId}_w`,
                onMessage: (m) => widgetSaw.push(m.message), onEnded() {}, WebSocket: require('ws'), reconnectDelay: { min: 100, max: 1000 }
            });
            await widget.start({ phoneNumber: null, customerMessage: 'Widget here' });
            await agent.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === `${sessionId}_w`);
            await request(agent.client, 'POST', `/api/chat/session/${sessionId}_w/accept`);
            await until(() => widgetSaw.includes(AGENT_JOINED_TEXT), 5000, 'the widget to see the agent join');
        });

        after(async () => {
            // Whatever failed: Redis answering again lets both nodes stop, then it goes.
            await redis?.ensureUp();
            await widget?.end().catch(() => {});
            await customer?.client.disconnect();
            await agent?.client.disconnect();
            await nodeB?.close();
            await nodeA?.close();
            await redis?.stop();
        });

        it('answers create-session, a customer message and analytics track within 2.5 s, and health says redis error quickly', async () => {
            await outage.stop(redis);

            const created = await within(ANSWER_MS, 'create-session', () => nodeB.server.inject({
                method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': tenant.bot.publicKey },
                payload: { sessionId: `${sessionId}_new`, phoneNumber: '+15555550123', customerMessage: 'Anyone there?' }
            }));
            expect(created.value.statusCode, created.value.payload).to.equal(201);

            // Stored, so 2xx to its sender; only the push to other nodes failed.
            const sent = await within(ANSWER_MS, 'a customer message', () => nodeB.server.inject({
                method: 'POST', url: `/api/chat/session/${sessionId}/messages`, headers: bearer(customerToken),
                payload: { message: 'Sent during the outage', clientMessageId: 'c2' }
            }));
            expect(sent.value.statusCode, sent.value.payload).to.equal(201);
            // This node's own sockets still get it (a single node keeps working).
            await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Sent during the outage', 1000);

            const tracked = await within(ANSWER_MS, 'analytics track', () => nodeB.server.inject({
                method: 'POST', url: '/api/analytics/track', headers: { 'x-widget-key': tenant.bot.publicKey },
                payload: { sessionId: eventSession, action: 'widget_opened' }
            }));
            expect(tracked.value.statusCode, tracked.value.payload).to.equal(202);

            const health = await within(HEALTH_MS, 'health', () => nodeA.server.inject({ method: 'GET', url: '/health' }));
            expect(health.value.statusCode).to.equal(503);
            expect((health.value.result as any).redis).to.equal('error');

            // Still bounded once the outage is known (a second round of the same calls).
            const again = await within(ANSWER_MS, 'a second customer message', () => nodeB.server.inject({
                method: 'POST', url: `/api/chat/session/${sessionId}/messages`, headers: bearer(customerToken),
                payload: { message: 'Still there?', clientMessageId: 'c3' }
            }));
            expect(again.value.statusCode, again.value.payload).to.equal(201);

            // The agent on node A answers the widget's customer on node B (two messages: once node A knows
            // that publishing fails, the second is not even sent to Redis).
            for (const [i, text] of ['Agent during the outage', 'Agent again'].entries()) {
                const answer = await within(ANSWER_MS, 'an agent message', () =>
                    request(agent.client, 'POST', `/api/chat/session/${sessionId}_w/messages`, { message: text, clientMessageId: `aw${i}` }));
                expect(answer.value.statusCode).to.equal(201);
            }
        });

        it(outage.lost
            ? 'pushes resync to the agent and customer sockets once Redis is back, and the agent fetches what was stored meanwhile'
            : 'delivers to the other node, once Redis answers, what was published meanwhile, and resyncs nobody', async () => {
            await outage.start(redis);
            if (outage.lost) {
                await agent.box.waitFor((m) => m.type === 'resync', 10000);
                await customer.box.waitFor((m) => m.type === 'resync', 10000);
            }
            else {
                await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Still there?', 10000);
                const seen = agent.box.messages.filter((m) => m.type === 'chat_message').map((m) => m.message);
                expect(seen.indexOf('Sent during the outage'), 'late, in order').to.be.within(0, seen.indexOf('Still there?') - 1);
                await sleep(1500);         // past the probe that notices Redis answers again
                expect([...agent.box.messages, ...customer.box.messages].filter((m) => m.type === 'resync'), 'no resync').to.deep.equal([]);
            }

            const missed = await request(agent.client, 'GET', `/api/chat/session/${sessionId}/messages?after=${agentLastSeq}`);
            expect(missed.payload.messages.map((m: any) => m.message)).to.include.members(['Sent during the outage', 'Still there?']);
            const waiting = await request(agent.client, 'GET', '/api/chat/waiting');
            expect(waiting.payload.map((s: any) => s.sessionId)).to.include(`${sessionId}_new`);

            // And pushes flow between the nodes again.
            await request(customer.client, 'POST', `/api/chat/session/${sessionId}/messages`, { message: 'After the outage', clientMessageId: 'c4' });
            await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'After the outage', 5000);
            const health = await nodeA.server.inject({ method: 'GET', url: '/health' });
            expect((health.result as any).redis).to.equal('ok');

            // Pushes that arrived twice (a late copy from Redis of what was delivered on this node) are dropped.
            expect(customer.box.messages.filter((m) => m.type === 'chat_message' && m.message === 'Sent during the outage')).to.have.length(1);
        });

        it('lets the widget fetch, on resync, the agent\'s messages it missed', async () => {
            await until(() => widgetSaw.includes('Agent during the outage') && widgetSaw.includes('Agent again'), 10000, 'the widget to fetch the missed messages');
            expect(widgetSaw.filter((m) => m === 'Agent again')).to.have.length(1);
        });

        it('stores the analytics events posted during the outage, once', async () => {
            const count = async () => Number((await nodeA.server.app.db('analytics_events').where('session_id', eventSession).count({ n: '*' }).first() as any).n);
            const end = Date.now() + 10000;
            while (await count() < 1 && Date.now() < end) {
                await sleep(50);
            }
            expect(await count()).to.equal(1);
            await nodeB.server.app.jobs.drain();
            await sleep(500);       // a second copy would come from the other node's queue: no event to wait for
            expect(await count(), 'not stored twice').to.equal(1);
        });
    });
}
