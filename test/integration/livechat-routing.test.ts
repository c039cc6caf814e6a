import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer, usingPostgres, usingRedis } from '../helpers/server';
import { connect, connectCustomer, createSession, inbox, Inbox, NesClient, request } from '../helpers/livechat-client';
import { signUserToken } from '../../core/auth/tokens';
import { sleep, until } from '../helpers/wait';

/** CHAT_OFFER_SECONDS in these tests (the sweep runs every quarter of it). */
const OFFER_SECONDS = 0.8;

interface Agent { id: number; token: string; client: NesClient; box: Inbox; frames: string[] }

/** Another admin (agent) of the tenant's store, with a display name, connected and subscribed to the agent feed. */
async function addAgent(t: TestServer, tenant: Tenant, name: string): Promise<Agent> {
    const user = await t.server.app.services.users.create({
        email: `${name.toLowerCase()}@${tenant.organization.subdomain}.test`, password: 'correct-horse-battery', role: 'admin',
        organizationId: tenant.organization.id, name: `${name} Example`
    });
    const token = signUserToken(t.server.app.config.jwtSecret, { id: user.id, role: 'admin', organizationId: tenant.organization.id, tokenVersion: 0 });
    return connectAs(t, tenant, user.id, token);
}

async function connectAs(t: TestServer, tenant: Tenant, id: number, token: string): Promise<Agent> {
    const client = await connect(t.url, token, { reconnect: false });
    const box = inbox();
    await client.subscribe(`/agents/${tenant.organization.id}`, (m: any) => box.messages.push(m));
    return { id, token, client, box, frames: [] };
}

async function inject(t: TestServer, method: string, url: string, token: string, payload?: unknown) {
    return t.server.inject({ method, url, headers: bearer(token), payload: payload as object });
}

async function available(t: TestServer, agent: Agent, on = true): Promise<void> {
    const res = await inject(t, 'POST', '/api/chat/agent/availability', agent.token, { available: on });
    expect(res.statusCode, res.payload).to.equal(200);
}

/** Every text frame a nes client receives, at the socket (before nes hands it to any handler). */
function recordFrames(client: NesClient): string[] {
    const frames: string[] = [];
    const ws = client._ws;
    const original = ws.onmessage;
    ws.onmessage = (event: { data: unknown }) => {
        frames.push(String(event.data));
        original.call(ws, event);
    };
    return frames;
}

describe('live chat routing, hand-over and internal notes (issue 26)', function () {
    this.timeout(40000);
    let t: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    let sam: Agent;
    let alex: Agent;
    let n = 0;
    const sid = (what: string) => `widget_${Date.now()}_${what}${(n += 1)}`;

    before(async () => {
        t = await startTestServer({ listen: true, env: { CHAT_OFFER_SECONDS: String(OFFER_SECONDS) } });
        tenant = await createTenant(t.server, 'routing', 'routing.test');
        other = await createTenant(t.server, 'routingb', 'routing-b.test');
        sam = await addAgent(t, tenant, 'Sam');
        alex = await addAgent(t, tenant, 'Alex');
    });
    after(async () => {
        for (const a of [sam, alex]) {
            await a?.client.disconnect();
        }
        await t?.close();
    });

    async function settle(): Promise<void> {
        // Every open chat ends, everyone Away, capacities back to 1, auto-assign on: each test starts from here.
        const open = await t.server.inject({ method: 'GET', url: '/api/chat/sessions?status=active', headers: bearer(tenant.admin.token) });
        for (const s of open.result as Array<{ sessionId: string }>) {
            await inject(t, 'POST', `/api/chat/session/${s.sessionId}/end`, tenant.admin.token);
        }
        const waiting = await inject(t, 'GET', '/api/chat/waiting', tenant.admin.token);
        for (const s of waiting.result as Array<{ sessionId: string }>) {
            await inject(t, 'POST', `/api/chat/session/${s.sessionId}/end`, tenant.admin.token);
        }
        for (const a of [sam, alex]) {
            await available(t, a, false);
            a.box.messages.length = 0;
            expect((await inject(t, 'PUT', `/api/chat/team/${a.id}`, tenant.admin.token, { capacity: 1 })).statusCode).to.equal(200);
        }
        expect((await inject(t, 'PUT', '/api/chat/routing-settings', tenant.admin.token, { autoAssign: true })).statusCode).to.equal(200);
    }

    it('keeps auto-assign off until the store turns it on, and says how long an offer lasts', async () => {
        const res = await inject(t, 'GET', '/api/chat/routing-settings', other.admin.token);
        expect(res.statusCode).to.equal(200);
        expect(res.result).to.deep.equal({ autoAssign: false, offerSeconds: OFFER_SECONDS });
        const bad = await inject(t, 'PUT', '/api/chat/routing-settings', other.admin.token, { autoAssign: 'sometimes' });
        expect(bad.statusCode).to.equal(400);
        expect(bad.result).to.have.property('message').that.matches(/autoAssign/);
    });

    it('lists the store\'s staff on the team page and lets an admin set an agent\'s capacity, within bounds', async () => {
        const team = await inject(t, 'GET', '/api/chat/team', tenant.admin.token);
        expect(team.statusCode).to.equal(200);
        const rows = team.result as Array<{ id: number; agentName: string; role: string; capacity: number; presence: string; openChats: number; isAgent: boolean }>;
        expect(rows.map((r) => r.agentName)).to.include.members(['Sam', 'Alex']);
        const owner = rows.find((r) => r.id === tenant.orgUser.id)!;
        expect(owner).to.include({ role: 'org_user', isAgent: false });
        expect(rows.find((r) => r.id === sam.id)).to.include({ role: 'admin', capacity: 3, openChats: 0, presence: 'away' });

        for (const capacity of [0, 51, 'two', 1.5]) {
            const res = await inject(t, 'PUT', `/api/chat/team/${sam.id}`, tenant.admin.token, { capacity });
            expect(res.statusCode, String(capacity)).to.equal(400);
        }
        const set = await inject(t, 'PUT', `/api/chat/team/${sam.id}`, tenant.admin.token, { capacity: 2 });
        expect(set.statusCode).to.equal(200);
        expect(set.result).to.include({ id: sam.id, capacity: 2 });
        // An organization user answers no chats; another store's agent is not found.
        expect((await inject(t, 'PUT', `/api/chat/team/${tenant.orgUser.id}`, tenant.admin.token, { capacity: 2 })).statusCode).to.equal(404);
        expect((await inject(t, 'PUT', `/api/chat/team/${other.admin.id}`, tenant.admin.token, { capacity: 2 })).statusCode).to.equal(404);
        expect((await inject(t, 'GET', `/api/chat/team`, tenant.orgUser.token)).statusCode, 'an organization user is no admin').to.equal(401);
    });

    it('gives two agents of capacity 1 one chat each, nobody clicking Accept in the queue, and the third waits for a free place', async () => {
        await settle();
        await available(t, sam);
        await available(t, alex);

        const first = await createSession(t.server, tenant, sid('cap'), 'First customer');
        const offer1 = await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === first.sessionId);
        const second = await createSession(t.server, tenant, sid('cap'), 'Second customer');
        const offer2 = await alex.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === second.sessionId);
        const owners = [offer1.agentId, offer2.agentId].sort();
        expect(owners, 'one chat each').to.deep.equal([sam.id, alex.id].sort());
        const newCustomer = await sam.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === first.sessionId);
        expect(newCustomer.offeredTo, 'the queue says who has it (only they are rung)').to.equal(offer1.agentId);

        const waiting = await inject(t, 'GET', '/api/chat/waiting', sam.token);
        const listed = (waiting.result as Array<{ sessionId: string; offer: { agentId: number; agentName: string; expiresAt: string } | null }>);
        expect(listed.find((s) => s.sessionId === first.sessionId)!.offer).to.include({ agentId: offer1.agentId });

        // Each accepts the chat offered to them (the alert's Accept, over their socket).
        const byId = (id: number) => (id === sam.id ? sam : alex);
        await request(byId(offer1.agentId).client, 'POST', `/api/chat/session/${first.sessionId}/accept`);
        await request(byId(offer2.agentId).client, 'POST', `/api/chat/session/${second.sessionId}/accept`);

        // Both at capacity: a third chat is offered to nobody and stays in the queue.
        const third = await createSession(t.server, tenant, sid('cap'), 'Third customer');
        await sleep(OFFER_SECONDS * 1000 / 2);       // half the (test-short) offer window: an offer that must not come has no event to wait for
        expect(sam.box.messages.some((m) => m.type === 'chat_offered' && m.sessionId === third.sessionId)).to.equal(false);
        expect(alex.box.messages.some((m) => m.type === 'chat_offered' && m.sessionId === third.sessionId)).to.equal(false);
        const team = (await inject(t, 'GET', '/api/chat/team', sam.token)).result as Array<{ id: number; openChats: number; presence: string }>;
        expect(team.find((m) => m.id === sam.id)).to.include({ openChats: 1, presence: 'available' });

        // Sam's chat ends: his place goes to the third customer.
        const samsChat = offer1.agentId === sam.id ? first.sessionId : second.sessionId;
        await request(sam.client, 'POST', `/api/chat/session/${samsChat}/end`);
        const offer3 = await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === third.sessionId);
        expect(offer3.agentId).to.equal(sam.id);

        const events = await t.server.app.services.livechatRouting.events(tenant.organization.id, { from: 0, to: Date.now() + 1000 });
        const assigned = events.filter((e) => e.type === 'assigned' && [first.sessionId, second.sessionId].includes(e.sessionId));
        expect(assigned.map((e) => e.how)).to.deep.equal(['offer', 'offer']);
    });

    it('moves a chat nobody accepts to the next agent after the deadline, then back to the queue with an alert to all, where Accept still works', async () => {
        await settle();
        for (const a of [sam, alex]) {
            await inject(t, 'PUT', `/api/chat/team/${a.id}`, tenant.admin.token, { capacity: 3 });
        }
        await available(t, sam);
        await available(t, alex);
        const chat = await createSession(t.server, tenant, sid('lapse'), 'Anyone there?');
        const firstOffer = await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId);
        const firstAgent = firstOffer.agentId;
        const nextAgent = firstAgent === sam.id ? alex.id : sam.id;
        const started = Date.now();
        await sam.box.waitFor((m) => m.type === 'chat_offer_lapsed' && m.sessionId === chat.sessionId && m.agentId === firstAgent, 5000);
        expect(Date.now() - started, 'not before the deadline').to.be.greaterThan(OFFER_SECONDS * 1000 * 0.7);
        const secondOffer = await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId && m.agentId === nextAgent, 5000);
        expect(secondOffer.agentId).to.equal(nextAgent);
        const back = await alex.box.waitFor((m) => m.type === 'chat_returned' && m.sessionId === chat.sessionId, 5000);
        expect(back).to.include({ sessionId: chat.sessionId });
        await sam.box.waitFor((m) => m.type === 'chat_returned' && m.sessionId === chat.sessionId, 2000);      // every agent is told
        // Never offered to the same agent twice.
        expect(sam.box.messages.filter((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId)).to.have.length(2);

        const waiting = (await inject(t, 'GET', '/api/chat/waiting', alex.token)).result as Array<{ sessionId: string; offer: unknown }>;
        expect(waiting.find((s) => s.sessionId === chat.sessionId)).to.include({ offer: null });
        const accepted = await request(alex.client, 'POST', `/api/chat/session/${chat.sessionId}/accept`);
        expect(accepted.payload).to.include({ status: 'agent_connected', agentId: alex.id });

        const events = (await t.server.app.services.livechatRouting.events(tenant.organization.id, { from: started - 1000, to: Date.now() + 1000 }))
            .filter((e) => e.sessionId === chat.sessionId);
        expect(events.map((e) => `${e.type}:${e.how ?? ''}`)).to.deep.equal(['offer_lapsed:', 'offer_lapsed:', 'returned_to_queue:', 'assigned:manual']);
    });

    it('offers a chat once when several routings race for it (two nodes, or an agent back while a chat arrives)', async () => {
        await settle();
        for (const a of [sam, alex]) {
            await inject(t, 'PUT', `/api/chat/team/${a.id}`, tenant.admin.token, { capacity: 3 });
        }
        await inject(t, 'PUT', '/api/chat/routing-settings', tenant.admin.token, { autoAssign: false });
        const chat = await createSession(t.server, tenant, sid('race'), 'Hello?');
        await available(t, sam);
        await available(t, alex);
        await inject(t, 'PUT', '/api/chat/routing-settings', tenant.admin.token, { autoAssign: true });      // routes once already
        const routing = t.server.app.services.livechatRouting;
        await Promise.all([routing.routeWaiting(tenant.organization.id), routing.routeWaiting(tenant.organization.id), routing.sweep()]);
        const waiting = (await inject(t, 'GET', '/api/chat/waiting', sam.token)).result as Array<{ sessionId: string; offer: { agentId: number } | null }>;
        expect(waiting.find((s) => s.sessionId === chat.sessionId)!.offer).to.be.an('object');
        await sleep(100);
        const offers = [...sam.box.messages, ...alex.box.messages].filter((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId);
        expect(new Set(offers.map((m) => m.agentId)).size, 'one agent').to.equal(1);
        expect(offers.length, 'pushed once (each agent feed hears it)').to.equal(2);
    });

    it('lets an agent take a chat offered to a colleague with Accept in the queue, and the offer is withdrawn', async () => {
        await settle();
        await available(t, sam);
        const chat = await createSession(t.server, tenant, sid('manual'), 'Hello');
        await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId && m.agentId === sam.id);
        const res = await request(alex.client, 'POST', `/api/chat/session/${chat.sessionId}/accept`);
        expect(res.payload).to.include({ agentId: alex.id });
        await sleep(OFFER_SECONDS * 1000 * 1.5);       // past the (test-short) offer deadline: a lapse that must not come has no event to wait for
        expect(sam.box.messages.some((m) => m.type === 'chat_offer_lapsed' && m.sessionId === chat.sessionId), 'a withdrawn offer never lapses').to.equal(false);
    });

    it('moves a chat on at once when the agent it is offered to switches to Unavailable or signs out', async () => {
        await settle();
        await inject(t, 'PUT', '/api/chat/routing-settings', tenant.admin.token, { autoAssign: true });
        await available(t, sam);
        const chat = await createSession(t.server, tenant, sid('away'), 'Still there?');
        await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId && m.agentId === sam.id);
        await available(t, alex);       // came in after the offer: the chat stays Sam's for now
        const left = Date.now();
        await available(t, sam, false);
        const next = await alex.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId && m.agentId === alex.id, 2000);
        expect(next.agentId).to.equal(alex.id);
        expect(Date.now() - left, 'without waiting for the deadline').to.be.lessThan(OFFER_SECONDS * 1000);
        // Alex signs out: nobody is left, the chat is back in the queue for everyone.
        expect((await inject(t, 'POST', '/api/chat/agent/logout', alex.token, {})).statusCode).to.equal(200);
        await sam.box.waitFor((m) => m.type === 'chat_returned' && m.sessionId === chat.sessionId, 2000);
    });

    it('hands a chat over to another available agent with a note: the customer is told the new name, the receiver gets the note', async () => {
        await settle();
        await available(t, sam);
        await available(t, alex);
        await inject(t, 'PUT', '/api/chat/routing-settings', tenant.admin.token, { autoAssign: false });
        const chat = await createSession(t.server, tenant, sid('transfer'), 'Where is my order?');
        const customer = await connectCustomer(t.url, chat.token, chat.sessionId);
        await request(alex.client, 'POST', `/api/chat/session/${chat.sessionId}/accept`);
        await request(alex.client, 'POST', `/api/chat/session/${chat.sessionId}/messages`, { message: 'Let me look', clientMessageId: 'a1' });

        // Bad input, another store's agent, someone Away, the same agent: refused, nothing changed.
        const path = `/api/chat/session/${chat.sessionId}/transfer`;
        expect((await inject(t, 'POST', path, alex.token, { toAgentId: 'sam' })).statusCode).to.equal(400);
        expect((await inject(t, 'POST', path, alex.token, { note: 'no one' })).statusCode).to.equal(400);
        const toB = await inject(t, 'POST', path, alex.token, { toAgentId: other.admin.id, note: 'over to B' });
        expect(toB.statusCode, 'an agent of another store is not found').to.equal(404);
        const away = await inject(t, 'POST', path, alex.token, { toAgentId: tenant.admin.id, note: 'you there?' });
        expect(away.statusCode).to.equal(409);
        expect(away.result).to.include({ code: 'livechat.agent_unavailable' });
        expect((await inject(t, 'POST', path, alex.token, { toAgentId: alex.id })).result).to.include({ code: 'livechat.transfer_same_agent' });

        const moved = await inject(t, 'POST', path, alex.token, { toAgentId: sam.id, note: 'Order 1042, refund approved' });
        expect(moved.statusCode, moved.payload).to.equal(200);
        const told = await customer.box.waitFor((m) => m.type === 'agent_changed');
        expect(told.agentName).to.equal('Sam');
        const handed = await sam.box.waitFor((m) => m.type === 'chat_transferred' && m.sessionId === chat.sessionId);
        expect(handed).to.include({ toAgentId: sam.id, fromAgentId: alex.id, fromName: 'Alex', toName: 'Sam' });
        expect(handed.note.text).to.equal('Order 1042, refund approved');

        const session = await inject(t, 'GET', `/api/chat/session/${chat.sessionId}`, sam.token);
        expect(session.result).to.include({ agentId: sam.id });
        const notes = await inject(t, 'GET', `/api/chat/session/${chat.sessionId}/notes`, sam.token);
        expect((notes.result as Array<{ kind: string; text: string; authorName: string; toAgentName: string }>)[0])
            .to.include({ kind: 'transfer', text: 'Order 1042, refund approved', authorName: 'Alex', toAgentName: 'Sam' });
        // The new agent answers; the customer's page never read the note.
        await request(sam.client, 'POST', `/api/chat/session/${chat.sessionId}/messages`, { message: 'Hi, Sam here', clientMessageId: 's1' });
        await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Hi, Sam here');
        expect(JSON.stringify(customer.box.messages)).not.to.contain('Order 1042');
        await customer.client.disconnect();

        const events = (await t.server.app.services.livechatRouting.events(tenant.organization.id, { from: 0, to: Date.now() + 1000 }))
            .filter((e) => e.sessionId === chat.sessionId);
        expect(events.map((e) => `${e.type}:${e.agentId === sam.id ? 'sam' : e.agentId === alex.id ? 'alex' : e.agentId}`))
            .to.deep.equal(['assigned:alex', 'first_response:alex', 'transferred:sam', 'assigned:sam']);
        expect(events.find((e) => e.type === 'first_response')!.valueMs).to.be.a('number').and.to.be.at.least(0);
    });

    it('keeps internal notes among staff: no note frame ever reaches the customer\'s socket, nor their messages or the transcript', async () => {
        await settle();
        await inject(t, 'PUT', '/api/chat/routing-settings', tenant.admin.token, { autoAssign: false });
        await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(tenant.admin.token), payload: { emailNotificationsEnabled: true, emailRecipient: 'store@routing.test' } });
        const chat = await createSession(t.server, tenant, sid('note'), 'Can I return shoes?');
        const customer = await connectCustomer(t.url, chat.token, chat.sessionId);
        const frames = recordFrames(customer.client);
        await request(sam.client, 'POST', `/api/chat/session/${chat.sessionId}/accept`);

        const noteText = 'SECRET-NOTE customer was rude last time';
        const bad = await inject(t, 'POST', `/api/chat/session/${chat.sessionId}/notes`, sam.token, { text: '   ' });
        expect(bad.statusCode).to.equal(400);
        const added = await request(sam.client, 'POST', `/api/chat/session/${chat.sessionId}/notes`, { text: noteText, clientNoteId: 'n1' });
        expect(added.statusCode).to.equal(201);
        const again = await request(sam.client, 'POST', `/api/chat/session/${chat.sessionId}/notes`, { text: noteText, clientNoteId: 'n1' });
        expect(again.statusCode, 'a retried note is stored once').to.equal(200);
        await alex.box.waitFor((m) => m.type === 'chat_note' && m.text === noteText);
        // A message after the note: once the customer has it, any note frame would have come before.
        await request(sam.client, 'POST', `/api/chat/session/${chat.sessionId}/messages`, { message: 'Yes, within 30 days', clientMessageId: 'm1' });
        await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Yes, within 30 days');
        expect(frames.length, 'the customer socket did receive frames').to.be.greaterThan(1);
        expect(frames.join('\n')).not.to.contain('SECRET-NOTE');
        expect(frames.join('\n')).not.to.contain('chat_note');

        // The customer's own reads: messages yes, notes never (the route is staff only).
        const messages = await request(customer.client, 'GET', `/api/chat/session/${chat.sessionId}/messages`);
        expect(JSON.stringify(messages.payload)).not.to.contain('SECRET-NOTE');
        const notes = await customer.client.request({ method: 'GET', path: `/api/chat/session/${chat.sessionId}/notes` }).catch((err: { statusCode: number }) => err);
        expect(notes.statusCode).to.equal(403);
        let subscribed = true;
        await customer.client.subscribe(`/agents/${tenant.organization.id}`, () => undefined).catch(() => {
            subscribed = false;
        });
        expect(subscribed, 'a customer cannot listen to the agent feed').to.equal(false);

        const staffNotes = await inject(t, 'GET', `/api/chat/session/${chat.sessionId}/notes`, alex.token);
        expect((staffNotes.result as Array<{ text: string }>).map((x) => x.text)).to.deep.equal([noteText]);
        await request(sam.client, 'POST', `/api/chat/session/${chat.sessionId}/end`);
        await customer.client.disconnect();
        await until(() => true);
        // The transcript mail (the store's) holds the messages, not the note.
        await t.server.app.services.livechat.sendTranscript(tenant.organization.id, chat.sessionId);
        const { EmailOutboxModel } = await import('../../plugins/livechat/models');
        const mails = await EmailOutboxModel.query(t.server.app.db).where('subject', 'like', `%${chat.sessionId.slice(-8)}%`);
        expect(mails.length).to.be.greaterThan(0);
        for (const mail of mails) {
            expect(mail.bodyText).to.contain('Yes, within 30 days');
            expect(mail.bodyText).not.to.contain('SECRET-NOTE');
        }
    });
});

describe('an offer outlives the node that made it (issue 26)', function () {
    this.timeout(40000);
    let first: TestServer;
    let second: TestServer | null = null;
    let tenant: Tenant;
    const agents: Agent[] = [];

    before(async () => {
        first = await startTestServer({ listen: true, env: { CHAT_OFFER_SECONDS: String(OFFER_SECONDS) } });
        tenant = await createTenant(first.server, 'restart', 'restart.test');
    });
    after(async () => {
        for (const a of agents) {
            await a.client.disconnect();
        }
        await second?.server.stop({ timeout: 1000 });
        await first?.close();
    });

    it('moves a chat to the next agent when its offer lapsed while the node that made it was down', async () => {
        const sam = await addAgent(first, tenant, 'Sam');
        agents.push(sam);
        const alex = await addAgent(first, tenant, 'Alex');
        agents.push(alex);
        await first.server.inject({ method: 'PUT', url: '/api/chat/routing-settings', headers: bearer(tenant.admin.token), payload: { autoAssign: true } });
        await available(first, sam);
        const chat = await createSession(first.server, tenant, `widget_${Date.now()}_restart`, 'Hello?');
        await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === chat.sessionId && m.agentId === sam.id);
        await available(first, alex);       // busy elsewhere when the chat came: the offer stays Sam's

        // The node stops (its timers and in-process jobs with it) before the deadline; nothing sweeps for a while.
        await alex.client.disconnect();
        agents.splice(agents.indexOf(alex), 1);
        await first.server.stop({ timeout: 1000 });
        await sleep(OFFER_SECONDS * 1000 + 300);       // past the (test-short) offer deadline while the node is down: nobody may sweep it
        const rows = await first.server.app.services.livechatRouting.events(tenant.organization.id, { from: 0, to: Date.now() + 1000 }).catch(() => []);
        expect(rows.filter((e) => e.type === 'offer_lapsed'), 'nobody swept while the node was down').to.have.length(0);

        // It comes back (a new process on the same database): Alex, connected to it, gets the chat.
        second = await startTestServer({ listen: true, shareWith: first, env: { CHAT_OFFER_SECONDS: String(OFFER_SECONDS) } });
        const alexAgain = await connectAs(second, tenant, alex.id, alex.token);
        agents.push(alexAgain);
        // (Offered as Alex's socket connected, maybe before it subscribed: the waiting list says it as well.)
        let offer: { agentId: number } | null = null;
        for (const end = Date.now() + 5000; offer?.agentId !== alex.id && Date.now() < end; await sleep(20)) {
            const waiting = await second.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(alex.token) });
            offer = (waiting.result as Array<{ sessionId: string; offer: { agentId: number } | null }>).find((s) => s.sessionId === chat.sessionId)?.offer ?? null;
        }
        expect(offer, 'the chat is offered to Alex').to.include({ agentId: alex.id });
        const events = await second.server.app.services.livechatRouting.events(tenant.organization.id, { from: 0, to: Date.now() + 1000 });
        expect(events.filter((e) => e.type === 'offer_lapsed').map((e) => e.agentId)).to.deep.equal([sam.id]);
    });
});

describe('routing across two nodes sharing PostgreSQL and Redis (issue 26)', function () {
    this.timeout(40000);
    let nodeA: TestServer;
    let nodeB: TestServer;
    let tenant: Tenant;
    const agents: Agent[] = [];

    before(async function () {
        if (!(usingPostgres && usingRedis)) {
            this.skip();
        }
        nodeA = await startTestServer({ listen: true, env: { CHAT_OFFER_SECONDS: String(OFFER_SECONDS) } });
        nodeB = await startTestServer({ listen: true, shareWith: nodeA, env: { CHAT_OFFER_SECONDS: String(OFFER_SECONDS) } });
        tenant = await createTenant(nodeA.server, 'routingnodes', 'routing-nodes.test');
    });
    after(async () => {
        for (const a of agents) {
            await a.client.disconnect();
        }
        await nodeB?.close();
        await nodeA?.close();
    });

    it('offers chats to agents on both nodes, one each at capacity 1, and hands a lapsed offer from one node\'s agent to the other\'s', async () => {
        const sam = await addAgent(nodeA, tenant, 'Sam');
        const alexUser = await addAgent(nodeA, tenant, 'Alex');
        await alexUser.client.disconnect();
        const alex = await connectAs(nodeB, tenant, alexUser.id, alexUser.token);
        agents.push(sam, alex);
        for (const a of [sam, alex]) {
            await nodeA.server.inject({ method: 'PUT', url: `/api/chat/team/${a.id}`, headers: bearer(tenant.admin.token), payload: { capacity: 1 } });
        }
        await nodeA.server.inject({ method: 'PUT', url: '/api/chat/routing-settings', headers: bearer(tenant.admin.token), payload: { autoAssign: true } });
        await available(nodeA, sam);
        await available(nodeB, alex);

        // Two customers at once, one on each node: one chat each.
        const [c1, c2] = await Promise.all([
            createSession(nodeA.server, tenant, `widget_${Date.now()}_na`, 'On A'),
            createSession(nodeB.server, tenant, `widget_${Date.now()}_nb`, 'On B')
        ]);
        const o1 = await sam.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === c1.sessionId);
        const o2 = await alex.box.waitFor((m) => m.type === 'chat_offered' && m.sessionId === c2.sessionId);
        expect([o1.agentId, o2.agentId].sort()).to.deep.equal([sam.id, alex.id].sort());

        // Whoever has c1 lets it lapse: the other is full, so it returns to the queue, told on both nodes.
        const back = await sam.box.waitFor((m) => m.type === 'chat_returned' && m.sessionId === c1.sessionId, 5000);
        expect(back).to.include({ sessionId: c1.sessionId });
        await alex.box.waitFor((m) => m.type === 'chat_returned' && m.sessionId === c1.sessionId, 5000);
        const returned = (await nodeB.server.app.services.livechatRouting.events(tenant.organization.id, { from: 0, to: Date.now() + 1000 }))
            .filter((e) => e.type === 'returned_to_queue' && e.sessionId === c1.sessionId);
        expect(returned, 'one node handled the deadline').to.have.length(1);
    });
});
