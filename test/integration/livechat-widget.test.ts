import { expect } from 'chai';
import { until } from '../helpers/wait';
import { startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';
import { connectAgent, request, setAvailable } from '../helpers/livechat-client';
import { createLiveChat, AGENT_JOINED_TEXT, QueueState } from '../../widget/src/live-chat';

describe('the widget\'s live chat client (widget/src/live-chat.ts) against a real server', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        a = await createTenant(t.server, 'widgetlc', 'widgetlc.test');
    });
    after(async () => {
        await t?.close();
    });

    function widget(sessionId: string) {
        const incoming: Array<{ sender: string; message: string }> = [];
        const statuses: string[] = [];
        const queue: QueueState[] = [];
        let endedReason: string | null = null;
        const chat = createLiveChat({
            apiOrigin: t.url,
            widgetKey: a.bot.publicKey,
            sessionId,
            onMessage: (m) => incoming.push(m),
            onQueue: (q) => queue.push(q),
            onEnded: (reason) => {
                endedReason = reason;
            },
            onStatus: (s) => statuses.push(s),
            WebSocket: require('ws'),
            reconnectDelay: { min: 50, max: 300 }
        });
        return { chat, incoming, statuses, queue, ended: () => endedReason };
    }

    function killCustomerSockets(sessionId: string): number {
        let killed = 0;
        (t.server as any).eachSocket((socket: any) => {
            socket._ws.terminate();
            killed += 1;
        }, { subscription: `/chat/sessions/${sessionId}` });
        return killed;
    }

    it('answers unavailable while no agent is available, and available once one is', async () => {
        const w = widget('w_avail');
        expect(await w.chat.checkAvailability()).to.deep.equal({ available: false, reason: 'no_agent', message: 'No agents are available right now' });
        const agent = await connectAgent(t.url, a);
        await setAvailable(t.server, a, true);
        expect(await w.chat.checkAvailability()).to.deep.equal({ available: true, reason: 'open' });
        // Outside the support hours (issue 26): closed, with the next opening and what to offer meanwhile.
        const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
        await t.server.inject({ method: 'PUT', url: '/api/chat/business-hours', headers: bearer(a.admin.token), payload: { weekly: [], exceptions: [{ date: today, closed: true }], whenClosed: 'hide' } });
        const closed = await w.chat.checkAvailability();
        expect(closed).to.include({ available: false, reason: 'closed', whenClosed: 'hide' });
        expect(closed.opensAt).to.match(/^\d{4}-\d{2}-\d{2}T00:00:00-0[45]:00$/);
        await t.server.inject({ method: 'PUT', url: '/api/chat/business-hours', headers: bearer(a.admin.token), payload: { weekly: [], exceptions: [] } });
        await agent.client.disconnect();
    });

    it('hears its place in the queue on connect and as the chat ahead is accepted, and no more once an agent has it (issue 26)', async () => {
        const agent = await connectAgent(t.url, a);
        await setAvailable(t.server, a, true);
        const first = widget('w_queue_1');
        await first.chat.start({ phoneNumber: null, customerMessage: 'first' });
        const second = widget('w_queue_2');
        await second.chat.start({ phoneNumber: null, customerMessage: 'second' });
        await until(() => second.queue.some((q) => q?.position === 2));
        expect(second.queue.find((q) => q?.position === 2)).to.deep.equal({ position: 2, typicalWaitSeconds: null });
        await t.server.inject({ method: 'POST', url: '/api/chat/session/w_queue_1/accept', headers: bearer(a.admin.token) });
        await until(() => second.queue.some((q) => q?.position === 1));
        await until(() => first.queue[first.queue.length - 1] === null);
        await t.server.inject({ method: 'POST', url: '/api/chat/session/w_queue_2/accept', headers: bearer(a.admin.token) });
        await until(() => second.queue[second.queue.length - 1] === null);
        await first.chat.end();
        await second.chat.end();
        await agent.client.disconnect();
    });

    it('throws on a network failure so the widget can show its error text', async () => {
        const chat = createLiveChat({ apiOrigin: 'http://127.0.0.1:1', widgetKey: a.bot.publicKey, sessionId: 'w_net', onMessage() {}, onEnded() {} });
        const err = await chat.checkAvailability().catch((e) => e);
        expect(err).to.be.instanceOf(Error);
        const startErr = await chat.start({ phoneNumber: null, customerMessage: 'human' }).catch((e) => e);
        expect(startErr).to.be.instanceOf(Error);
    });

    it('chats both ways, survives a dropped socket without losing or repeating a message, and sees the agent end it', async () => {
        const agent = await connectAgent(t.url, a);
        await setAvailable(t.server, a, true);
        const w = widget('w_full');
        await w.chat.start({ phoneNumber: '+15555550123', customerMessage: 'I want a human' });
        await agent.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === 'w_full');
        await request(agent.client, 'POST', '/api/chat/session/w_full/accept');
        await until(() => w.incoming.some((m) => m.message === AGENT_JOINED_TEXT), 5000, 'agent joined');

        await request(agent.client, 'POST', '/api/chat/session/w_full/messages', { message: 'Hi, this is Sam', clientMessageId: 'a1' });
        await until(() => w.incoming.some((m) => m.message === 'Hi, this is Sam'), 5000, 'agent message');
        w.chat.send('My order is late');
        await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'My order is late');

        // The connection drops; both sides keep typing.
        expect(killCustomerSockets('w_full')).to.equal(1);
        w.chat.send('Are you still there?');
        await request(agent.client, 'POST', '/api/chat/session/w_full/messages', { message: 'Checking now', clientMessageId: 'a2' });
        await request(agent.client, 'POST', '/api/chat/session/w_full/messages', { message: 'It ships today', clientMessageId: 'a3' });
        await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Are you still there?', 8000);
        await until(() => w.incoming.some((m) => m.message === 'It ships today'), 8000, 'missed messages');
        expect(w.statuses).to.include('reconnecting');

        const agentTexts = w.incoming.filter((m) => m.sender === 'agent').map((m) => m.message);
        expect(agentTexts).to.deep.equal(['Hi, this is Sam', 'Checking now', 'It ships today']);
        const stored = await t.server.inject({ method: 'GET', url: '/api/chat/session/w_full/messages', headers: bearer(a.admin.token) });
        const all = (stored.result as any).messages as Array<{ sender: string; message: string; seq: number }>;
        expect(all.map((m) => m.seq)).to.deep.equal([1, 2, 3, 4, 5, 6]);
        // Each side's messages once and in its own order (the offline one is stored when the socket is back).
        expect(all.filter((m) => m.sender === 'customer').map((m) => m.message)).to.deep.equal(['I want a human', 'My order is late', 'Are you still there?']);
        expect(all.filter((m) => m.sender === 'agent').map((m) => m.message)).to.deep.equal(['Hi, this is Sam', 'Checking now', 'It ships today']);

        await request(agent.client, 'POST', '/api/chat/session/w_full/end');
        await until(() => w.ended() !== null, 5000, 'ended');
        expect(w.ended()).to.equal('agent_ended');
        await agent.client.disconnect();
    });

    it('ends the chat from the customer side', async () => {
        const agent = await connectAgent(t.url, a);
        const w = widget('w_leave');
        await w.chat.start({ phoneNumber: null, customerMessage: 'agent please' });
        await w.chat.end();
        const push = await agent.box.waitFor((m) => m.type === 'session_ended' && m.sessionId === 'w_leave');
        expect(push.reason).to.equal('customer_disconnected');
        const row = await t.server.app.db('chat_sessions').where({ session_id: 'w_leave' }).first();
        expect(row.phone_number).to.equal('Unknown');
        await agent.client.disconnect();
    });
});
