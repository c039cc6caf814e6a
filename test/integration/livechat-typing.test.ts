import { expect } from 'chai';
import { startTestServer, createTenant, TestServer, Tenant } from '../helpers/server';
import { connect, connectAgent, connectCustomer, createSession, request, setAvailable } from '../helpers/livechat-client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live chat: typing signals both ways over real sockets (throttled, never stored)', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;

    before(async () => {
        // The throttle is 2 s; 1 s here, which the two signals below still fall well within.
        t = await startTestServer({ listen: true, env: { CHAT_TYPING_THROTTLE_MS: '1000' } });
        a = await createTenant(t.server, 'typea', 'typea.test');
        b = await createTenant(t.server, 'typeb', 'typeb.test');
    });
    after(async () => {
        await t?.close();
    });

    it('passes the customer\'s typing to the agents and the agent\'s to the customer, once per 2 s, and stores nothing', async () => {
        const agent = await connectAgent(t.url, a);
        const otherAgent = await connectAgent(t.url, b);
        await setAvailable(t.server, a, true);
        const created = await createSession(t.server, a, 'typ_1', 'Hi');
        const customer = await connectCustomer(t.url, created.token, 'typ_1', undefined, false);
        await request(agent.client, 'POST', '/api/chat/session/typ_1/accept');
        const before = (await t.server.app.services.livechat.getSession(a.organization.id, 'typ_1')).lastSeq;

        // A customer claiming to be the agent is still the customer.
        const first = await customer.client.message({ type: 'typing', sender: 'agent' });
        expect(first.payload).to.deep.equal({ type: 'typing', throttled: false });
        const second = await customer.client.message({ type: 'typing' });
        expect(second.payload, 'within the throttle window: dropped').to.deep.equal({ type: 'typing', throttled: true });
        const pushed = await agent.box.waitFor((m) => m.type === 'typing' && m.sessionId === 'typ_1');
        expect(pushed.sender).to.equal('customer');

        const fromAgent = await agent.client.message({ type: 'typing', sessionId: 'typ_1' });
        expect(fromAgent.payload.throttled).to.equal(false);
        const atCustomer = await customer.box.waitFor((m) => m.type === 'typing');
        expect(atCustomer.sender).to.equal('agent');

        await sleep(100);       // nothing more may arrive: a short quiet time, not a wait for something
        expect(agent.box.messages.filter((m) => m.type === 'typing'), 'one signal passed on').to.have.length(1);
        expect(customer.box.messages.filter((m) => m.type === 'typing' && m.sender === 'customer'), 'the customer does not hear itself').to.deep.equal([]);
        expect(otherAgent.box.messages.filter((m) => m.type === 'typing'), 'another store hears nothing').to.deep.equal([]);
        expect((await t.server.app.services.livechat.getSession(a.organization.id, 'typ_1')).lastSeq, 'nothing stored').to.equal(before);

        // After the throttle window the next signal passes again (what is tested is the window itself).
        await sleep(t.config.chat.typingThrottleMs);       // the configured throttle window (milliseconds in tests): the next typing report must go through
        expect((await customer.client.message({ type: 'typing' })).payload.throttled).to.equal(false);
        await customer.client.disconnect();
        await agent.client.disconnect();
        await otherAgent.client.disconnect();
    });

    it('refuses another store\'s agent, a customer naming another chat, and an ended chat', async () => {
        await setAvailable(t.server, a, true);
        const created = await createSession(t.server, a, 'typ_2', 'Hi');
        await createSession(t.server, a, 'typ_3', 'Hi too');
        const customer = await connectCustomer(t.url, created.token, 'typ_2', undefined, false);
        const otherAgent = await connect(t.url, b.admin.token);

        const crossStore = await otherAgent.message({ type: 'typing', sessionId: 'typ_2' }).catch((e: any) => e);
        expect(crossStore).to.be.instanceOf(Error);
        expect(crossStore.statusCode).to.equal(404);
        const otherChat = await customer.client.message({ type: 'typing', sessionId: 'typ_3' }).catch((e: any) => e);
        expect(otherChat).to.be.instanceOf(Error);
        expect(otherChat.statusCode).to.equal(403);

        await t.server.app.services.livechat.end(a.organization.id, 'typ_2', 'agent');
        const ended = await customer.client.message({ type: 'typing' }).catch((e: any) => e);
        expect(ended).to.be.instanceOf(Error);
        expect(ended.statusCode).to.equal(409);
        await customer.client.disconnect();
        await otherAgent.disconnect();
    });

    it('is a route like any command (livechat.session.typing): the same answer over HTTP, its input validated, in the access matrix', async () => {
        await setAvailable(t.server, a, true);
        const created = await createSession(t.server, a, 'typ_4', 'Hi');
        const agent = await connectAgent(t.url, a);
        const typing = (payload?: object) => t.server.inject({
            method: 'POST', url: '/api/chat/session/typ_4/typing', headers: { authorization: `Bearer ${created.token}` }, payload
        });
        const first = await typing();
        expect(first.statusCode, first.payload).to.equal(200);
        expect(JSON.parse(first.payload)).to.deep.equal({ type: 'typing', throttled: false });
        expect(JSON.parse((await typing()).payload)).to.deep.equal({ type: 'typing', throttled: true });
        const pushed = await agent.box.waitFor((m) => m.type === 'typing' && m.sessionId === 'typ_4');
        expect(pushed.sender).to.equal('customer');
        const bad = await typing({ sender: 'agent' });
        expect(bad.statusCode).to.equal(400);
        const route = t.server.table().find((r) => r.settings.id === 'livechat.session.typing');
        expect(route?.settings.auth, 'declared access').to.be.an('object');
        await agent.client.disconnect();
    });
});
