import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { parseCsv } from '../../core/shared/csv';

/** Text a customer could type that a spreadsheet would run: a sign, digits, then a DDE formula (issue 25, fix 2). */
const PAYLOAD = "-1+cmd|'/C calc'!A0";

/** A cell a spreadsheet would read as a formula (OWASP CSV injection): =, +, -, @, tab or CR first. */
const FORMULA = /^[=+\-@\t\r]/;

describe('the analytics CSV export against formula injection (OWASP)', function () {
    this.timeout(30000);
    let t: TestServer;
    let shop: Tenant;

    const widget = (url: string, payload: object, ip: string) => t.server.inject({
        method: 'POST', url, payload, remoteAddress: ip, headers: { 'x-widget-key': shop.bot.publicKey }
    });

    before(async () => {
        t = await startTestServer();
        shop = await createTenant(t.server, 'csvinj', 'csvinj.test');
    });
    after(async () => {
        await t?.close();
    });

    it('stores no phone typed as "-1+cmd|\'/C calc\'!A0" (only E.164 numbers are phones), so /api/analytics/export/chat-sessions carries none', async () => {
        const created = await widget('/api/chat/create-session', { sessionId: 'widget_1_csvlive', phoneNumber: PAYLOAD, customerMessage: '=1+1' }, '10.25.0.1');
        expect(created.statusCode, created.payload).to.equal(201);
        const left = await widget('/api/chat/offline-message', { sessionId: 'widget_1_csvoff', email: 'jo@example.test', message: '@SUM(1)', phoneNumber: PAYLOAD }, '10.25.0.2');
        expect(left.statusCode, left.payload).to.equal(201);

        const res = await t.server.inject({ method: 'GET', url: '/api/analytics/export/chat-sessions?days=7', headers: bearer(shop.admin.token) });
        expect(res.statusCode).to.equal(200);
        const rows = parseCsv(res.payload).map((r) => r.fields);
        // The header and the live chat: a left message is not a chat session (issue 23), so it is not in this export.
        expect(rows.length).to.equal(2);
        expect(res.payload).to.not.include('calc');
        for (const row of rows) {
            for (const cell of row) {
                expect(FORMULA.test(cell), `cell ${JSON.stringify(cell)}`).to.equal(false);
            }
        }
    });

    it('defuses formula cells in free text that does reach an export (a question clicked in the widget, /export/questions)', async () => {
        const q = await t.server.inject({ method: 'POST', url: '/api/questions', headers: bearer(shop.admin.token), payload: { question: PAYLOAD, answer: '=HYPERLINK("http://x.test")' } });
        expect(q.statusCode, q.payload).to.equal(201);
        const id = JSON.parse(q.payload).id as number;
        await t.server.app.services.analytics.track({ organizationId: shop.organization.id, action: 'question_clicked', questionId: id, domain: 'csvinj.test' });

        // The click is ingested by a job (Bull with Redis): the export shows it once that ran.
        let res = await t.server.inject({ method: 'GET', url: '/api/analytics/export/questions?days=7', headers: bearer(shop.admin.token) });
        for (const until = Date.now() + 10_000; parseCsv(res.payload).length < 2 && Date.now() < until;) {
            await new Promise((r) => setTimeout(r, 50));
            res = await t.server.inject({ method: 'GET', url: '/api/analytics/export/questions?days=7', headers: bearer(shop.admin.token) });
        }
        expect(res.statusCode).to.equal(200);
        const rows = parseCsv(res.payload).map((r) => r.fields);
        expect(rows.length, res.payload).to.equal(2);
        const header = rows[0];
        expect(rows[1][header.indexOf('question')]).to.equal(`'${PAYLOAD}`);
        expect(rows[1][header.indexOf('answer')]).to.equal(`'=HYPERLINK("http://x.test")`);
        for (const row of rows) {
            for (const cell of row) {
                expect(FORMULA.test(cell), `cell ${JSON.stringify(cell)}`).to.equal(false);
            }
        }
    });
});
