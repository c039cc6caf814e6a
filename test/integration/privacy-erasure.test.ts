import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import type { Knex } from 'knex';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { importCustomers, lastCode } from '../helpers/loyalty';
import { createSession } from '../helpers/livechat-client';
import { personHash } from '../../core/privacy/personal-data';
import { signUserToken } from '../../core/auth/tokens';

/**
 * Issue 25, right of access and erasure: the same customer (one phone, one email) is planted in every table a
 * customer's data reaches, through the product's own calls (verification, SMS, analytics, the AI agent, a live chat
 * with its transcript, a left message and the reply mailed back), in two stores. The store's admin finds them,
 * exports them (every table in the JSON) and erases them: afterwards no row of that store anywhere in the database
 * names the phone (E.164 or national digits), the email or one of their widget sessions, while the other store's
 * rows about the same phone are all there. Runs on SQLite and (DATABASE_URL) PostgreSQL.
 */
describe('a customer\'s data: export and erasure over every table (issue 25)', function () {
    this.timeout(60000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    let superToken: string;
    const PHONE = '+15555550123';
    const NATIONAL = '5555550123';
    const EMAIL = 'robin.doe@example.test';
    const S1 = 'widget_1700000000000_robinverified';
    const S2 = 'widget_1700000000001_robinleftmsg';
    const widget = (tenant: Tenant, token?: string) => ({ 'x-widget-key': tenant.bot.publicKey, origin: 'http://localhost', ...(token ? bearer(token) : {}) });

    /** Everything a customer does in a store, through the product's calls. */
    async function plant(tenant: Tenant): Promise<void> {
        const org = tenant.organization.id;
        await importCustomers(server, org, [[PHONE, 'Robin Doe', EMAIL, 'L-77', 320]]);
        const [member] = await server.app.db('loyalty_customers').where({ organization_id: org, phone: PHONE });
        await server.app.db('loyalty_orders').insert({ organization_id: org, customer_id: member.id, order_ref: 'A-1', product_name: 'Blue jacket', quantity: 1, price_cents: 8900, order_date: Date.now() });
        // The AI first (before the phone is proved), then the phone step with its SMS code.
        expect((await server.inject({ method: 'POST', url: '/api/ai/chat', headers: widget(tenant), payload: { sessionId: S1, message: 'What are your store hours?' } })).statusCode).to.equal(200);
        expect((await server.inject({ method: 'POST', url: '/api/loyalty/verify', headers: widget(tenant), payload: { identifier: PHONE, sessionId: S1 } })).statusCode).to.equal(200);
        const code = await lastCode(server, PHONE);
        const view = await server.inject({ method: 'POST', url: '/api/loyalty/view', headers: widget(tenant), payload: { identifier: PHONE, code, sessionId: S1 } });
        expect(view.statusCode, view.payload).to.equal(200);
        const token = JSON.parse(view.payload).token as string;
        const asked = await server.inject({ method: 'POST', url: '/api/ai/chat', headers: widget(tenant, token), payload: { sessionId: S1, message: 'How many points do I have?' } });
        expect(asked.statusCode, asked.payload).to.equal(200);
        for (const action of ['widget_opened', 'verification_sent', 'points_retrieved']) {
            const res = await server.inject({ method: 'POST', url: '/api/analytics/track', headers: widget(tenant), payload: { sessionId: S1, action, phoneNumber: PHONE, success: true } });
            expect(res.statusCode, res.payload).to.equal(202);
        }
        // A live chat with its transcript mailed to the store, then a left message answered by email.
        await server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(tenant.admin.token), payload: { emailNotificationsEnabled: true, emailRecipient: `desk@${tenant.organization.subdomain}.test` } });
        await createSession(server, tenant, S1, 'My parcel never came', PHONE);
        const chat = server.app.services.livechat;
        const [live] = await server.app.db('chat_sessions').where({ organization_id: org, widget_session_id: S1 });
        const note = await server.inject({ method: 'POST', url: `/api/chat/session/${live.session_id}/notes`, headers: bearer(tenant.admin.token),
            payload: { text: `Robin asked us to write to ${EMAIL} instead`, clientNoteId: 'n1' } });
        expect(note.statusCode, note.payload).to.be.oneOf([200, 201]);
        await chat.end(org, live.session_id, 'customer');
        await chat.sendTranscript(org, live.session_id);
        const left = await server.inject({ method: 'POST', url: '/api/chat/offline-message', headers: widget(tenant),
            payload: { sessionId: S2, email: EMAIL, name: 'Robin', message: 'Please call me back' } });
        expect(left.statusCode, left.payload).to.equal(201);
        const leftId = JSON.parse(left.payload).sessionId as string;
        const reply = await server.inject({ method: 'POST', url: `/api/chat/left-messages/${leftId}/reply`, headers: bearer(tenant.admin.token), payload: { message: 'We will, Robin!', clientMessageId: 'r1' } });
        expect(reply.statusCode, reply.payload).to.be.oneOf([200, 201]);
        await server.app.jobs.drain();
    }

    /** Every row of a store, in every table of the database, that names the person: `table: n`. */
    async function traces(db: Knex, organizationId: number): Promise<Record<string, number>> {
        const needles = [PHONE, NATIONAL, EMAIL, S1, S2];
        const found: Record<string, number> = {};
        for (const { table, columns } of await schema(db)) {
            if (!columns.includes('organization_id')) {
                continue;
            }
            const rows = await db(table).where('organization_id', organizationId);
            const n = rows.filter((row: Record<string, unknown>) => Object.values(row).some((v) => typeof v === 'string' && needles.some((x) => v.includes(x)))).length;
            if (n) {
                found[table] = n;
            }
        }
        // Child tables that reach the store through their parent.
        const orders = await db('loyalty_orders').join('loyalty_customers', 'loyalty_customers.id', 'loyalty_orders.customer_id')
            .where('loyalty_customers.organization_id', organizationId).where('loyalty_customers.phone', PHONE).count({ n: '*' });
        if (Number(orders[0].n)) {
            found['loyalty_orders (by member)'] = Number(orders[0].n);
        }
        return found;
    }

    before(async () => {
        t = await startTestServer({ listen: true });
        server = t.server;
        a = await createTenant(server, 'erasea');
        b = await createTenant(server, 'eraseb');
        const root = await server.app.services.users.create({ email: 'root@erase.test', password: 'root-password-1', role: 'super_admin' });
        superToken = signUserToken(server.app.config.jwtSecret, { id: root.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
        await plant(a);
        await plant(b);
    });
    after(async () => t?.close());

    it('finds the customer in every table of every plugin that keeps customers\' data', async () => {
        const res = await server.inject({ method: 'POST', url: '/api/privacy/customers/find', headers: bearer(a.admin.token), payload: { phone: '(555) 555-0123', email: EMAIL } });
        expect(res.statusCode, res.payload).to.equal(200);
        const found = JSON.parse(res.payload);
        expect(found).to.include({ phone: PHONE, email: EMAIL, subject: personHash(server.app.config.jwtSecret, { phone: PHONE }) });
        expect(Object.keys(found.counts).sort()).to.deep.equal([
            'ai.ai_chat_history', 'ai.ai_function_calls', 'analytics.analytics_events', 'analytics.analytics_phone_daily', 'analytics.analytics_phones',
            'livechat.chat_messages', 'livechat.chat_notes', 'livechat.chat_sessions', 'livechat.email_outbox',
            'loyalty.loyalty_customers', 'loyalty.loyalty_orders', 'loyalty.sms_outbox', 'loyalty.verification_codes', 'loyalty.widget_sessions'
        ]);
        expect(found.counts['livechat.chat_sessions'], 'the live chat and the left message').to.equal(2);
        expect(found.counts['ai.ai_chat_history'], 'the question before the phone step too (same widget session)').to.equal(2);
        // By email alone: the left message and its mails, the member record (its email), and what they lead to.
        const byEmail = JSON.parse((await server.inject({ method: 'POST', url: '/api/privacy/customers/find', headers: bearer(a.admin.token), payload: { email: 'Robin.Doe@example.test' } })).payload);
        expect(byEmail.counts).to.include.keys('livechat.chat_sessions', 'livechat.email_outbox', 'loyalty.loyalty_customers');
    });

    it('exports every row about them as one JSON file, without the code hashes, and audits it', async () => {
        const res = await server.inject({ method: 'POST', url: '/api/privacy/customers/export', headers: bearer(a.admin.token), payload: { phone: PHONE, email: EMAIL } });
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.headers['content-disposition']).to.match(/^attachment; filename="customer-export-\d{4}-\d{2}-\d{2}\.json"$/);
        const doc = JSON.parse(res.payload);
        expect(doc).to.include({ format: 'loyalty-chat customer export', version: 1 });
        expect(doc.person).to.deep.equal({ phone: PHONE, email: EMAIL });
        expect(doc.data['livechat.chat_messages'].map((m: { message: string }) => m.message)).to.include.members(['My parcel never came', 'Please call me back', 'We will, Robin!']);
        expect(doc.data['loyalty.loyalty_orders'][0]).to.include({ product_name: 'Blue jacket' });
        expect(doc.data['loyalty.verification_codes'][0]).to.not.have.property('code_hash');
        expect(JSON.stringify(doc), 'nothing of the other store').to.not.include(`desk@eraseb.test`);
        const audit = JSON.parse((await server.inject({ url: '/api/privacy/audit?action=customers', headers: bearer(a.admin.token) })).payload);
        expect(audit.rows[0]).to.include({ action: 'customers.export', actorRole: 'admin', organizationId: a.organization.id, subjectHash: personHash(server.app.config.jwtSecret, { phone: PHONE }) });
        expect(JSON.stringify(audit.rows[0]), 'the trail names the person by a hash only').to.not.include(NATIONAL).and.not.include(EMAIL);
    });

    it('refuses an erasure without confirmation, or of nobody, with a 400 and erases nothing', async () => {
        const before = await traces(server.app.db, a.organization.id);
        for (const payload of [{ phone: PHONE }, { phone: PHONE, confirm: false }, { confirm: true }, { phone: 'call me', confirm: true }, { email: 'nope', confirm: true }]) {
            const res = await server.inject({ method: 'POST', url: '/api/privacy/customers/erase', headers: bearer(a.admin.token), payload });
            expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
            expect(JSON.parse(res.payload).message).to.be.a('string').and.not.equal('');
        }
        expect(await traces(server.app.db, a.organization.id)).to.deep.equal(before);
    });

    it('erases them from every table of the store, leaves the other store\'s rows, and audits it by a hash', async () => {
        const other = await traces(server.app.db, b.organization.id);
        expect(Object.keys(other).length, JSON.stringify(other)).to.be.at.least(8);
        const res = await server.inject({ method: 'POST', url: '/api/privacy/customers/erase', headers: bearer(a.admin.token), payload: { phone: PHONE, email: EMAIL, confirm: true } });
        expect(res.statusCode, res.payload).to.equal(200);
        const result = JSON.parse(res.payload);
        expect(result.total).to.be.greaterThan(20);
        expect(await traces(server.app.db, a.organization.id), 'nothing of the store names them').to.deep.equal({});
        expect(await traces(server.app.db, b.organization.id), 'the other store keeps its own').to.deep.equal(other);
        const find = JSON.parse((await server.inject({ method: 'POST', url: '/api/privacy/customers/find', headers: bearer(a.admin.token), payload: { phone: PHONE, email: EMAIL } })).payload);
        expect(find.total).to.equal(0);
        // The console's history and the analytics Phones list no longer show them.
        const history = await server.inject({ url: '/api/chat/history?pageSize=100&archived=include', headers: bearer(a.admin.token) });
        expect(history.statusCode, history.payload).to.equal(200);
        expect(history.payload).to.not.include(PHONE).and.not.include(EMAIL);
        const otherHistory = await server.inject({ url: '/api/chat/history?pageSize=100&archived=include', headers: bearer(b.admin.token) });
        expect(otherHistory.payload, 'the same request shows them in the other store (the check can fail)').to.include(PHONE);
        // Nor does its message search (issue 28), and the full-text index lost their words: on SQLite the FTS5 table is
        // asked directly (an index row left behind would still be found there), on PostgreSQL the column went with the row.
        const searched = async (tenant: Tenant) => JSON.parse((await server.inject({ url: '/api/chat/history?q=parcel&archived=include', headers: bearer(tenant.admin.token) })).payload);
        expect((await searched(a)).total).to.equal(0);
        expect((await searched(b)).total, 'the other store still finds its chat by the word').to.equal(1);
        const indexed = /sqlite/.test(String(server.app.db.client.config.client))
            ? await server.app.db.raw(`select count(*) as n from chat_messages_fts where chat_messages_fts match 'parcel'`)
            : (await server.app.db.raw(`select count(*) as n from chat_messages where search_vector @@ to_tsquery('lc_search', 'parcel')`)).rows;
        expect(Number(indexed[0].n), 'the index holds the other store\'s message only').to.equal(1);
        const phones = await server.inject({ url: '/api/analytics/phones?days=30', headers: bearer(a.admin.token) });
        expect(phones.statusCode, phones.payload).to.equal(200);
        expect(phones.payload).to.not.include(PHONE);
        expect((await server.inject({ url: '/api/analytics/phones?days=30', headers: bearer(b.admin.token) })).payload).to.include(PHONE);
        const audit = JSON.parse((await server.inject({ url: '/api/privacy/audit?action=customers.erase', headers: bearer(a.admin.token) })).payload);
        expect(audit.rows).to.have.length(1);
        expect(audit.rows[0]).to.include({ subjectHash: personHash(server.app.config.jwtSecret, { phone: PHONE }) });
        expect(audit.rows[0].details).to.include({ rows: result.total });
    });

    it('lets only the store\'s admins and super admins do it: another store\'s admin gets 404, an organization user is refused', async () => {
        const other = await server.inject({ method: 'POST', url: '/api/privacy/customers/find', headers: bearer(b.admin.token), payload: { organizationId: a.organization.id, phone: PHONE } });
        expect(other.statusCode).to.equal(404);
        const orgUser = await server.inject({ method: 'POST', url: '/api/privacy/customers/find', headers: bearer(a.orgUser.token), payload: { phone: PHONE } });
        expect(orgUser.statusCode, 'an organization user is not admitted').to.be.oneOf([401, 403]);
        const superAdmin = await server.inject({ method: 'POST', url: '/api/privacy/customers/find', headers: bearer(superToken), payload: { organizationId: b.organization.id, phone: PHONE } });
        expect(superAdmin.statusCode, superAdmin.payload).to.equal(200);
        expect(JSON.parse(superAdmin.payload).total).to.be.greaterThan(0);
        const noStore = await server.inject({ method: 'POST', url: '/api/privacy/customers/find', headers: bearer(superToken), payload: { phone: PHONE } });
        expect(noStore.statusCode).to.equal(400);
    });

    it('has a holder for every table that can hold a customer\'s data (a new table fails here until it is covered)', async () => {
        const covered = new Set(server.app.personalData.tables);
        /** Tables with a person-like column that are not customers' data, and why. */
        const notCustomers: Record<string, string> = {
            users: 'staff accounts (the store\'s own people)',
            email_settings: 'the store\'s own recipient address',
            organizations: 'the store',
            bot_instances: 'the store\'s widgets',
            agent_connections: 'staff sockets',
            agent_presence: 'staff presence',
            audit_log: 'names people by a keyed hash only; kept per retention',
            knowledge_entries: 'the store\'s content',
            premade_questions: 'the store\'s content',
            analytics_question_daily: 'counts per question and day, no person',
            loyalty_provider_settings: 'the store\'s provider account'
        };
        const personLike = /phone|email|session_id|customer|message|question|to_address|ip$|name/;
        const uncovered = (await schema(server.app.db))
            .filter(({ table, columns }) => columns.some((c) => personLike.test(c)) && !covered.has(table) && !(table in notCustomers))
            .map(({ table }) => table);
        expect(uncovered, 'tables with customers\' data that no plugin answers for').to.deep.equal([]);
    });
});

/** Every table of the database with its columns (SQLite or PostgreSQL), but the migration bookkeeping. */
async function schema(db: Knex): Promise<Array<{ table: string; columns: string[] }>> {
    if (/sqlite/.test(String(db.client.config.client))) {
        const tables = await db.raw(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'knex_%'`) as Array<{ name: string }>;
        const out = [];
        for (const { name } of tables) {
            out.push({ table: name, columns: (await db.raw('pragma table_info(??)', [name]) as Array<{ name: string }>).map((c) => c.name) });
        }
        return out;
    }
    const rows = (await db.raw(`select table_name as "table", column_name as "column" from information_schema.columns where table_schema = current_schema() and table_name not like 'knex_%'`)).rows as Array<{ table: string; column: string }>;
    const by = new Map<string, string[]>();
    for (const r of rows) {
        by.set(r.table, [...by.get(r.table) ?? [], r.column]);
    }
    return [...by].map(([table, columns]) => ({ table, columns }));
}
