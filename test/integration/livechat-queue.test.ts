import { expect } from 'chai';
import { startWithStores, startTestServer, bearer, TestServer, Tenant, usingPostgres, usingRedis } from '../helpers/server';
import { connectCustomer, createSession, inbox, Inbox, disconnectAll } from '../helpers/livechat-client';

/**
 * Issue 26: a waiting customer knows their place in the queue and the typical wait (the median of the store's last
 * 20 accepted chats), pushed on their own session's socket as the queue moves, and read again on every (re)connect.
 */
describe('live chat: the customer\'s place in the queue and the typical wait', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    const clients: any[] = [];

    before(async () => {
        ({ t, stores: [a, b] } = await startWithStores(['queuea', 'queueb']));
    });
    after(async () => {
        await disconnectAll(clients);
        await t?.close();
    });

    const chats = () => t.server.app.db('chat_sessions');
    /** A customer who asked for a person, with their socket on their chat. */
    async function waitingCustomer(tenant: Tenant, sessionId: string): Promise<{ token: string; box: Inbox }> {
        const created = await createSession(t.server, tenant, sessionId);
        const box = inbox();
        clients.push((await connectCustomer(t.url, created.token, sessionId, box)).client);
        return { token: created.token, box };
    }
    const place = async (tenant: Tenant, sessionId: string, token: string) => {
        const res = await t.server.inject({ method: 'GET', url: `/api/chat/session/${sessionId}/messages`, headers: bearer(token) });
        expect(res.statusCode, res.payload).to.equal(200);
        return (res.result as any).queue;
    };
    const lastPlace = (box: Inbox) => box.messages.filter((m) => m.type === 'queue_position').pop();

    it('answers each waiting customer\'s place, and moves everyone up when the chat ahead is accepted or ends', async () => {
        const first = await waitingCustomer(a, 'widget_q_1');
        const second = await waitingCustomer(a, 'widget_q_2');
        const third = await waitingCustomer(a, 'widget_q_3');
        // Another store's queue is its own.
        const other = await waitingCustomer(b, 'widget_q_b1');
        expect(await place(a, 'widget_q_1', first.token)).to.deep.equal({ position: 1, waiting: 3, typicalWaitSeconds: null });
        expect(await place(a, 'widget_q_3', third.token)).to.deep.equal({ position: 3, waiting: 3, typicalWaitSeconds: null });
        expect(await place(b, 'widget_q_b1', other.token)).to.deep.include({ position: 1, waiting: 1 });

        // The first customer waited 90 s (as if), then an agent accepts: the others move up, told on their socket.
        await chats().where({ organization_id: a.organization.id, session_id: 'widget_q_1' }).update({ created_at: Date.now() - 90_000 });
        second.box.messages.length = 0;
        third.box.messages.length = 0;
        const accepted = await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_q_1/accept', headers: bearer(a.admin.token) });
        expect(accepted.statusCode).to.equal(200);
        await second.box.waitFor((m) => m.type === 'queue_position' && m.position === 1);
        await third.box.waitFor((m) => m.type === 'queue_position' && m.position === 2);
        expect(lastPlace(third.box)).to.deep.include({ sessionId: 'widget_q_3', position: 2, waiting: 2, typicalWaitSeconds: 90 });
        expect(first.box.messages.some((m) => m.type === 'queue_position' && m.position === 0), 'the accepted one is no longer in the queue').to.equal(false);
        // The pushes go to each customer's own chat only: nobody learns another chat's id.
        expect(third.box.messages.filter((m) => m.type === 'queue_position').every((m) => m.sessionId === 'widget_q_3')).to.equal(true);
        expect(other.box.messages.some((m) => m.type === 'queue_position'), 'store B\'s customer is not told about A\'s queue').to.equal(false);

        // The second customer changes their mind and leaves: the third is next.
        third.box.messages.length = 0;
        const left = await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_q_2/end', headers: bearer(second.token), payload: { reason: 'customer_left' } });
        expect(left.statusCode, left.payload).to.equal(200);
        await third.box.waitFor((m) => m.type === 'queue_position' && m.position === 1);
        // A reload reads the same place; an accepted chat has none.
        expect(await place(a, 'widget_q_3', third.token)).to.deep.equal({ position: 1, waiting: 1, typicalWaitSeconds: 90 });
        expect(await place(a, 'widget_q_1', first.token)).to.equal(undefined);
        // A newcomer joins behind.
        const fourth = await waitingCustomer(a, 'widget_q_4');
        expect(await place(a, 'widget_q_4', fourth.token)).to.deep.include({ position: 2, waiting: 2 });
    });

    it('moves a customer connected to another node when an agent on this one accepts the chat ahead (PostgreSQL + Redis)', async function () {
        if (!(usingPostgres && usingRedis)) {
            this.skip();
        }
        const nodeB = await startTestServer({ listen: true, shareWith: t });
        try {
            await createSession(t.server, a, 'widget_q_nodes_1');
            const created = await createSession(nodeB.server, a, 'widget_q_nodes_2');
            const box = inbox();
            clients.push((await connectCustomer(nodeB.url, created.token, 'widget_q_nodes_2', box)).client);
            const before = await nodeB.server.inject({ method: 'GET', url: '/api/chat/session/widget_q_nodes_2/messages', headers: bearer(created.token) });
            const ahead = (before.result as any).queue.position;
            expect(ahead).to.be.greaterThan(1);
            await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_q_nodes_1/accept', headers: bearer(a.admin.token) });
            await box.waitFor((m) => m.type === 'queue_position' && m.position === ahead - 1);
        }
        finally {
            await nodeB.close();
        }
    });

    it('takes the typical wait as the median of the last 20 accepted chats only', async () => {
        const now = Date.now();
        const orgId = a.organization.id;
        // 25 accepted chats: the 20 latest waited 60 s (11 of them) and 300 s (9); the 5 oldest 300 s.
        // Median of the last 20: 60 s; of all 25 it would be 300 s.
        for (let i = 0; i < 25; i += 1) {
            const sessionId = `widget_q_done_${i}`;
            await t.server.app.services.livechat.createSession({ organizationId: orgId, botInstanceId: a.bot.id, sessionId, phoneNumber: null, customerMessage: 'hi', domain: null });
            await t.server.app.services.livechat.accept(orgId, a.admin.id, sessionId);
            await t.server.app.services.livechat.end(orgId, sessionId, 'agent');
            const acceptedAt = now - 3_600_000 + i * 60_000;      // i = 24 is the latest
            const waited = i >= 14 ? 60_000 : 300_000;
            await chats().where({ organization_id: orgId, session_id: sessionId }).update({ accepted_at: acceptedAt, created_at: acceptedAt - waited });
        }
        // The earlier test's accepted chat (90 s) is older than all of these.
        await chats().where({ organization_id: orgId, session_id: 'widget_q_1' }).update({ accepted_at: now - 7_200_000, created_at: now - 7_290_000 });
        expect(await t.server.app.services.livechatQueue.typicalWaitSeconds(orgId)).to.equal(60);
        // Store B has no accepted chat yet.
        expect(await t.server.app.services.livechatQueue.typicalWaitSeconds(b.organization.id)).to.equal(null);
    });
});
