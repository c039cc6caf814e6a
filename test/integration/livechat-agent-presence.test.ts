import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer, whileDatabaseBusy } from '../helpers/server';
import { helloThenGone } from '../helpers/raw-socket';
import { connect, connectAgent, connectCustomer, createSession, Inbox, inbox, request, setAvailable, wsUrl } from '../helpers/livechat-client';
import { signUserToken } from '../../core/auth/tokens';

// The away windows under test, short (60 s and 15 min by default): the waits below are these windows plus a margin.
const GRACE_S = 0.5;
const IDLE_MIN = 0.02;          // 1.2 s
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The widget's question: is an agent of this store Available with a tab open (on any node)? */
async function availableOn(t: TestServer, tenant: Tenant): Promise<boolean> {
    const res = await t.server.inject({ method: 'POST', url: '/api/chat/check-availability', headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId: 'probe' } });
    expect(res.statusCode).to.equal(200);
    return (res.result as { available: boolean }).available;
}

async function status(t: TestServer, token: string): Promise<any> {
    const res = await t.server.inject({ method: 'GET', url: '/api/chat/agent/status', headers: bearer(token) });
    expect(res.statusCode).to.equal(200);
    return res.result;
}

/** Polls the agent's status until the server set them Away; answers the status. */
async function awayBy(t: TestServer, token: string, ms: number): Promise<any> {
    const end = Date.now() + ms;
    for (;;) {
        const s = await status(t, token);
        if (!s.available) {
            return s;
        }
        if (Date.now() > end) {
            throw new Error('still Available');
        }
        await sleep(25);
    }
}

/** A second admin of the tenant (a colleague whose console hears the feed), with a token. */
async function colleague(t: TestServer, tenant: Tenant, name: string): Promise<{ id: number; token: string }> {
    const user = await t.server.app.services.users.create({ email: `${name}@${tenant.organization.subdomain}.test`, password: 'correct-horse-battery', role: 'admin', organizationId: tenant.organization.id });
    return { id: user.id, token: signUserToken(t.server.app.config.jwtSecret, { id: user.id, role: 'admin', organizationId: tenant.organization.id, tokenVersion: 0 }) };
}

async function listen(t: TestServer, tenant: Tenant, token: string): Promise<{ client: any; box: Inbox }> {
    const box = inbox();
    const client = await connect(t.url, token);
    await client.subscribe(`/agents/${tenant.organization.id}`, (m: any) => box.messages.push(m));
    return { client, box };
}

describe('agent presence for the whole staff app: one per agent, in the database (issue 23)', function () {
    this.timeout(30000);
    let t: TestServer;
    let idleNode: TestServer;

    before(async () => {
        // Idle so long here that only the grace and logout rules act; the idle rule gets its own server below.
        t = await startTestServer({ listen: true, env: { AGENT_AWAY_GRACE_SECONDS: String(GRACE_S), AGENT_IDLE_MINUTES: '60' } });
        idleNode = await startTestServer({ listen: true, env: { AGENT_AWAY_GRACE_SECONDS: '60', AGENT_IDLE_MINUTES: String(IDLE_MIN) } });
    });
    after(async () => {
        await idleNode?.close();
        await t?.close();
    });

    it('keeps an agent with two tabs Available when one closes, and sets them Away once the last has been closed for the grace period, telling the feed', async () => {
        const tenant = await createTenant(t.server, 'prtabs', 'prtabs.test');
        const other = await colleague(t, tenant, 'colleague');
        const feed = await listen(t, tenant, other.token);
        const tab1 = await connectAgent(t.url, tenant);
        const tab2 = await connectAgent(t.url, tenant);
        await setAvailable(t.server, tenant, true);
        expect(await status(t, tenant.admin.token)).to.include({ available: true, connections: 2, awayReason: null });

        await tab1.client.disconnect();
        await sleep(GRACE_S * 1000 + 600);       // past the (test-short) grace window: the flip that must not happen has no event to wait for
        expect(await availableOn(t, tenant), 'one tab closed, one open: still reachable').to.equal(true);
        expect(await status(t, tenant.admin.token)).to.include({ available: true, connections: 1 });

        const closed = Date.now();
        await tab2.client.disconnect();
        // The client's disconnect resolves before the server has seen the socket close: that takes milliseconds.
        let offered = await availableOn(t, tenant);
        for (const until = Date.now() + 2000; offered && Date.now() < until;) {
            await sleep(20);
            offered = await availableOn(t, tenant);
        }
        expect(offered, 'no tab open: customers are not offered live chat').to.equal(false);
        expect((await status(t, tenant.admin.token)).available, 'still Available during the grace period (a reload keeps it)').to.equal(true);
        const pushed = await feed.box.waitFor((m) => m.type === 'agent_availability' && m.agentId === tenant.admin.id && m.available === false, 5000);
        expect(Date.now() - closed, 'not before the grace period').to.be.at.least(GRACE_S * 1000 - 50);
        expect(pushed).to.include({ reason: 'closed', graceSeconds: GRACE_S });
        expect(await status(t, tenant.admin.token)).to.include({ available: false, connections: 0, awayReason: 'closed', graceSeconds: GRACE_S });
        await feed.client.disconnect();
    });

    it('keeps the agent Available when the last tab is reopened within the grace period (a reload)', async () => {
        const tenant = await createTenant(t.server, 'prreload', 'prreload.test');
        const tab = await connectAgent(t.url, tenant);
        await setAvailable(t.server, tenant, true);
        await tab.client.disconnect();
        await sleep(100);
        const again = await connectAgent(t.url, tenant);
        await sleep(GRACE_S * 1000 + 600);       // past the (test-short) grace window, after which the status must have changed
        expect(await availableOn(t, tenant)).to.equal(true);
        expect(await status(t, tenant.admin.token)).to.include({ available: true, awayReason: null });
        await again.client.disconnect();
    });

    it('sets Away an agent who reloaded fast while the database was slow (tabs gone before the server accepted them), once the last real tab closes', async () => {
        const tenant = await createTenant(t.server, 'prfast', 'prfast.test');
        const tab = await connectAgent(t.url, tenant);
        await setAvailable(t.server, tenant, true);
        // A busy database holds the server's accept (the token's user, the agent's socket row) while the tabs come and go.
        await whileDatabaseBusy(t.server, ['users', 'agent_connections'], async () => {
            await helloThenGone(wsUrl(t.url), tenant.admin.token);
            await sleep(100);
        });
        await sleep(300);
        expect(await status(t, tenant.admin.token), 'the tabs that came and went do not count').to.include({ available: true, connections: 1 });
        await tab.client.disconnect();
        expect(await awayBy(t, tenant.admin.token, GRACE_S * 1000 + 3000)).to.include({ available: false, awayReason: 'closed', connections: 0 });
    });

    it('sets the agent Away at logout (the route the staff app calls before it forgets the token), with a push to the agent\'s other tabs', async () => {
        const tenant = await createTenant(t.server, 'prlogout', 'prlogout.test');
        const tab1 = await connectAgent(t.url, tenant);
        const tab2 = await connectAgent(t.url, tenant);
        await setAvailable(t.server, tenant, true);
        expect(await availableOn(t, tenant)).to.equal(true);
        const res = await request(tab1.client, 'POST', '/api/chat/agent/logout', {});
        expect(res.payload).to.deep.equal({ available: false });
        expect(await availableOn(t, tenant), 'Away at once, tabs still open').to.equal(false);
        const told = await tab2.box.waitFor((m) => m.type === 'agent_availability' && m.agentId === tenant.admin.id && m.available === false);
        expect(told.reason).to.equal('logout');
        expect(await status(t, tenant.admin.token)).to.include({ available: false, awayReason: 'logout' });
        // Over HTTP too; Away already: nothing more is pushed.
        const http = await t.server.inject({ method: 'POST', url: '/api/chat/agent/logout', headers: bearer(tenant.admin.token) });
        expect(http.statusCode).to.equal(200);
        // Available again: pushed after anything the second logout could have pushed, so once it is here, nothing else came.
        const before = tab2.box.messages.length;
        await setAvailable(t.server, tenant, true);
        await tab2.box.waitFor((m) => tab2.box.messages.indexOf(m) >= before && m.type === 'agent_availability' && m.available === true);
        expect(tab2.box.messages.filter((m) => m.type === 'agent_availability' && m.reason === 'logout')).to.have.length(1);
        await tab1.client.disconnect();
        await tab2.client.disconnect();
    });

    it('sets an agent Away after AGENT_IDLE_MINUTES without activity reported from any tab, and tells them on their socket', async () => {
        const tenant = await createTenant(idleNode.server, 'pridle', 'pridle.test');
        const tab = await connectAgent(idleNode.url, tenant);
        await setAvailable(idleNode.server, tenant, true);
        // Activity reported (as the staff app does on mouse or keyboard) keeps the agent Available past the window.
        const started = Date.now();
        /** When the last activity report left: the server's last activity is this or later. */
        let lastReport = started;
        while (Date.now() - started < IDLE_MIN * 60_000 * 2) {
            lastReport = Date.now();
            const res = await idleNode.server.inject({ method: 'POST', url: '/api/chat/agent/activity', headers: bearer(tenant.admin.token), payload: {} });
            expect(res.statusCode).to.equal(200);
            expect(res.result).to.include({ available: true, idleSeconds: IDLE_MIN * 60 });
            await sleep(200);       // the staff app's pace of activity reports, a fraction of the (test-short) idle window
        }
        expect(await availableOn(idleNode, tenant), 'active: still Available').to.equal(true);
        const quiet = lastReport;
        const told = await tab.box.waitFor((m) => m.type === 'agent_availability' && m.agentId === tenant.admin.id && m.available === false, 6000);
        expect(Date.now() - quiet, 'not before the idle window').to.be.at.least(IDLE_MIN * 60_000 - 250);
        expect(told).to.include({ reason: 'idle', idleMinutes: IDLE_MIN });
        expect(await availableOn(idleNode, tenant)).to.equal(false);
        expect(await status(idleNode, tenant.admin.token)).to.include({ available: false, connections: 1, awayReason: 'idle' });
        // Setting Available again clears the reason (the notice goes) and starts a fresh window.
        await setAvailable(idleNode.server, tenant, true);
        expect(await status(idleNode, tenant.admin.token)).to.include({ available: true, awayReason: null, awayAt: null });
        await tab.client.disconnect();
    });

    it('refuses activity and logout reports from anyone but an admin, and validates their bodies', async () => {
        const tenant = await createTenant(t.server, 'prvalid', 'prvalid.test');
        for (const url of ['/api/chat/agent/activity', '/api/chat/agent/logout']) {
            expect((await t.server.inject({ method: 'POST', url })).statusCode, url).to.equal(401);
            expect((await t.server.inject({ method: 'POST', url, headers: bearer(tenant.orgUser.token) })).statusCode, url).to.be.oneOf([401, 403]);
            const bad = await t.server.inject({ method: 'POST', url, headers: bearer(tenant.admin.token), payload: { available: true } });
            expect(bad.statusCode, url).to.equal(400);
        }
    });

    it('shares presence between two nodes on one database: Available on node B is seen by node A, and node A sets the agent Away after their last tab on node B closed', async () => {
        const nodeB = await startTestServer({ listen: true, shareWith: t, env: { AGENT_AWAY_GRACE_SECONDS: String(GRACE_S), AGENT_IDLE_MINUTES: '60' } });
        try {
            const tenant = await createTenant(t.server, 'prnodes', 'prnodes.test');
            const onA = await connectAgent(t.url, tenant);
            const onB = await connectAgent(nodeB.url, tenant);
            await setAvailable(nodeB.server, tenant, true);
            expect(await availableOn(t, tenant), 'node A sees the agent Available on node B').to.equal(true);
            expect(await status(t, tenant.admin.token)).to.include({ available: true, connections: 2 });
            // The tab on node A closes: the one on node B keeps the agent reachable for node A's widgets.
            await onA.client.disconnect();
            await sleep(GRACE_S * 1000 + 600);       // past the (test-short) grace window, after which the status must have changed
            expect(await availableOn(t, tenant)).to.equal(true);
            // Node B stops its sweeps and timers; node A's sweep alone sets the agent Away after the grace period.
            await onB.client.disconnect();
            await sleep(50);
            await nodeB.close();
            const away = await awayBy(t, tenant.admin.token, 5000);
            expect(away.awayReason).to.equal('closed');
        }
        finally {
            await nodeB.close().catch(() => undefined);
        }
    });

    it('expires the sockets of a node that died without closing them (their rows age out), then applies the grace period', async () => {
        const tenant = await createTenant(t.server, 'prcrash', 'prcrash.test');
        const presence = t.server.app.services.presence;
        // A socket row of a node that is gone: last refreshed long ago, never deleted.
        await presence.connected('dead-node:1', 'dead-node', tenant.admin.id, tenant.organization.id);
        await setAvailable(t.server, tenant, true);
        expect(await availableOn(t, tenant)).to.equal(true);
        await t.server.app.db('agent_connections').where('id', 'dead-node:1').update({ last_seen_at: Date.now() - 80_000 });
        expect(await availableOn(t, tenant), 'an expired socket reaches nobody').to.equal(false);
        await presence.sweep();
        expect(await t.server.app.db('agent_connections').where('id', 'dead-node:1').first()).to.equal(undefined);
        expect(await awayBy(t, tenant.admin.token, 5000)).to.include({ available: false, awayReason: 'closed', connections: 0 });
    });
});

describe('the agent\'s display name (issue 23): set in the profile, what customers read', function () {
    this.timeout(30000);
    let t: TestServer;
    let tenant: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        tenant = await createTenant(t.server, 'dispname', 'dispname.test');
        await t.server.app.db('users').where('id', tenant.admin.id).update({ name: 'Samantha Lee' });
    });
    after(async () => {
        await t?.close();
    });

    const profile = (payload?: object) => t.server.inject({ method: payload ? 'PUT' : 'GET', url: '/api/admin/profile', headers: bearer(tenant.admin.token), payload });

    it('answers the first name until a display name is set; validates it with a coded error', async () => {
        expect((await profile()).result).to.include({ email: tenant.admin.email, displayName: null, shownName: 'Samantha' });
        for (const bad of ['<b>Sam</b>', 'x'.repeat(41)]) {
            const res = await profile({ displayName: bad });
            expect(res.statusCode, bad).to.equal(400);
            expect(res.result, bad).to.include({ code: 'auth.display_name_invalid' });
        }
        expect((await profile({})).statusCode, 'displayName is required (empty clears it)').to.equal(400);
        const orgUser = await t.server.inject({ method: 'PUT', url: '/api/admin/profile', headers: bearer(tenant.orgUser.token), payload: { displayName: 'Owner' } });
        expect(orgUser.statusCode).to.be.oneOf([401, 403]);
    });

    it('gives customers the display name when the agent joins and on the agent\'s messages, and the first name again once cleared', async () => {
        const set = await profile({ displayName: '  Sammy  ' });
        expect(set.statusCode).to.equal(200);
        expect(set.result).to.include({ displayName: 'Sammy', shownName: 'Sammy' });

        const agent = await connectAgent(t.url, tenant);
        await setAvailable(t.server, tenant, true);
        const created = await createSession(t.server, tenant, 'dn_1', 'Hello?');
        const customer = await connectCustomer(t.url, created.token, 'dn_1', undefined, false);
        await request(agent.client, 'POST', '/api/chat/session/dn_1/accept');
        const joined = await customer.box.waitFor((m) => m.type === 'agent_connected');
        expect(joined.agentName).to.equal('Sammy');
        await request(agent.client, 'POST', '/api/chat/session/dn_1/messages', { message: 'Hi, Sammy here', clientMessageId: 'd1' });
        expect((await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Hi, Sammy here')).agentName).to.equal('Sammy');

        expect((await profile({ displayName: '' })).result).to.include({ displayName: null, shownName: 'Samantha' });
        await request(agent.client, 'POST', '/api/chat/session/dn_1/messages', { message: 'Still me', clientMessageId: 'd2' });
        expect((await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Still me')).agentName, 'the node forgot the old name at once').to.equal('Samantha');
        await customer.client.disconnect();
        await agent.client.disconnect();
    });

    it('names no one on the join when the agent has neither a display name nor a name (an email is not a name)', async () => {
        const nameless = await createTenant(t.server, 'dnnone', 'dnnone.test');
        const agent = await connectAgent(t.url, nameless);
        await setAvailable(t.server, nameless, true);
        const created = await createSession(t.server, nameless, 'dn_2', 'Hi');
        const customer = await connectCustomer(t.url, created.token, 'dn_2', undefined, false);
        await request(agent.client, 'POST', '/api/chat/session/dn_2/accept');
        const joined = await customer.box.waitFor((m) => m.type === 'agent_connected');
        expect(joined).to.not.have.property('agentName');
        await customer.client.disconnect();
        await agent.client.disconnect();
    });
});
