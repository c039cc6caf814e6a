import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { CLIENT_ROUTES, SUPPORT_EMAIL_META } from '../../plugins/web';

/** Issue 23's small items: the console's History page and the favicon answer 200; answers optional where never shown; SUPPORT_EMAIL. */
describe('pages, favicon, optional answers and the support address (issue 23)', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;

    before(async () => {
        t = await startTestServer({ env: { SUPPORT_EMAIL: 'help@loyalty.example' } });
        server = t.server;
        a = await createTenant(server, 'pagesa');
    });
    after(async () => t?.close());

    it('answers /admin-chat/history loaded directly with 200 and the app, as every client route; an unknown page still 404', async () => {
        expect(CLIENT_ROUTES).to.include('/admin-chat/history');
        for (const url of ['/admin-chat/history', '/admin-chat/history/', '/admin-chat']) {
            const res = await server.inject(url);
            expect(res.statusCode, url).to.equal(200);
            expect(res.headers['content-type']).to.match(/^text\/html/);
        }
        expect((await server.inject('/admin-chat/histories')).statusCode).to.equal(404);
    });

    it('serves /favicon.ico: a real 32×32 icon, cacheable, to anyone', async () => {
        const res = await server.inject('/favicon.ico');
        expect(res.statusCode).to.equal(200);
        expect(res.headers['content-type']).to.equal('image/x-icon');
        expect(String(res.headers['cache-control'])).to.match(/max-age=\d+/);
        const ico = res.rawPayload;
        expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)], 'ICONDIR: reserved, icon, one image').to.deep.equal([0, 1, 1]);
        expect([ico[6], ico[7], ico.readUInt16LE(12)]).to.deep.equal([32, 32, 32]);
        expect(ico.readUInt32LE(18) + ico.readUInt32LE(14)).to.equal(ico.length);
    });

    it('puts SUPPORT_EMAIL into the pages for the org login\'s contact link, escaped, and nothing when unset', async () => {
        const page = (await server.inject('/org-login')).payload;
        expect(page).to.contain(`<meta name="${SUPPORT_EMAIL_META}" content="help@loyalty.example">`);
        const bare = await startTestServer();
        try {
            expect((await bare.server.inject('/org-login')).payload).to.not.contain(SUPPORT_EMAIL_META);
        }
        finally {
            await bare.close();
        }
        let message = '';
        try {
            await startTestServer({ env: { SUPPORT_EMAIL: 'not an address' } });
        }
        catch (err) {
            message = (err as Error).message;
        }
        expect(message).to.contain('SUPPORT_EMAIL');
    });

    describe('a question\'s answer', () => {
        const post = (payload: object) => server.inject({ method: 'POST', url: '/api/questions', headers: bearer(a.admin.token), payload });
        const put = (id: number, payload: object) => server.inject({ method: 'PUT', url: `/api/questions/${id}`, headers: bearer(a.admin.token), payload });
        const count = async () => (await server.app.services.questions.list(a.organization.id)).length;

        it('may be left out for the loyalty-check and live-support kinds, whose answer the widget never shows', async () => {
            for (const [kind, question] of [['loyalty_check', 'Check my points'], ['live_support', 'Talk to us']]) {
                for (const payload of [{ question, kind }, { question, kind, answer: '' }, { question, kind, answer: '   ' }]) {
                    const res = await post(payload);
                    expect(res.statusCode, `${JSON.stringify(payload)}: ${res.payload}`).to.equal(201);
                    expect(JSON.parse(res.payload)).to.include({ question, kind, answer: '' });
                }
            }
        });

        it('is required for a plain question that shows its answer (400 with a code, nothing stored), also when editing', async () => {
            const before = await count();
            for (const payload of [{ question: 'Do you deliver?' }, { question: 'Do you deliver?', kind: 'answer' }, { question: 'Do you deliver?', kind: 'answer', answer: ' ' }]) {
                const res = await post(payload);
                expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
                expect(JSON.parse(res.payload)).to.include({ code: 'questions.answer_required' });
            }
            expect(await count()).to.equal(before);

            // A points question without an answer cannot become a plain one without getting an answer.
            const points = JSON.parse((await post({ question: 'My points?', kind: 'loyalty_check' })).payload) as { id: number };
            const refused = await put(points.id, { kind: 'answer' });
            expect(refused.statusCode).to.equal(400);
            expect(JSON.parse(refused.payload)).to.include({ code: 'questions.answer_required' });
            expect((await server.app.services.questions.list(a.organization.id)).find((q) => q.id === points.id)).to.include({ kind: 'loyalty_check', answer: '' });
            const ok = await put(points.id, { kind: 'answer', answer: 'You have points.' });
            expect(ok.statusCode, ok.payload).to.equal(200);
            const plain = JSON.parse((await post({ question: 'Hours?', answer: 'Nine to five.' })).payload) as { id: number };
            expect((await put(plain.id, { answer: '' })).statusCode).to.equal(400);
            expect((await put(plain.id, { kind: 'live_support', answer: '' })).statusCode).to.equal(200);
        });
    });
});
