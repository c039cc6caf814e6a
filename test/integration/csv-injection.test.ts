import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { parseCsv } from '../../core/shared/csv';

/** A phone a customer typed that a spreadsheet would run: a sign, digits, then a DDE formula (issue 25, fix 2). */
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

    it('defuses a phone typed as "-1+cmd|\'/C calc\'!A0" into create-session and offline-message in /api/analytics/export/chat-sessions', async () => {
        const created = await widget('/api/chat/create-session', { sessionId: 'widget_1_csvlive', phoneNumber: PAYLOAD, customerMessage: '=1+1' }, '10.25.0.1');
        expect(created.statusCode, created.payload).to.equal(201);
        const left = await widget('/api/chat/offline-message', { sessionId: 'widget_1_csvoff', email: 'jo@example.test', message: '@SUM(1)', phoneNumber: PAYLOAD }, '10.25.0.2');
        expect(left.statusCode, left.payload).to.equal(201);

        const res = await t.server.inject({ method: 'GET', url: '/api/analytics/export/chat-sessions?days=7', headers: bearer(shop.admin.token) });
        expect(res.statusCode).to.equal(200);
        const rows = parseCsv(res.payload).map((r) => r.fields);
        const header = rows[0];
        const phones = rows.slice(1).map((r) => r[header.indexOf('phoneNumber')]);
        expect(phones).to.have.length(2);
        expect(phones).to.deep.equal([`'${PAYLOAD}`, `'${PAYLOAD}`]);
        for (const row of rows) {
            for (const cell of row) {
                expect(FORMULA.test(cell), `cell ${JSON.stringify(cell)}`).to.equal(false);
            }
        }
    });
});
