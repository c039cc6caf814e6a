import { expect } from 'chai';
import { sleep } from '../helpers/wait';
import { startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';
import { startFakeSmtp } from '../helpers/fake-smtp';
import { connect, connectAgent, connectCustomer, createSession, inbox, request, setAvailable, disconnectAll } from '../helpers/livechat-client';
import { SOCKET_SEND_POINTS } from '../../plugins/livechat/routes';

describe('live chat over nes and HTTP', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    const clients: any[] = [];
    const track = <T extends { client: any }>(x: T): T => {
        clients.push(x.client);
        return x;
    };

    before(async () => {
        // A 3 s send window instead of 10 s: the limit test waits one window out.
        t = await startTestServer({ listen: true, env: { CHAT_SEND_WINDOW_SECONDS: '3' } });
        a = await createTenant(t.server, 'alpha', 'alpha.test');
        b = await createTenant(t.server, 'beta', 'beta.test');
    });
    afterEach(() => disconnectAll(clients));
    after(async () => {
        await t?.close();
    });

    const availability = (tenant: Tenant) => t.server.inject({ method: 'POST', url: '/api/chat/check-availability', headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId: 's1' } });
    /** Nobody available is an answer, not an error: 200 {available:false} (issue 11). */
    const available = async (tenant: Tenant) => {
        const res = await availability(tenant);
        expect(res.statusCode, res.payload).to.equal(200);
        return (res.result as { available: boolean }).available;
    };

    it('reports agents available only while an agent of that store is connected and marked Available', async () => {
        expect(await available(a)).to.equal(false);
        await setAvailable(t.server, a, true);
        expect(await available(a), 'available but not connected').to.equal(false);
        const agent = track(await connectAgent(t.url, a));
        const res = await availability(a);
        expect(res.statusCode).to.equal(200);
        expect(res.result).to.deep.equal({ available: true, reason: 'open' });
        expect(await available(b), 'another store').to.equal(false);
        await setAvailable(t.server, a, false);
        expect(await available(a)).to.equal(false);
        await setAvailable(t.server, a, true);
        await agent.client.disconnect();
        await sleep(100);
        expect(await available(a), 'after the agent left').to.equal(false);
    });

    it('carries a conversation both ways, stored with sequence numbers, and ends it for the customer', async () => {
        const agent = track(await connectAgent(t.url, a));
        const created = await createSession(t.server, a, 'sess_conv_1', 'Can I talk to a human?');
        expect(created.sessionId).to.equal('sess_conv_1');
        expect(created.token).to.be.a('string');
        const newCustomer = await agent.box.waitFor((m) => m.type === 'new_customer');
        expect(newCustomer).to.include({ sessionId: 'sess_conv_1', phoneNumber: '+15555550100', message: 'Can I talk to a human?' });

        const waiting = await t.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(a.admin.token) });
        expect((waiting.result as any[]).map((s) => s.sessionId)).to.include('sess_conv_1');

        const customer = track(await connectCustomer(t.url, created.token, 'sess_conv_1'));
        const hello = await customer.client.message({ type: 'customer_connect', sessionId: 'sess_conv_1' });
        expect(hello.payload.type).to.equal('connected');

        const accepted = await request(agent.client, 'POST', '/api/chat/session/sess_conv_1/accept', { agentId: 1 });
        expect(accepted.payload.status).to.equal('agent_connected');
        expect(accepted.payload.agentId, 'the logged-in agent, not a fixed id').to.equal(a.admin.id);
        await customer.box.waitFor((m) => m.type === 'agent_connected');

        const sent = await request(customer.client, 'POST', '/api/chat/session/sess_conv_1/messages', { message: 'Where is my order?', clientMessageId: 'c-1' });
        expect(sent.statusCode).to.equal(201);
        expect(sent.payload.seq).to.equal(2);
        const atAgent = await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Where is my order?');
        expect(atAgent).to.include({ sender: 'customer', sessionId: 'sess_conv_1', seq: 2 });

        const retry = await request(customer.client, 'POST', '/api/chat/session/sess_conv_1/messages', { message: 'Where is my order?', clientMessageId: 'c-1' });
        expect(retry.statusCode, 'a retried send is not stored twice').to.equal(200);
        expect(retry.payload.seq).to.equal(2);

        await request(agent.client, 'POST', '/api/chat/session/sess_conv_1/messages', { message: '<b>On its way</b>', clientMessageId: 'a-1' });
        const atCustomer = await customer.box.waitFor((m) => m.type === 'chat_message' && m.sender === 'agent');
        expect(atCustomer.message, 'text, never HTML').to.equal('<b>On its way</b>');
        expect(atCustomer.seq).to.equal(3);
        expect(new Date(atCustomer.timestamp).toISOString()).to.equal(atCustomer.timestamp);

        await sleep(100);
        expect(agent.box.messages.filter((m) => m.type === 'chat_message' && m.message === 'Where is my order?')).to.have.length(1);

        const ended = await request(agent.client, 'POST', '/api/chat/session/sess_conv_1/end', {});
        expect(ended.payload.status).to.equal('completed');
        const endedPush = await customer.box.waitFor((m) => m.type === 'session_ended');
        expect(endedPush.reason).to.equal('agent_ended');

        const row = await t.server.app.db('chat_sessions').where({ session_id: 'sess_conv_1' }).first();
        expect(row.status).to.equal('completed');
        expect(Number(row.accepted_at)).to.be.at.least(Number(row.created_at));
        expect(Number(row.ended_at)).to.be.at.least(Number(row.accepted_at));
        const stored = await t.server.app.db('chat_messages').where({ chat_session_id: row.id }).orderBy('seq');
        expect(stored.map((m: any) => [m.seq, m.sender, m.message])).to.deep.equal([
            [1, 'customer', 'Can I talk to a human?'], [2, 'customer', 'Where is my order?'], [3, 'agent', '<b>On its way</b>']
        ]);

        const late = await request(customer.client, 'POST', '/api/chat/session/sess_conv_1/messages', { message: 'hello?', clientMessageId: 'c-2' }).catch((e: any) => e);
        expect(late.statusCode).to.equal(409);
    });

    it('tells the agents when the customer ends the chat (Customer Disconnected)', async () => {
        const agent = track(await connectAgent(t.url, a));
        const created = await createSession(t.server, a, 'sess_cust_end');
        await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_cust_end/accept', headers: bearer(a.admin.token) });
        const customer = track(await connectCustomer(t.url, created.token, 'sess_cust_end'));
        await request(customer.client, 'POST', '/api/chat/session/sess_cust_end/end', {});
        const push = await agent.box.waitFor((m) => m.type === 'session_ended' && m.sessionId === 'sess_cust_end');
        expect(push).to.include({ reason: 'customer_disconnected', endedBy: 'customer' });
    });

    it('lets only one agent accept a chat', async () => {
        const second = await t.server.app.services.users.create({ email: 'second@alpha.test', password: 'correct-horse-battery', role: 'admin', organizationId: a.organization.id });
        const { signUserToken } = await import('../../core/auth/tokens');
        const token2 = signUserToken(t.server.app.config.jwtSecret, { id: second.id, role: 'admin', organizationId: a.organization.id, tokenVersion: 0 });
        await createSession(t.server, a, 'sess_race');
        const first = await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_race/accept', headers: bearer(a.admin.token) });
        const other = await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_race/accept', headers: bearer(token2) });
        expect(first.statusCode).to.equal(200);
        expect(other.statusCode).to.equal(409);
        expect((other.result as any).message).to.match(/already accepted/);
    });

    it('refuses a message over the length limit with a clear error', async () => {
        const created = await createSession(t.server, a, 'sess_long');
        const customer = track(await connectCustomer(t.url, created.token, 'sess_long'));
        const err = await request(customer.client, 'POST', '/api/chat/session/sess_long/messages', { message: 'x'.repeat(2001), clientMessageId: 'l1' }).catch((e: any) => e);
        expect(err.statusCode).to.equal(400);
        expect(err.message).to.match(/at most 2000 characters/);
    });

    it('lets one connection send 20 messages per window (10 s; 3 s here): the 21st, over a request frame or a SPEC §7 chat_message, gets 429 with Retry-After and is not stored, and the limit frees up after the window', async function () {
        const SOCKET_SEND_WINDOW_MS = t.config.chat.sendWindowMs;
        this.timeout(SOCKET_SEND_WINDOW_MS + 20000);
        const created = await createSession(t.server, a, 'sess_flood');
        // Two sockets of the same customer: one sends request frames, the other SPEC §7 chat_message messages.
        const byRequest = track(await connectCustomer(t.url, created.token, 'sess_flood'));
        const byMessage = track(await connectCustomer(t.url, created.token, 'sess_flood'));
        const viaRequest = (text: string) => request(byRequest.client, 'POST', '/api/chat/session/sess_flood/messages', { message: text, clientMessageId: text })
            .then((r) => ({ statusCode: r.statusCode, headers: {} as Record<string, string> }), (e: any) => ({ statusCode: e.statusCode as number, headers: (e.headers ?? {}) as Record<string, string> }));
        const viaMessage = (text: string) => byMessage.client.message({ type: 'chat_message', sessionId: 'sess_flood', sender: 'customer', message: text, timestamp: new Date().toISOString() })
            .then((r: any) => ({ statusCode: r.payload.seq > 0 ? 201 : 500, headers: {} as Record<string, string> }), (e: any) => ({ statusCode: e.statusCode as number, headers: (e.headers ?? {}) as Record<string, string> }));
        const stored = async (text: string) => Number((await t.server.app.db('chat_messages').where({ message: text }).count({ n: '*' }))[0].n);

        // Each socket's window starts with its own first send; the 20 go at once so they all fall well inside it.
        const firstSend: Record<string, number> = {};
        for (const [name, send] of [['request', viaRequest], ['message', viaMessage]] as const) {
            firstSend[name] = Date.now();
            const answers = await Promise.all(Array.from({ length: SOCKET_SEND_POINTS }, (_, i) => send(`${name}-${i}`)));
            expect(answers.map((r) => r.statusCode), `the first ${SOCKET_SEND_POINTS} ${name}s`).to.deep.equal(Array(SOCKET_SEND_POINTS).fill(201));
            const over = await send(`${name}-over`);
            expect(Date.now() - firstSend[name], `the ${name}s fell within one window`).to.be.below(SOCKET_SEND_WINDOW_MS);
            expect(over.statusCode, `the ${name} over the limit`).to.equal(429);
            const retryAfter = Number(over.headers['retry-after']);
            expect(retryAfter, `Retry-After of the ${name}`).to.be.within(1, SOCKET_SEND_WINDOW_MS / 1000);
            expect(await stored(`${name}-over`), `the ${name} over the limit is not stored`).to.equal(0);
            expect(await stored(`${name}-${SOCKET_SEND_POINTS - 1}`)).to.equal(1);
        }

        // Once the oldest send of each socket has left its window, one more send is admitted on each (the one wait
        // of this file on a real clock: the window is what is tested).
        await sleep(Math.max(firstSend.request, firstSend.message) + SOCKET_SEND_WINDOW_MS + 250 - Date.now());       // until the (test-short) send window has passed: the limit must then let the socket send again
        expect((await viaRequest('request-later')).statusCode, 'a request frame after the window').to.equal(201);
        expect((await viaMessage('message-later')).statusCode, 'a chat_message after the window').to.equal(201);
        expect(await stored('request-later')).to.equal(1);
        expect(await stored('message-later')).to.equal(1);
    });

    it('closes a socket that sends a frame over 64 KiB', async () => {
        const created = await createSession(t.server, a, 'sess_big');
        const customer = track(await connectCustomer(t.url, created.token, 'sess_big', inbox(), false));
        const closed = new Promise<number>((resolve) => {
            customer.client.onDisconnect = (_willReconnect: boolean, log: { code: number }) => resolve(log.code);
        });
        const err = await request(customer.client, 'POST', '/api/chat/session/sess_big/messages', { message: 'y'.repeat(70 * 1024), clientMessageId: 'big' }).catch((e: any) => e);
        expect(err).to.be.instanceOf(Error);
        expect(await closed).to.equal(1009);
        const count = await t.server.app.db('chat_messages').where({ client_message_id: 'big' }).count({ n: '*' });
        expect(Number(count[0].n)).to.equal(0);
    });

    it('refuses an agent socket from a foreign Origin and accepts its own', async () => {
        const err = await connect(t.url, a.admin.token, { origin: 'https://evil.example' }).catch((e: any) => e);
        expect(err).to.be.instanceOf(Error);
        expect(err.message).to.match(/Origin/);
        const ok = await connect(t.url, a.admin.token, { origin: t.url });
        clients.push(ok);
        const unauth = await connect(t.url, 'not-a-token').catch((e: any) => e);
        expect(unauth).to.be.instanceOf(Error);
    });

    it('refuses a customer socket from a page outside the store\'s domains', async () => {
        const created = await createSession(t.server, a, 'sess_origin');
        const err = await connect(t.url, created.token, { origin: 'https://beta.test' }).catch((e: any) => e);
        expect(err).to.be.instanceOf(Error);
        expect(err.message).to.match(/not a registered domain/);
        const ok = await connect(t.url, created.token, { origin: 'https://shop.alpha.test' });
        clients.push(ok);
    });

    it('also takes SPEC §7 socket messages (agent_accept_chat, chat_message, end_chat) as commands', async () => {
        const agent = track(await connectAgent(t.url, a));
        const created = await createSession(t.server, a, 'sess_compat');
        const customer = track(await connectCustomer(t.url, created.token, 'sess_compat'));
        const accepted = await agent.client.message({ type: 'agent_accept_chat', sessionId: 'sess_compat', agentId: 1 });
        expect(accepted.payload.agentId).to.equal(a.admin.id);
        await customer.client.message({ type: 'chat_message', sessionId: 'sess_compat', sender: 'customer', message: 'via message', timestamp: new Date().toISOString() });
        await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'via message');
        // Another chat than the token's: refused by the route's declared access (session scope).
        const foreign = await customer.client.message({ type: 'end_chat', sessionId: 'sess_conv_1' }).catch((e: any) => e);
        expect(foreign.statusCode).to.equal(403);
        const bad = await customer.client.message({ type: 'chat_message', sessionId: 'sess_compat' }).catch((e: any) => e);
        expect(bad.statusCode).to.equal(400);
        await agent.client.message({ type: 'end_chat', sessionId: 'sess_compat' });
        const ended = await customer.box.waitFor((m) => m.type === 'session_ended');
        expect(ended.reason).to.equal('agent_ended');
    });

    it('gives analytics the chat status and websocket figures of one store', async () => {
        const agent = track(await connectAgent(t.url, a));
        const created = await createSession(t.server, a, 'sess_stats');
        track(await connectCustomer(t.url, created.token, 'sess_stats'));
        await t.server.app.services.livechat.accept(a.organization.id, a.admin.id, 'sess_stats');
        const status = await t.server.app.services.livechat.chatStatus(a.organization.id);
        expect(status.activeSessions).to.be.at.least(1);
        const stats = await t.server.app.services.livechat.websocketStats(a.organization.id);
        expect(stats.totalAgentConnections).to.be.at.least(1);
        expect(stats.totalActiveChatConnections).to.be.at.least(1);
        expect(stats.activeSessionIds).to.include('sess_stats');
        expect(stats.lastConnectionTime).to.be.a('string');
        const other = await t.server.app.services.livechat.websocketStats(b.organization.id);
        expect(other.activeSessionIds).not.to.include('sess_stats');
        await agent.client.disconnect();
    });

    it('closes a socket that does not authenticate within the auth timeout', async function () {
        this.timeout(20000);
        const WebSocket = require('ws');
        const ws = new WebSocket(t.url.replace('http', 'ws') + '/ws');
        const started = Date.now();
        const closed = await new Promise<number>((resolve) => ws.on('close', () => resolve(Date.now() - started)));
        expect(closed).to.be.within(9000, 15000);
    });

    it('refuses a customer subscribing to another session, and an agent to another store', async () => {
        const mine = await createSession(t.server, a, 'sess_mine');
        await createSession(t.server, a, 'sess_theirs');
        const customer = track(await connectCustomer(t.url, mine.token, 'sess_mine'));
        const err = await customer.client.subscribe('/chat/sessions/sess_theirs', () => {}).catch((e: any) => e);
        expect(err).to.be.instanceOf(Error);
        expect(err.statusCode).to.equal(403);
        const read = await request(customer.client, 'GET', '/api/chat/session/sess_theirs/messages').catch((e: any) => e);
        expect(read.statusCode).to.equal(403);
        const agentB = await connect(t.url, b.admin.token);
        clients.push(agentB);
        const cross = await agentB.subscribe(`/agents/${a.organization.id}`, () => {}).catch((e: any) => e);
        expect(cross.statusCode).to.equal(403);
        const crossSession = await agentB.subscribe('/chat/sessions/sess_mine', () => {}).catch((e: any) => e);
        expect(crossSession.statusCode).to.equal(404);
    });

    it('delivers every message once, in order, to a customer whose socket died mid-conversation', async () => {
        const agent = track(await connectAgent(t.url, a));
        const created = await createSession(t.server, a, 'sess_drop');
        await request(agent.client, 'POST', '/api/chat/session/sess_drop/accept');
        const box = inbox();
        const customer = track(await connectCustomer(t.url, created.token, 'sess_drop', box));
        const initial = await request(customer.client, 'GET', '/api/chat/session/sess_drop/messages?after=0');
        await request(agent.client, 'POST', '/api/chat/session/sess_drop/messages', { message: 'before 1', clientMessageId: 'b1' });
        await box.waitFor((m) => m.message === 'before 1');
        const lastSeq = Math.max(...box.messages.filter((m) => m.seq).map((m) => m.seq));

        // Kill the socket without a close handshake; the client reconnects by itself.
        let reconnected = false;
        customer.client.onConnect = () => {
            reconnected = true;
        };
        customer.client._ws.terminate();
        for (let i = 1; i <= 3; i++) {
            await request(agent.client, 'POST', '/api/chat/session/sess_drop/messages', { message: `during ${i}`, clientMessageId: `d${i}` });
        }
        const until = Date.now() + 5000;
        while (!reconnected && Date.now() < until) {
            await sleep(20);
        }
        expect(reconnected).to.equal(true);
        const missed = await request(customer.client, 'GET', `/api/chat/session/sess_drop/messages?after=${lastSeq}`);
        const seen = new Map<number, string>();
        for (const m of [...initial.payload.messages, ...box.messages.filter((x) => x.type === 'chat_message'), ...missed.payload.messages]) {
            seen.set(m.seq, m.message);
        }
        await request(agent.client, 'POST', '/api/chat/session/sess_drop/messages', { message: 'after', clientMessageId: 'a9' });
        await box.waitFor((m) => m.message === 'after');
        for (const m of box.messages.filter((x) => x.type === 'chat_message')) {
            seen.set(m.seq, m.message);
        }
        const ordered = [...seen.entries()].sort((x, y) => x[0] - y[0]).map(([, text]) => text);
        expect(ordered).to.deep.equal(['I need a human', 'before 1', 'during 1', 'during 2', 'during 3', 'after']);
    });

    it('closes a chat nobody accepted in time as failed_to_respond', async () => {
        const created = await createSession(t.server, a, 'sess_timeout');
        const customer = track(await connectCustomer(t.url, created.token, 'sess_timeout'));
        await t.server.app.db('chat_sessions').where({ session_id: 'sess_timeout' }).update({ created_at: Date.now() - 3600_000 });
        const waiting = await t.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(a.admin.token) });
        expect((waiting.result as any[]).map((s) => s.sessionId)).not.to.include('sess_timeout');
        const push = await customer.box.waitFor((m) => m.type === 'session_ended');
        expect(push.reason).to.equal('failed_to_respond');
        const row = await t.server.app.db('chat_sessions').where({ session_id: 'sess_timeout' }).first();
        expect(row.status).to.equal('failed_to_respond');
    });

    it('stars, archives and lists active chats with message counts', async () => {
        await createSession(t.server, a, 'sess_flags');
        await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_flags/accept', headers: bearer(a.admin.token) });
        const star = await t.server.inject({ method: 'PATCH', url: '/api/chat/session/sess_flags/star', headers: bearer(a.admin.token), payload: { isStarred: true } });
        expect((star.result as any).isStarred).to.equal(true);
        const list = await t.server.inject({ method: 'GET', url: '/api/chat/sessions', headers: bearer(a.admin.token) });
        const item = (list.result as any[]).find((s) => s.sessionId === 'sess_flags');
        expect(item).to.include({ isStarred: true, messageCount: 1, status: 'agent_connected' });
        await t.server.inject({ method: 'PATCH', url: '/api/chat/session/sess_flags/archive', headers: bearer(a.admin.token), payload: { isArchived: true } });
        const after = await t.server.inject({ method: 'GET', url: '/api/chat/sessions', headers: bearer(a.admin.token) });
        expect((after.result as any[]).map((s) => s.sessionId)).not.to.include('sess_flags');
        const bad = await t.server.inject({ method: 'PATCH', url: '/api/chat/session/sess_flags/star', headers: bearer(a.admin.token), payload: { isStarred: 'maybe' } });
        expect(bad.statusCode).to.equal(400);
        const foreign = await t.server.inject({ method: 'PATCH', url: '/api/chat/session/sess_flags/star', headers: bearer(b.admin.token), payload: { isStarred: true } });
        expect(foreign.statusCode).to.equal(404);
    });

    it('answers 404 without B\'s data for every tenancy case of the livechat routes', async () => {
        const { cases } = await import('../helpers/tenancy-cases-livechat');
        const scoped = t.server.table().filter((r) => r.path.startsWith('/api/chat/') && r.path.includes('{')).map((r) => r.settings.id);
        expect(Object.keys(cases).sort()).to.deep.equal(scoped.sort());
        for (const [id, make] of Object.entries(cases)) {
            const req = await make({ server: t.server, a, b });
            const res = await t.server.inject({ method: req.method, url: req.url, headers: req.headers, payload: req.payload as any });
            expect(res.statusCode, id).to.equal(404);
            expect(res.payload, id).not.to.contain('secret of B');
        }
    });

    it('answers 400 with a clear message for bad widget input, never a 500', async () => {
        const res = await t.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId: '<script>' } });
        expect(res.statusCode).to.equal(400);
        expect((res.result as any).message).to.match(/sessionId/);
        const none = await t.server.inject({ method: 'POST', url: '/api/chat/create-session', payload: { sessionId: 'x' } });
        expect(none.statusCode).to.equal(401);
    });

    it('keeps email settings with the store admin as default recipient, and stores transcripts in the outbox', async () => {
        const initial = await t.server.inject({ method: 'GET', url: '/api/chat/email-settings', headers: bearer(a.admin.token) });
        expect(initial.result).to.deep.equal({ emailNotificationsEnabled: false, emailRecipient: a.admin.email });
        const saved = await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(a.admin.token), payload: { emailNotificationsEnabled: true, emailRecipient: 'desk@alpha.test' } });
        expect((saved.result as any).message).to.match(/desk@alpha.test/);
        const bad = await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(a.admin.token), payload: { emailNotificationsEnabled: true, emailRecipient: 'nope' } });
        expect(bad.statusCode).to.equal(400);

        // The test email goes only to an admin of the store (issue 25): desk@alpha.test is not one.
        const test = await t.server.inject({ method: 'POST', url: '/api/chat/test-email', headers: bearer(a.admin.token) });
        expect(test.statusCode).to.equal(400);
        expect((test.result as any).message).to.match(/only to an admin of this store/);

        await createSession(t.server, a, 'sess_mail', 'Hello there');
        await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_mail/accept', headers: bearer(a.admin.token) });
        await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_mail/messages', headers: bearer(a.admin.token), payload: { message: 'Hi, Sam here', clientMessageId: 'm1' } });
        await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_mail/end', headers: bearer(a.admin.token) });
        await t.server.app.jobs.drain();
        const outbox = await t.server.app.services.mail.list({ to: 'desk@alpha.test' });
        const transcript = outbox.find((m) => m.subject.startsWith('Chat transcript'));
        expect(transcript, 'transcript stored').to.not.equal(undefined);
        expect(transcript!.body).to.contain('Customer: Hello there');
        expect(transcript!.body).to.contain('Agent: Hi, Sam here');
        expect(transcript!.transport).to.equal('outbox');
    });
});

describe('live chat transcripts over SMTP', function () {
    this.timeout(30000);

    it('sends the transcript and the test email to a real SMTP server', async () => {
        const smtp = await startFakeSmtp();
        const t = await startTestServer({ env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, MAIL_FROM: 'chat@alpha.test' } });
        try {
            const a = await createTenant(t.server, 'gamma', 'gamma.test');
            await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(a.admin.token), payload: { emailNotificationsEnabled: true } });
            const test = await t.server.inject({ method: 'POST', url: '/api/chat/test-email', headers: bearer(a.admin.token) });
            expect(test.statusCode).to.equal(200);
            await createSession(t.server, a, 'sess_smtp', 'Need help');
            await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_smtp/accept', headers: bearer(a.admin.token) });
            await t.server.inject({ method: 'POST', url: '/api/chat/session/sess_smtp/end', headers: bearer(a.admin.token) });
            await t.server.app.jobs.drain();
            await smtp.waitFor(2);
            expect(smtp.received[1].to).to.deep.equal([a.admin.email]);
            expect(smtp.received[1].raw).to.contain('Customer: Need help');
            const rows = await t.server.app.services.mail.list();
            expect(rows.map((r) => r.status)).to.deep.equal(['sent', 'sent']);
        }
        finally {
            await t.close();
            await smtp.close();
        }
    });

    it('answers a clear failure when the SMTP server is unreachable', async () => {
        const t = await startTestServer({ env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://127.0.0.1:1' } });
        try {
            const a = await createTenant(t.server, 'delta', 'delta.test');
            const test = await t.server.inject({ method: 'POST', url: '/api/chat/test-email', headers: bearer(a.admin.token) });
            expect(test.statusCode).to.equal(502);
            expect((test.result as any).message).to.match(/Email configuration test failed/);
        }
        finally {
            await t.close();
        }
    });
});

describe('live chat across a server restart', function () {
    this.timeout(30000);

    it('loses no message when the server restarts between messages', async () => {
        // `base` owns the database; `first` and `second` are the same server before and after the restart.
        const base = await startTestServer();
        const first = await startTestServer({ listen: true, shareWith: base });
        const a = await createTenant(first.server, 'restart', 'restart.test');
        const port = first.server.info.port;
        const created = await createSession(first.server, a, 'sess_restart', 'first');
        await first.server.inject({ method: 'POST', url: '/api/chat/session/sess_restart/accept', headers: bearer(a.admin.token) });
        const box = inbox();
        const customer = await connectCustomer(first.url, created.token, 'sess_restart', box);
        await request(customer.client, 'POST', '/api/chat/session/sess_restart/messages', { message: 'second', clientMessageId: 'r2' });

        await first.close();
        const second = await startTestServer({ listen: true, shareWith: base, env: { PORT: String(port) } });
        try {
            let connected = false;
            customer.client.onConnect = () => {
                connected = true;
            };
            const until = Date.now() + 8000;
            while (!connected && Date.now() < until) {
                await sleep(50);
            }
            expect(connected, 'the client reconnected to the restarted server').to.equal(true);
            await request(customer.client, 'POST', '/api/chat/session/sess_restart/messages', { message: 'third', clientMessageId: 'r3' });
            await second.server.inject({ method: 'POST', url: '/api/chat/session/sess_restart/messages', headers: bearer(a.admin.token), payload: { message: 'fourth', clientMessageId: 'a4' } });
            const all = await request(customer.client, 'GET', '/api/chat/session/sess_restart/messages?after=0');
            expect(all.payload.messages.map((m: any) => [m.seq, m.message])).to.deep.equal([[1, 'first'], [2, 'second'], [3, 'third'], [4, 'fourth']]);
            await customer.client.disconnect();
        }
        finally {
            await second.close();
            await base.close();
        }
    });
});
