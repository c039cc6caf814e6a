import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';

/**
 * Issue 25, retention per store: each kind (chats, AI history, verifications, analytics, mails, audit) kept the
 * number of days the store chose (null: forever); one run deletes exactly what is past its window — a day older
 * goes, a day younger stays, a chat still open stays whatever its age — and nothing of another store.
 */
describe('retention per store (issue 25)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    const DAY = 24 * 3600 * 1000;
    const NOW = Date.UTC(2026, 10, 27, 12);
    const ago = (days: number) => NOW - days * DAY;

    /** Rows of every kind at `days` ago, in a store; the session ids tell them apart. */
    async function plant(tenant: Tenant, days: number, tag: string): Promise<void> {
        const db = server.app.db;
        const org = tenant.organization.id;
        const at = ago(days);
        const [chat] = await db('chat_sessions').insert({ organization_id: org, session_id: `chat_${tag}`, widget_session_id: `widget_${tag}`, phone_number: 'Unknown', status: 'completed', last_seq: 1, ended_at: at, created_at: at, updated_at: at, is_starred: false, is_archived: false }).returning('id');
        await db('chat_messages').insert({ organization_id: org, chat_session_id: typeof chat === 'object' ? chat.id : chat, seq: 1, sender: 'customer', message: `hello ${tag}`, created_at: at });
        await db('ai_chat_history').insert({ organization_id: org, session_id: `widget_${tag}`, user_question: 'q', ai_response: 'a', is_resolved: false, created_at: at });
        await db('verification_codes').insert({ organization_id: org, phone: '+15555550140', code_hash: 'x', session_id: `widget_${tag}`, attempts: 0, expires_at: at + 600_000, created_at: at });
        await db('sms_outbox').insert({ organization_id: org, to_phone: '+15555550140', body: `code ${tag}`, provider: 'outbox', status: 'stored', created_at: at });
        await db('analytics_events').insert({ organization_id: org, session_id: `widget_${tag}`, action: 'widget_opened', domain: 'x.test', created_at: at });
        await db('email_outbox').insert({ organization_id: org, to_address: 'desk@x.test', subject: `mail ${tag}`, body_text: 'b', transport: 'outbox', status: 'stored', created_at: at });
        await db('audit_log').insert({ organization_id: org, action: 'knowledge.update', target: tag, created_at: at });
    }
    async function left(tenant: Tenant): Promise<Record<string, string[]>> {
        const db = server.app.db;
        const org = tenant.organization.id;
        const col = async (table: string, column: string) => (await db(table).where('organization_id', org).orderBy(column)).map((r: Record<string, string>) => r[column]);
        return {
            chats: await col('chat_sessions', 'session_id'),
            messages: await col('chat_messages', 'message'),
            ai: await col('ai_chat_history', 'session_id'),
            verifications: await col('verification_codes', 'session_id'),
            sms: await col('sms_outbox', 'body'),
            analytics: await col('analytics_events', 'session_id'),
            mail: await col('email_outbox', 'subject'),
            audit: await col('audit_log', 'target')
        };
    }

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'retaina');
        b = await createTenant(server, 'retainb');
    });
    after(async () => t?.close());

    it('answers the defaults, stores a store\'s windows (null: forever) and refuses bad ones with a 400, changing nothing', async () => {
        const got = await server.inject({ url: '/api/privacy/retention', headers: bearer(a.admin.token) });
        expect(got.statusCode).to.equal(200);
        const policy = JSON.parse(got.payload);
        expect(policy).to.include({ chats: 730, ai: 365, verifications: 90, mail: 90, audit: 730 });
        expect(policy.defaults).to.include({ chats: 730 });
        for (const payload of [{}, { chats: 0 }, { chats: -3 }, { ai: 'a week' }, { chats: 30, nonsense: 1 }, { audit: 36501 }]) {
            const res = await server.inject({ method: 'PUT', url: '/api/privacy/retention', headers: bearer(a.admin.token), payload });
            expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
        }
        expect(JSON.parse((await server.inject({ url: '/api/privacy/retention', headers: bearer(a.admin.token) })).payload)).to.deep.equal(policy);
        const put = await server.inject({ method: 'PUT', url: '/api/privacy/retention', headers: bearer(a.admin.token),
            payload: { chats: 30, ai: 10, verifications: 7, analytics: 60, mail: null, audit: 365 } });
        expect(put.statusCode, put.payload).to.equal(200);
        expect(JSON.parse(put.payload)).to.include({ chats: 30, ai: 10, verifications: 7, analytics: 60, mail: null, audit: 365 });
        // A partial change keeps the rest.
        const partial = await server.inject({ method: 'PUT', url: '/api/privacy/retention', headers: bearer(a.admin.token), payload: { verifications: 8 } });
        expect(JSON.parse(partial.payload)).to.include({ chats: 30, verifications: 8, mail: null });
        expect((await server.inject({ url: '/api/privacy/retention', headers: bearer(a.orgUser.token) })).statusCode).to.be.oneOf([401, 403]);
        // The change is in the audit trail.
        const trail = JSON.parse((await server.inject({ url: '/api/privacy/audit?action=settings.retention', headers: bearer(a.admin.token) })).payload);
        expect(trail.rows).to.have.length(2);
    });

    it('deletes exactly what is past each window, keeps open chats and "forever", and leaves the other store alone', async () => {
        // Store A: chats 30, ai 10, verifications 8, analytics 60, mail forever, audit 365 (the test above).
        for (const [days, tag] of [[5, 'd5'], [9, 'd9'], [11, 'd11'], [29, 'd29'], [31, 'd31'], [61, 'd61'], [400, 'd400']] as const) {
            await plant(a, days, `a_${tag}`);
            await plant(b, days, `b_${tag}`);
        }
        // A chat still waiting, 100 days old: an open chat is never cut.
        await server.app.db('chat_sessions').insert({ organization_id: a.organization.id, session_id: 'chat_a_open', phone_number: 'Unknown', status: 'waiting', last_seq: 0, created_at: ago(100), updated_at: ago(100), is_starred: false, is_archived: false });
        const bBefore = await left(b);
        const done = await server.app.services.privacy.runRetention(NOW, a.organization.id);
        const after = await left(a);
        expect(after.chats).to.deep.equal(['chat_a_d11', 'chat_a_d29', 'chat_a_d5', 'chat_a_d9', 'chat_a_open']);
        expect(after.messages).to.deep.equal(['hello a_d11', 'hello a_d29', 'hello a_d5', 'hello a_d9']);
        expect(after.ai).to.deep.equal(['widget_a_d5', 'widget_a_d9']);
        expect(after.verifications).to.deep.equal(['widget_a_d5']);
        expect(after.sms).to.deep.equal(['code a_d5']);
        expect(after.analytics).to.deep.equal(['widget_a_d11', 'widget_a_d29', 'widget_a_d31', 'widget_a_d5', 'widget_a_d9']);
        expect(after.mail, 'forever').to.have.length(7);
        expect(after.audit.filter((x) => x?.startsWith('a_'))).to.deep.equal(['a_d11', 'a_d29', 'a_d31', 'a_d5', 'a_d61', 'a_d9']);
        expect(done[a.organization.id]).to.deep.include({ 'livechat.chat_sessions': 3, 'livechat.chat_messages': 3, 'ai.ai_chat_history': 5, 'loyalty.verification_codes': 6, 'loyalty.sms_outbox': 6, 'analytics.analytics_events': 2, 'privacy.audit_log': 1 });
        expect(await left(b), 'the other store keeps everything').to.deep.equal(bBefore);

        // Store B on the defaults: the 400-day rows go (but chats, kept 730 days).
        await server.app.services.privacy.runRetention(NOW, b.organization.id);
        const bAfter = await left(b);
        expect(bAfter.chats).to.include('chat_b_d400');
        expect(bAfter.ai).to.not.include('widget_b_d400');
        expect(bAfter.verifications).to.deep.equal(['widget_b_d11', 'widget_b_d29', 'widget_b_d31', 'widget_b_d5', 'widget_b_d61', 'widget_b_d9']);
    });
});
