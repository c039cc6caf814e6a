import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connectAgent, createSession, NesClient, setAvailable } from '../helpers/livechat-client';
import { DEMO_KNOWLEDGE } from '../../plugins/ai/demo-data';
import triageMigration from '../../plugins/ai/migrations/20261202000000-ai-triage';

interface Rec { id: number; triage: string; triageReason: string | null; isResolved: boolean; sessionId: string | null }

/**
 * Issue 23, AI triage (plugins/ai/services/triage.ts): an answer is resolved when the customer says so or asks nothing
 * more for AI_RESOLVED_AFTER_MINUTES without a hand-off; unresolved when they said no, were handed off or the agent
 * abstained; pending until then. Staff resolve several at once (POST /api/ai/chat-history/resolve), all or nothing.
 */
describe('AI triage and bulk resolve (issue 23)', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    const clients: NesClient[] = [];
    const widget = (tenant: Tenant) => ({ 'x-widget-key': tenant.bot.publicKey });

    async function ask(tenant: Tenant, sessionId: string, message: string): Promise<{ historyId: number; fallbackAction: string | null; answer: string }> {
        const res = await server.inject({ method: 'POST', url: '/api/ai/chat', headers: widget(tenant), payload: { sessionId, message } });
        expect(res.statusCode, res.payload).to.equal(200);
        return JSON.parse(res.payload);
    }
    async function record(tenant: Tenant, id: number): Promise<Rec> {
        const res = await server.inject({ url: '/api/ai/chat-history?limit=500', headers: bearer(tenant.admin.token) });
        expect(res.statusCode, res.payload).to.equal(200);
        const found = (JSON.parse(res.payload) as Rec[]).find((r) => r.id === id);
        expect(found, `history record ${id}`).to.not.equal(undefined);
        return found!;
    }
    const feedback = (tenant: Tenant, sessionId: string, historyId: number, resolved: boolean) =>
        server.inject({ method: 'POST', url: '/api/ai/feedback', headers: widget(tenant), payload: { sessionId, historyId, resolved } });
    const resolveMany = (tenant: Tenant, payload: unknown) =>
        server.inject({ method: 'POST', url: '/api/ai/chat-history/resolve', headers: bearer(tenant.admin.token), payload: payload as object });
    /** Moves an answer back in time (the silence rule reads created_at). */
    const age = (id: number, minutes: number) => server.app.db('ai_chat_history').where('id', id).update({ created_at: Date.now() - minutes * 60_000 });

    before(async () => {
        t = await startTestServer({ listen: true });
        server = t.server;
        a = await createTenant(server, 'triagea');
        b = await createTenant(server, 'triageb');
        for (const entry of DEMO_KNOWLEDGE) {
            await server.app.services.ai.createKnowledge(a.organization.id, entry);
        }
        await server.app.services.ai.createKnowledge(b.organization.id, { title: 'Hours of B', content: 'Store B is open 9 to 5.' });
    });
    after(async () => {
        for (const c of clients) {
            await c.disconnect();
        }
        await t?.close();
    });

    describe('the rule', () => {
        it('starts an answer pending, and the customer\'s "Yes, thanks" resolves it', async () => {
            const answer = await ask(a, 'widget_tr_yes', 'What are your store hours?');
            expect(answer.fallbackAction).to.equal(null);
            expect(await record(a, answer.historyId)).to.include({ triage: 'pending', triageReason: null, isResolved: false });
            expect((await feedback(a, 'widget_tr_yes', answer.historyId, true)).statusCode).to.equal(200);
            expect(await record(a, answer.historyId)).to.include({ triage: 'resolved', triageReason: 'customer_yes', isResolved: true });
        });

        it('leaves an answer the customer said no to unresolved, listed among the unresolved, and silence does not change it', async () => {
            const answer = await ask(a, 'widget_tr_no', 'What are your store hours?');
            expect((await feedback(a, 'widget_tr_no', answer.historyId, false)).statusCode).to.equal(200);
            await age(answer.historyId, 60);
            await server.app.services.ai.sweepTriage(a.organization.id);
            expect(await record(a, answer.historyId)).to.include({ triage: 'unresolved', triageReason: 'customer_no', isResolved: false });
            const unresolved = JSON.parse((await server.inject({ url: '/api/ai/unresolved-chats', headers: bearer(a.admin.token) })).payload) as Rec[];
            expect(unresolved.map((r) => r.id)).to.include(answer.historyId);
            expect(unresolved.every((r) => r.triage === 'unresolved')).to.equal(true);
        });

        it('marks an abstaining answer unresolved at once', async () => {
            const answer = await ask(a, 'widget_tr_abstain', 'Do you sell replacement parts for vintage typewriters?');
            expect(answer.fallbackAction).to.be.oneOf(['offer_live_chat', 'leave_message']);
            expect(await record(a, answer.historyId)).to.include({ triage: 'unresolved', triageReason: 'abstained' });
        });

        it('marks a session handed to live chat unresolved: a chat the widget opens later, and the agent\'s own transfer', async () => {
            const first = await ask(a, 'widget_tr_handoff', 'What are your store hours?');
            const second = await ask(a, 'widget_tr_handoff', 'Do you offer free shipping?');
            const answered = await ask(a, 'widget_tr_handoff_yes', 'What are your store hours?');
            expect((await feedback(a, 'widget_tr_handoff_yes', answered.historyId, true)).statusCode).to.equal(200);
            await createSession(server, a, 'widget_tr_handoff', 'Still need help');
            await createSession(server, a, 'widget_tr_handoff_yes', 'One more thing');
            for (const id of [first.historyId, second.historyId]) {
                expect(await record(a, id)).to.include({ triage: 'unresolved', triageReason: 'handoff' });
            }
            // The customer's own yes stands.
            expect(await record(a, answered.historyId)).to.include({ triage: 'resolved', triageReason: 'customer_yes' });

            // The agent's transfer, with an agent available: the transfer answer and the session's earlier pending one.
            const agent = await connectAgent(t.url, a);
            clients.push(agent.client);
            await setAvailable(server, a, true);
            const before = await ask(a, 'widget_tr_transfer', 'What are your store hours?');
            const transfer = await ask(a, 'widget_tr_transfer', 'I want to talk to a human please');
            expect(transfer.fallbackAction).to.equal('live_chat');
            expect(await record(a, transfer.historyId)).to.include({ triage: 'unresolved', triageReason: 'handoff' });
            expect(await record(a, before.historyId)).to.include({ triage: 'unresolved', triageReason: 'handoff' });
            await setAvailable(server, a, false);
        });

        it('marks a session whose customer left a message for a person unresolved (nobody was available)', async () => {
            const answer = await ask(a, 'widget_tr_left', 'What are your store hours?');
            const res = await server.inject({ method: 'POST', url: '/api/chat/offline-message', headers: { ...widget(a), origin: 'http://localhost' },
                payload: { sessionId: 'widget_tr_left', email: 'kim@example.test', message: 'Are you open on the 26th?' } });
            expect(res.statusCode, res.payload).to.equal(201);
            expect(await record(a, answer.historyId)).to.include({ triage: 'unresolved', triageReason: 'handoff' });
        });

        it('resolves by silence: only once the session asked nothing more for the window, a follow-up keeping the earlier answer pending', async () => {
            expect(server.app.services.ai.resolvedAfterMs).to.equal(10 * 60_000);
            const q1 = await ask(a, 'widget_tr_quiet', 'What are your store hours?');
            const q2 = await ask(a, 'widget_tr_quiet', 'Do you offer free shipping?');
            await age(q1.historyId, 20);
            await age(q2.historyId, 3);
            await server.app.services.ai.sweepTriage(a.organization.id);
            expect(await record(a, q1.historyId), 'the session asked again 3 minutes ago').to.include({ triage: 'pending' });
            expect(await record(a, q2.historyId)).to.include({ triage: 'pending' });
            await age(q2.historyId, 11);
            // The history read runs the rule itself.
            expect(await record(a, q1.historyId)).to.include({ triage: 'resolved', triageReason: 'silence', isResolved: true });
            expect(await record(a, q2.historyId)).to.include({ triage: 'resolved', triageReason: 'silence' });
        });

        it('takes AI_RESOLVED_AFTER_MINUTES from the configuration, and its timer resolves a quiet answer by itself', async () => {
            const quick = await startTestServer({ env: { AI_RESOLVED_AFTER_MINUTES: '0.002' }, listen: true });
            try {
                expect(quick.server.app.services.ai.resolvedAfterMs).to.equal(120);
                const shop = await createTenant(quick.server, 'triagequick');
                await quick.server.app.services.ai.createKnowledge(shop.organization.id, { title: 'Hours', content: 'We are open 9 to 5 every day.' });
                const res = await quick.server.inject({ method: 'POST', url: '/api/ai/chat', headers: widget(shop), payload: { sessionId: 'widget_tr_timer', message: 'What are your hours?' } });
                const id = JSON.parse(res.payload).historyId as number;
                let row: { triage: string; triage_reason: string } | undefined;
                for (let i = 0; i < 40; i++) {
                    await new Promise((r) => setTimeout(r, 50));
                    row = await quick.server.app.db('ai_chat_history').where('id', id).first();
                    if (row?.triage !== 'pending') {
                        break;
                    }
                }
                expect(row).to.include({ triage: 'resolved', triage_reason: 'silence' });
            }
            finally {
                await quick.close();
            }
            for (const bad of ['0', 'soon', '-1']) {
                let message = '';
                try {
                    await startTestServer({ env: { AI_RESOLVED_AFTER_MINUTES: bad } });
                }
                catch (err) {
                    message = (err as Error).message;
                }
                expect(message, bad).to.contain('AI_RESOLVED_AFTER_MINUTES');
            }
        });
    });

    describe('bulk resolve (POST /api/ai/chat-history/resolve)', () => {
        it('resolves several answers in one call, each by staff', async () => {
            const ids = [];
            for (const q of ['What are your store hours?', 'Do you sell replacement parts for vintage typewriters?', 'Do you offer free shipping?']) {
                ids.push((await ask(a, 'widget_tr_bulk', q)).historyId);
            }
            const res = await resolveMany(a, { ids });
            expect(res.statusCode, res.payload).to.equal(200);
            const body = JSON.parse(res.payload) as { resolved: number; records: Rec[] };
            expect(body.resolved).to.equal(3);
            expect(body.records.map((r) => [r.id, r.triage, r.triageReason, r.isResolved]).sort()).to.deep.equal(ids.map((id) => [id, 'resolved', 'staff', true]).sort());
            for (const id of ids) {
                expect(await record(a, id)).to.include({ triage: 'resolved', triageReason: 'staff' });
            }
            // Again: nothing left to change, still 200.
            expect(JSON.parse((await resolveMany(a, { ids })).payload).resolved).to.equal(0);
        });

        it('refuses the whole call with 404 when one id is another store\'s (or none), and changes nothing', async () => {
            const mine = await ask(a, 'widget_tr_mixed', 'Do you sell replacement parts for vintage typewriters?');
            const theirs = await ask(b, 'widget_tr_theirs', 'Do you sell replacement parts for vintage typewriters?');
            for (const ids of [[mine.historyId, theirs.historyId], [mine.historyId, 2147483000]]) {
                const res = await resolveMany(a, { ids });
                expect(res.statusCode, res.payload).to.equal(404);
                expect(JSON.parse(res.payload)).to.include({ code: 'ai.history_not_found' });
                expect(res.payload).to.not.contain('widget_tr_theirs');
            }
            expect(await record(a, mine.historyId)).to.include({ triage: 'unresolved', triageReason: 'abstained' });
            expect(await record(b, theirs.historyId)).to.include({ triage: 'unresolved', triageReason: 'abstained' });
        });

        it('answers 400 with a code for bad input and stores nothing', async () => {
            const one = await ask(a, 'widget_tr_bad', 'Do you sell replacement parts for vintage typewriters?');
            const bad: unknown[] = [
                {}, { ids: [] }, { ids: 'all' }, { ids: ['x'] }, { ids: [one.historyId, one.historyId] }, { ids: [0] }, { ids: [-3] }, { ids: [1.5] },
                { ids: Array.from({ length: 201 }, (_, i) => i + 1) }, { ids: [one.historyId], extra: true }, { ids: [null] }
            ];
            for (const payload of bad) {
                const res = await resolveMany(a, payload);
                expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
                expect(JSON.parse(res.payload), JSON.stringify(payload)).to.include({ code: 'ai.bad_bulk_resolve' });
            }
            expect(await record(a, one.historyId)).to.include({ triage: 'unresolved' });
            // Only staff of the store: a widget key or no credentials are refused.
            expect((await server.inject({ method: 'POST', url: '/api/ai/chat-history/resolve', headers: widget(a), payload: { ids: [one.historyId] } })).statusCode).to.be.oneOf([401, 403]);
            expect((await server.inject({ method: 'POST', url: '/api/ai/chat-history/resolve', payload: { ids: [one.historyId] } })).statusCode).to.equal(401);
        });
    });

    it('reclassifies the rows an earlier version stored by the same rule, keeping every one (the migration)', async () => {
        const db = server.app.db;
        const org = (await createTenant(server, 'triagemig')).organization.id;
        await ask(a, 'widget_tr_mig', 'What are your store hours?');
        const count = async () => Number((await db('ai_chat_history').count({ n: '*' }))[0].n);
        const before = await count();
        await triageMigration.down(db);
        try {
            const now = Date.now();
            const row = (session: string | null, answer: string, fallback: string | null, resolved: boolean, minutesAgo: number) => ({
                organization_id: org, session_id: session, user_question: 'q', ai_response: answer, fallback_action: fallback,
                is_resolved: resolved, created_at: now - minutesAgo * 60_000
            });
            const abstain = 'I\'m not sure about that one. I can connect you with a member of our team, or you can pick one of the questions below.';
            await db('ai_chat_history').insert([
                row('widget_m_yes', 'We open at 9.', null, true, 60),            // customer_yes
                row(null, 'We open at 9.', null, true, 60),                      // staff (no widget session)
                row('widget_m_abs', abstain, 'live_chat', false, 60),            // abstained
                row('widget_m_hand', 'Connecting you now.', 'live_chat', false, 60), // handoff
                row('widget_m_tool', 'We open at 9.', null, false, 30),          // handoff: the session's transfer tool call
                row('widget_m_q', 'No agent is available.', 'questions', false, 60), // abstained
                row('widget_m_old', 'We open at 9.', null, false, 30),           // silence
                row('widget_m_new', 'We open at 9.', null, false, 2)             // pending
            ]);
            await db('ai_function_calls').insert({ organization_id: org, session_id: 'widget_m_tool', function_name: 'transfer', success: true, created_at: now - 29 * 60_000 });
        }
        finally {
            await triageMigration.up(db);
        }
        const rows = await db('ai_chat_history').where('organization_id', org).orderBy('id').select('session_id', 'triage', 'triage_reason', 'is_resolved');
        expect(rows.map((r) => [r.session_id, r.triage, r.triage_reason, !!r.is_resolved])).to.deep.equal([
            ['widget_m_yes', 'resolved', 'customer_yes', true],
            [null, 'resolved', 'staff', true],
            ['widget_m_abs', 'unresolved', 'abstained', false],
            ['widget_m_hand', 'unresolved', 'handoff', false],
            ['widget_m_tool', 'unresolved', 'handoff', false],
            ['widget_m_q', 'unresolved', 'abstained', false],
            ['widget_m_old', 'resolved', 'silence', true],
            ['widget_m_new', 'pending', null, false]
        ]);
        // Every row was kept, the other stores' too.
        expect(await count()).to.equal(before + 8);
    });
});
