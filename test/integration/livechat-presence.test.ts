import { expect } from 'chai';
import { startTestServer, createTenant, TestServer, Tenant, usingPostgres, whileDatabaseBusy } from '../helpers/server';
import { helloThenGone } from '../helpers/raw-socket';
import { connectAgent, connectCustomer, createSession, request, setAvailable, wsUrl } from '../helpers/livechat-client';

// The windows under test, short (30 s and 300 s by default). The waits below are these windows themselves, plus a
// margin for a loaded machine: what is tested is what happens before and after them.
const GRACE_S = 0.6;
const ABANDON_S = 1.5;
const env = { CHAT_DISCONNECT_GRACE_SECONDS: String(GRACE_S), CHAT_ABANDON_SECONDS: String(ABANDON_S) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live chat: the customer gone (CHAT_DISCONNECT_GRACE_SECONDS, CHAT_ABANDON_SECONDS) over real sockets', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true, env });
        a = await createTenant(t.server, 'presa', 'presa.test');
        b = await createTenant(t.server, 'presb', 'presb.test');
    });
    after(async () => {
        await t?.close();
    });

    async function acceptedChat(tenant: Tenant, sessionId: string) {
        const agent = await connectAgent(t.url, tenant);
        await setAvailable(t.server, tenant, true);
        const created = await createSession(t.server, tenant, sessionId, 'Hello');
        const customer = await connectCustomer(t.url, created.token, sessionId, undefined, false);
        await request(agent.client, 'POST', `/api/chat/session/${sessionId}/accept`);
        await customer.box.waitFor((m) => m.type === 'agent_connected');
        return { agent, customer, token: created.token as string };
    }

    const status = async (tenant: Tenant, sessionId: string) => (await t.server.app.services.livechat.getSession(tenant.organization.id, sessionId));

    it('tells the agent "Customer Disconnected" after the grace period, then ends the chat after CHAT_ABANDON_SECONDS; the other store hears nothing', async () => {
        const { agent, customer } = await acceptedChat(a, 'gone_1');
        const other = await connectAgent(t.url, b);
        const left = Date.now();
        await customer.client.disconnect();

        const told = await agent.box.waitFor((m) => m.type === 'customer_disconnected' && m.sessionId === 'gone_1', 4000);
        expect(Date.now() - left, 'not before the grace period').to.be.at.least(GRACE_S * 1000 - 50);
        expect(told.reason).to.equal('customer_disconnected');
        expect((await status(a, 'gone_1')).status, 'still open after the grace period').to.equal('agent_connected');

        const ended = await agent.box.waitFor((m) => m.type === 'session_ended' && m.sessionId === 'gone_1', 6000);
        expect(Date.now() - left).to.be.at.least(ABANDON_S * 1000 - 50);
        expect(ended).to.include({ reason: 'customer_abandoned', endedBy: 'customer', status: 'completed' });
        expect((await status(a, 'gone_1')).status).to.equal('completed');
        expect(agent.box.messages.filter((m) => m.type === 'customer_disconnected' && m.sessionId === 'gone_1'), 'told once').to.have.length(1);
        expect(other.box.messages.filter((m) => m.sessionId === 'gone_1'), 'another store\'s agent').to.deep.equal([]);
        await agent.client.disconnect();
        await other.client.disconnect();
    });

    it('sends nothing when the customer comes back within the grace period, and starts counting afresh on the next absence', async () => {
        const { agent, customer, token } = await acceptedChat(a, 'gone_2');
        await customer.client.disconnect();
        await sleep(100);
        const again = await connectCustomer(t.url, token, 'gone_2', undefined, false);
        await sleep(GRACE_S * 1000 + 400);       // past the (test-short) grace window: the notice that must not come has no event to wait for
        expect(agent.box.messages.filter((m) => m.sessionId === 'gone_2' && ['customer_disconnected', 'session_ended'].includes(m.type))).to.deep.equal([]);
        expect((await status(a, 'gone_2')).status).to.equal('agent_connected');
        // Still connected past the abandon time counted from the first absence: not ended.
        await sleep((ABANDON_S - GRACE_S) * 1000);       // past the (test-short) abandon window counted from the first absence: the end must not come
        expect((await status(a, 'gone_2')).status).to.equal('agent_connected');

        await again.client.disconnect();
        await agent.box.waitFor((m) => m.type === 'customer_disconnected' && m.sessionId === 'gone_2', 4000);
        // Back after the agents were told: they hear customer_reconnected, and the chat goes on.
        const third = await connectCustomer(t.url, token, 'gone_2', undefined, false);
        await agent.box.waitFor((m) => m.type === 'customer_reconnected' && m.sessionId === 'gone_2', 4000);
        await sleep((ABANDON_S - GRACE_S) * 1000 + 300);       // past the (test-short) abandon window again: the chat must still be on
        expect((await status(a, 'gone_2')).status).to.equal('agent_connected');
        await third.client.disconnect();
        await agent.client.disconnect();
    });

    it('ends a waiting chat whose customer left as no_interaction', async () => {
        const agent = await connectAgent(t.url, a);
        const created = await createSession(t.server, a, 'gone_3', 'Anyone?');
        const customer = await connectCustomer(t.url, created.token, 'gone_3', undefined, false);
        await customer.client.disconnect();
        const ended = await agent.box.waitFor((m) => m.type === 'session_ended' && m.sessionId === 'gone_3', 6000);
        expect(ended).to.include({ reason: 'customer_abandoned', status: 'no_interaction' });
        await agent.client.disconnect();
    });

    it('keys presence by organization: a customer of another store with the same session id neither clears nor sets the mark', async () => {
        const { agent, customer } = await acceptedChat(a, 'same_id');
        const otherChat = await createSession(t.server, b, 'same_id', 'Other store');
        await customer.client.disconnect();
        // Store B's customer with the same chat id connects while A's customer is gone: A still hears the disconnect.
        const otherCustomer = await connectCustomer(t.url, otherChat.token, 'same_id', undefined, false);
        await agent.box.waitFor((m) => m.type === 'customer_disconnected' && m.sessionId === 'same_id', 4000);
        // A customer token names its own chat only: B's token cannot subscribe to (or mark) A's chat path of another id.
        const err = await otherCustomer.client.subscribe('/chat/sessions/gone_1', () => {}).catch((e: Error) => e);
        expect(err).to.be.instanceOf(Error);
        await otherCustomer.client.disconnect();
        await agent.client.disconnect();
    });

    it('refuses an anonymous socket before any presence is recorded', async () => {
        const Nes = require('@hapi/nes/lib/client');
        const client = new Nes.Client(t.url.replace(/^http/, 'ws') + '/ws');
        client.onError = () => {};
        const err = await client.connect({ reconnect: false }).catch((e: Error) => e);
        expect(err).to.be.instanceOf(Error);
        await client.disconnect();
    });

    it('the sweep of another node notices a customer who left through a node that has stopped (database timestamps, not timers)', async () => {
        const nodeB = await startTestServer({ listen: true, shareWith: t, env });
        try {
            const agentOnB = await connectAgent(nodeB.url, a);
            await setAvailable(t.server, a, true);
            const created = await createSession(t.server, a, 'gone_4', 'Hi');
            const agentOnA = await connectAgent(t.url, a);
            await request(agentOnA.client, 'POST', '/api/chat/session/gone_4/accept');
            await agentOnA.client.disconnect();
            // The customer's socket is on node B; node B stops right after it closes (its timers go with it).
            const customer = await connectCustomer(nodeB.url, created.token, 'gone_4', undefined, false);
            const agent = await connectAgent(t.url, a);
            await customer.client.disconnect();
            await sleep(100);
            await agentOnB.client.disconnect();
            await nodeB.close();
            await sleep(GRACE_S * 1000 + 100);       // past the (test-short) grace window, with node B gone: what node A's sweep must then find
            // Node A's sweep (called here instead of waiting for its 20 s interval, which may also have run it).
            await t.server.app.services.livechat.sweepCustomerGone();
            await agent.box.waitFor((m) => m.type === 'customer_disconnected' && m.sessionId === 'gone_4', 2000);
            expect((await t.server.app.services.livechat.sweepCustomerGone()).notified, 'told once').to.equal(0);
            expect(agent.box.messages.filter((m) => m.sessionId === 'gone_4' && m.type === 'customer_disconnected')).to.have.length(1);
            await agent.client.disconnect();
        }
        finally {
            await nodeB.close().catch(() => undefined);
        }
    });

    it('a reload on PostgreSQL: the new socket\'s read waits for the old socket\'s mark, so the chat is not left marked gone with its customer there', async function () {
        if (!usingPostgres) {
            this.skip();    // SQLite runs one statement at a time, in the order they were asked: the two cannot cross there
        }
        await createSession(t.server, a, 'reload_pg', 'Hello');
        const before = (await status(a, 'reload_pg')).status;
        const chat = await t.server.app.db('chat_sessions').where({ organization_id: a.organization.id, session_id: 'reload_pg' }).first('id');
        const live = t.server.app.services.livechat;
        // The old socket's close writes the mark; a lock on the chat's row holds that write, as a busy database would.
        const lock = await t.server.app.db.transaction();
        try {
            await lock('chat_sessions').where('id', chat.id).forUpdate().first('id');
            const closed = live.customerChatDisconnected(a.organization.id, 'reload_pg');
            await sleep(100);
            // The new socket opens meanwhile: before the fix its read saw no mark and it was done before the mark was written.
            const opened = live.customerChatConnected(a.organization.id, 'reload_pg');
            await sleep(100);
            await lock.commit();
            await Promise.all([closed, opened]);
        }
        finally {
            if (!lock.isCompleted()) {
                await lock.rollback();
            }
        }
        const row = await t.server.app.db('chat_sessions').where('id', chat.id).first('customer_gone_at', 'status');
        expect(row.customer_gone_at, 'the customer is back').to.equal(null);
        await sleep(ABANDON_S * 1000 + 300);
        expect((await status(a, 'reload_pg')).status, 'still open after the abandon window').to.equal(before);
    });

    it('a mark another node wrote after the customer came back through this one (the two writes crossed) is cleared by this node\'s sweep: nobody is told, the chat goes on', async () => {
        const { agent, customer } = await acceptedChat(a, 'crossed');
        const chat = () => t.server.app.db('chat_sessions').where({ organization_id: a.organization.id, session_id: 'crossed' });
        // The customer's old socket was on another node, whose mark landed after this node's read on the reconnect.
        await chat().update({ customer_gone_at: Date.now(), customer_gone_notified: false });
        expect((await t.server.app.services.livechat.sweepCustomerGone()).cleared).to.equal(1);
        expect((await chat().first('customer_gone_at')).customer_gone_at, 'the customer is here').to.equal(null);
        await sleep(GRACE_S * 1000 + 200);       // past the (test-short) grace window: the notice that must not come has no event to wait for
        expect((await t.server.app.services.livechat.sweepCustomerGone()).notified).to.equal(0);
        expect(agent.box.messages.filter((m) => m.sessionId === 'crossed' && ['customer_disconnected', 'session_ended'].includes(m.type))).to.deep.equal([]);

        // The other node's sweep had already told the agents: they hear the customer is back.
        await chat().update({ customer_gone_at: Date.now() - GRACE_S * 1000 - 100, customer_gone_notified: true });
        expect((await t.server.app.services.livechat.sweepCustomerGone()).cleared).to.equal(1);
        await agent.box.waitFor((m) => m.type === 'customer_reconnected' && m.sessionId === 'crossed', 2000);
        await sleep(ABANDON_S * 1000 + 200);       // past the (test-short) abandon window of that mark: the end must not come
        await t.server.app.services.livechat.sweepCustomerGone();
        expect((await status(a, 'crossed')).status).to.equal('agent_connected');

        // Once the customer leaves, the mark is this node's own again.
        await customer.client.disconnect();
        await agent.box.waitFor((m) => m.type === 'customer_disconnected' && m.sessionId === 'crossed', 4000);
        expect((await t.server.app.services.livechat.sweepCustomerGone()).cleared).to.equal(0);
        await agent.client.disconnect();
    });

    it('a customer who reloads fast while the database is slow (sockets gone before the server accepted them) is marked gone once they leave, not before', async () => {
        const { agent, customer, token } = await acceptedChat(a, 'reload_fast');
        // A busy database holds the server's accept (the store's row), while each page of the reload says hello and is gone.
        await whileDatabaseBusy(t.server, ['organizations'], async () => {
            await helloThenGone(wsUrl(t.url), token);
            await sleep(100);
        });
        await sleep(GRACE_S * 1000 + 400);
        expect(agent.box.messages.filter((m) => m.sessionId === 'reload_fast' && m.type === 'customer_disconnected'), 'while the customer is there').to.deep.equal([]);
        const left = Date.now();
        await customer.client.disconnect();
        await agent.box.waitFor((m) => m.type === 'customer_disconnected' && m.sessionId === 'reload_fast', 4000);
        expect(Date.now() - left).to.be.at.least(GRACE_S * 1000 - 50);
        await agent.client.disconnect();
    });
});
