import { expect } from 'chai';
import { startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';
import { connectAgent, createSession } from '../helpers/livechat-client';
import { signCustomerToken } from '../../core/auth/customer-token';

/**
 * Issue 28: the rating after a chat (POST /api/chat/session/{id}/rating with the chat's customer token) and the CSAT
 * report that reads it (GET /api/analytics/csat), on whichever database the run uses (SQLite, or PostgreSQL with
 * DATABASE_URL).
 */
describe('ratings after a chat and the CSAT report', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    let agent2: { id: number };
    const clients: any[] = [];

    before(async () => {
        t = await startTestServer({ listen: true });
        a = await createTenant(t.server, 'ratealpha', 'ratealpha.test');
        b = await createTenant(t.server, 'ratebeta', 'ratebeta.test');
        agent2 = await t.server.app.services.users.create({ email: 'second@ratealpha.test', password: 'second-password-1', role: 'admin', name: 'Robin Second', organizationId: a.organization.id });
    });
    after(async () => {
        for (const c of clients.splice(0)) {
            await c.disconnect().catch(() => {});
        }
        await t?.close();
    });

    const rate = (sessionId: string, token: string | null, payload: unknown) => t.server.inject({
        method: 'POST', url: `/api/chat/session/${sessionId}/rating`, headers: token ? bearer(token) : {}, payload: payload as object
    });
    const ratingRows = async (sessionId: string) => t.server.app.db('chat_ratings as r').join('chat_sessions as s', 's.id', 'r.chat_session_id')
        .where('s.session_id', sessionId).select('r.*');

    /** A chat of `tenant` accepted by `agentId`, ended by the agent; returns the customer's token. */
    async function endedChat(tenant: Tenant, sessionId: string, agentId = tenant.admin.id, end = true): Promise<string> {
        const created = await createSession(t.server, tenant, sessionId, 'Where is my parcel?');
        await t.server.app.services.livechat.accept(tenant.organization.id, agentId, sessionId);
        if (end) {
            await t.server.app.services.livechat.end(tenant.organization.id, sessionId, 'agent');
        }
        return created.token;
    }

    it('takes one rating of an ended chat from its customer (201), shows it to the agents at once and in the conversation, and refuses a second (409)', async () => {
        const agent = await connectAgent(t.url, a);
        clients.push(agent.client);
        const token = await endedChat(a, 'rate_once_1');
        const res = await rate('rate_once_1', token, { score: 4, comment: '  Quick and kind  ' });
        expect(res.statusCode, res.payload).to.equal(201);
        expect(res.result).to.include({ sessionId: 'rate_once_1', score: 4, comment: 'Quick and kind', source: 'widget' });
        const pushed = await agent.box.waitFor((m) => m.type === 'chat_rated' && m.sessionId === 'rate_once_1');
        expect(pushed).to.include({ score: 4, comment: 'Quick and kind', agentId: a.admin.id });

        const session = await t.server.inject({ method: 'GET', url: '/api/chat/session/rate_once_1', headers: bearer(a.admin.token) });
        expect((session.result as any).rating).to.include({ score: 4, comment: 'Quick and kind', source: 'widget' });

        const again = await rate('rate_once_1', token, { score: 1 });
        expect(again.statusCode).to.equal(409);
        expect(JSON.parse(again.payload)).to.include({ code: 'livechat.already_rated', message: 'This chat has already been rated' });
        const rows = await ratingRows('rate_once_1');
        expect(rows.map((r: any) => Number(r.score))).to.deep.equal([4]);
    });

    it('refuses bad input with 400 and stores nothing: a score outside 1–5, a comment over 1000 characters, unknown fields', async () => {
        const token = await endedChat(a, 'rate_bad_1');
        for (const payload of [{ score: 0 }, { score: 6 }, { score: 3.5 }, { score: 'five' }, {}, { score: 3, comment: 'x'.repeat(1001) }, { score: 3, agentId: 9 }, null]) {
            const res = await rate('rate_bad_1', token, payload);
            expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
            expect(JSON.parse(res.payload).message).to.be.a('string').and.not.equal('');
        }
        expect(await ratingRows('rate_bad_1')).to.have.length(0);
        // The longest comment allowed is taken.
        expect((await rate('rate_bad_1', token, { score: 3, comment: 'y'.repeat(1000) })).statusCode).to.equal(201);
    });

    it('refuses a chat still open (409), another chat\'s token at the gate (403), no token (401) and another store\'s chat (404)', async () => {
        const open = await endedChat(a, 'rate_open_1', a.admin.id, false);
        const early = await rate('rate_open_1', open, { score: 5 });
        expect(early.statusCode).to.equal(409);
        expect(JSON.parse(early.payload).code).to.equal('livechat.rating_too_early');

        const other = await endedChat(a, 'rate_other_1');
        expect((await rate('rate_other_1', open, { score: 5 })).statusCode, 'another chat\'s token').to.equal(403);
        expect((await rate('rate_other_1', null, { score: 5 })).statusCode).to.equal(401);
        expect((await rate('rate_other_1', a.admin.token, { score: 5 })).statusCode, 'staff do not rate').to.be.oneOf([401, 403]);

        // Organization B has a chat with the same id; A's customer token for that id finds nothing in A.
        await endedChat(b, 'rate_b_only');
        const forged = signCustomerToken(t.server.app.config.jwtSecret, { organizationId: a.organization.id, sessionId: 'rate_b_only', chatId: 'rate_b_only' });
        expect((await rate('rate_b_only', forged, { score: 1 })).statusCode).to.equal(404);
        expect(await ratingRows('rate_b_only')).to.have.length(0);
        expect((await rate('rate_other_1', other, { score: 2 })).statusCode).to.equal(201);
    });

    it('reports exact CSAT figures of planted ratings in the store\'s zone, per agent with chats and median times; another store sees none', async () => {
        const at = (isoText: string) => Date.parse(isoText);
        const db = t.server.app.db;
        const org = a.organization.id;
        // chat: agent, score (or none), rated at, handling seconds, first response seconds (or none)
        const plan: Array<[string, number, number | null, string | null, number, number | null]> = [
            ['csat_c1', a.admin.id, 5, '2026-03-10T15:00:00Z', 540, 30],
            ['csat_c2', a.admin.id, 4, '2026-03-11T03:30:00Z', 300, 90],     // 23:30 on the 10th in New York
            ['csat_c3', agent2.id, 2, '2026-03-11T15:00:00Z', 120, 60],
            ['csat_c4', agent2.id, null, null, 200, null],
            ['csat_c5', a.admin.id, null, null, 1000, 10]
        ];
        for (const [i, [id, agentId, score, ratedAt, handling, first]] of plan.entries()) {
            const token = await endedChat(a, id, agentId);
            if (first !== null) {
                await t.server.app.services.livechatRouting.agentMessage(org, id, agentId);
            }
            if (score !== null) {
                expect((await rate(id, token, { score })).statusCode).to.equal(201);
            }
            const created = at('2026-03-10T14:00:00Z') + i * 60_000;
            await db('chat_sessions').where({ organization_id: org, session_id: id })
                .update({ created_at: created, accepted_at: created + 60_000, ended_at: created + 60_000 + handling * 1000 });
            const chatId = (await db('chat_sessions').where({ organization_id: org, session_id: id }).first('id')).id;
            await db('chat_routing_events').where({ chat_session_id: chatId, type: 'first_response' }).update({ value_ms: (first ?? 0) * 1000 });
            if (ratedAt) {
                await db('chat_ratings').where({ chat_session_id: chatId }).update({ created_at: at(ratedAt) });
            }
        }
        const res = await t.server.inject({ method: 'GET', url: '/api/analytics/csat?startDate=2026-03-09&endDate=2026-03-11', headers: bearer(a.admin.token) });
        expect(res.statusCode, res.payload).to.equal(200);
        const body = res.result as any;
        expect(body).to.include({ responses: 3, average: 3.67 });
        expect(body.distribution).to.deep.equal({ 1: 0, 2: 1, 3: 0, 4: 1, 5: 1 });
        expect(body.daily).to.deep.equal([
            { date: '2026-03-09', responses: 0, average: 0 },
            { date: '2026-03-10', responses: 2, average: 4.5 },
            { date: '2026-03-11', responses: 1, average: 2 }
        ]);
        expect(body.byAgent).to.deep.equal([
            { agentId: a.admin.id, name: (await t.server.app.services.users.list({ organizationId: org })).find((u) => u.id === a.admin.id)!.name ?? a.admin.email,
                responses: 2, average: 4.5, chats: 3, medianFirstResponseSeconds: 30, medianHandlingSeconds: 540 },
            { agentId: agent2.id, name: 'Robin Second', responses: 1, average: 2, chats: 2, medianFirstResponseSeconds: 60, medianHandlingSeconds: 160 }
        ]);
        expect(body.range).to.deep.equal({ startDate: '2026-03-09', endDate: '2026-03-11', timeZone: 'America/New_York' });

        // One day only: the rating at 23:30 New York time belongs to the 10th, not the 11th (UTC's day).
        const oneDay = await t.server.inject({ method: 'GET', url: '/api/analytics/csat?startDate=2026-03-11', headers: bearer(a.admin.token) });
        expect((oneDay.result as any)).to.include({ responses: 1, average: 2 });

        // B's admin reads B's store: none of A's ratings (B's own chat was never rated).
        const ofB = await t.server.inject({ method: 'GET', url: '/api/analytics/csat?startDate=2026-03-09&endDate=2026-03-11', headers: bearer(b.admin.token) });
        expect(ofB.statusCode).to.equal(200);
        expect(ofB.result).to.include({ responses: 0, average: 0 });
        expect((ofB.result as any).byAgent).to.deep.equal([]);
        // … and naming A is answered as if A did not exist.
        const named = await t.server.inject({ method: 'GET', url: `/api/analytics/csat?days=30&organizationId=${org}`, headers: bearer(b.admin.token) });
        expect(named.statusCode).to.equal(404);
        const bad = await t.server.inject({ method: 'GET', url: '/api/analytics/csat?days=0', headers: bearer(a.admin.token) });
        expect(bad.statusCode).to.equal(400);
    });

    it('exports a person\'s ratings with their chats and erases them with the chat', async () => {
        const created = await createSession(t.server, a, 'rate_privacy_1', 'Hello', '+15555550177');
        await t.server.app.services.livechat.accept(a.organization.id, a.admin.id, 'rate_privacy_1');
        await t.server.app.services.livechat.end(a.organization.id, 'rate_privacy_1', 'customer');
        expect((await rate('rate_privacy_1', created.token, { score: 1, comment: 'My order 555 never came' })).statusCode).to.equal(201);
        const livechatPersonalData = t.server.app.personalData.holders.find((h) => h.plugin === 'livechat')!;
        const scope = { organizationId: a.organization.id, phone: '+15555550177', email: null, sessionIds: [] as string[] };
        const exported = await livechatPersonalData.export(scope, t.server.app.db) as Record<string, any[]>;
        expect(exported.chat_ratings.map((r) => r.comment)).to.deep.equal(['My order 555 never came']);
        const erased = await livechatPersonalData.erase(scope, t.server.app.db);
        expect(erased.chat_ratings).to.equal(1);
        expect(await ratingRows('rate_privacy_1')).to.have.length(0);
    });
});
