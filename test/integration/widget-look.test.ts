import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';

describe('a bot instance\'s widget look (PUT /api/widget/bots/{id}/look, issue 11)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    const put = (tenant: Tenant, botId: number, payload: unknown) => server.inject({
        method: 'PUT', url: `/api/widget/bots/${botId}/look`, payload: payload as object, headers: bearer(tenant.admin.token)
    });

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'looka', 'looka.test');
        b = await createTenant(server, 'lookb', 'lookb.test');
    });
    after(async () => t?.close());

    it('starts with the defaults, saves a look, and the served widget carries it', async () => {
        const before = await server.app.services.tenants.getBotInstance(a.bot.id);
        expect(before!.look).to.deep.equal({ color: null, position: 'right', title: null, greeting: null, texts: {}, privacy: null, privacyUrl: null });
        const res = await put(a, a.bot.id, { color: '#7F1D1D', position: 'left', title: 'Help desk', greeting: 'Hola! ¿En qué podemos ayudarte?', texts: {} });
        expect(res.statusCode, res.payload).to.equal(200);
        expect((res.result as any).look).to.deep.equal({ color: '#7f1d1d', position: 'left', title: 'Help desk', greeting: 'Hola! ¿En qué podemos ayudarte?', texts: {}, privacy: null, privacyUrl: null });
        const script = await server.inject({ url: '/widget-looka.js', headers: { host: 'chat.example.com' } });
        if (script.statusCode === 200) {
            const config = JSON.parse(script.payload.match(/^window\.__loyaltyChatWidget=(\{.*?\});\n/)![1]);
            expect(config.look).to.deep.equal({ color: '#7f1d1d', position: 'left', title: 'Help desk', greeting: 'Hola! ¿En qué podemos ayudarte?', texts: {}, privacy: null, privacyUrl: null });
        }
        const reset = await put(a, a.bot.id, {});
        expect((reset.result as any).look).to.deep.equal({ color: null, position: 'right', title: null, greeting: null, texts: {}, privacy: null, privacyUrl: null });
    });

    it('keeps the store\'s privacy line per language and its policy address, and refuses an address that is no web page (issue 25)', async () => {
        const res = await put(a, a.bot.id, {
            privacy: 'We keep chats for 2 years to answer you.', privacyUrl: 'https://looka.test/privacy',
            texts: { es: { title: null, greeting: null, privacy: 'Guardamos los chats 2 años para responderte.' } }
        });
        expect(res.statusCode, res.payload).to.equal(200);
        expect((res.result as any).look).to.include({ privacy: 'We keep chats for 2 years to answer you.', privacyUrl: 'https://looka.test/privacy' });
        expect((res.result as any).look.texts.es.privacy).to.equal('Guardamos los chats 2 años para responderte.');
        for (const privacyUrl of ['javascript:alert(1)', 'data:text/html,hi', 'not a url', 'ftp://looka.test/p']) {
            const bad = await put(a, a.bot.id, { privacy: 'changed', privacyUrl });
            expect(bad.statusCode, privacyUrl).to.equal(400);
            expect(JSON.parse(bad.payload).message).to.equal('"privacyUrl" must be a web address (https://…)');
        }
        expect((await server.app.services.tenants.getBotInstance(a.bot.id))!.look).to.include({ privacy: 'We keep chats for 2 years to answer you.' });
        expect((await put(a, a.bot.id, { privacy: 'x'.repeat(301) })).statusCode).to.equal(400);
        await put(a, a.bot.id, {});
    });

    it('refuses a colour white text cannot be read on, a bad colour or side, with 400 and nothing stored', async () => {
        await put(a, a.bot.id, { color: '#1d4ed8' });
        for (const [payload, message] of [
            [{ color: '#fde047' }, '"color" is too light: white text on it must have a contrast of at least 4.5:1'],
            [{ color: 'red' }, '"color" must be a colour like #1d4ed8'],
            [{ position: 'top' }, '"position" must be one of [left, right]'],
            [{ title: 'x'.repeat(81) }, '"title" length must be less than or equal to 80 characters long'],
            [{ shadow: true }, '"shadow" is not allowed']
        ] as const) {
            const res = await put(a, a.bot.id, payload);
            expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
            expect(JSON.parse(res.payload).message).to.equal(message);
        }
        expect((await server.app.services.tenants.getBotInstance(a.bot.id))!.look.color).to.equal('#1d4ed8');
    });

    it('lets only the organization\'s admins change it: another store\'s bot answers 404, an org user or a widget key is refused', async () => {
        const foreign = await put(a, b.bot.id, { color: '#7f1d1d' });
        expect(foreign.statusCode).to.equal(404);
        expect((await server.app.services.tenants.getBotInstance(b.bot.id))!.look.color).to.equal(null);
        const orgUser = await server.inject({ method: 'PUT', url: `/api/widget/bots/${a.bot.id}/look`, payload: {}, headers: bearer(a.orgUser.token) });
        expect([401, 403]).to.include(orgUser.statusCode);
        const widget = await server.inject({ method: 'PUT', url: `/api/widget/bots/${a.bot.id}/look`, payload: {}, headers: { 'x-widget-key': a.bot.publicKey } });
        expect([401, 403]).to.include(widget.statusCode);
        const anonymous = await server.inject({ method: 'PUT', url: `/api/widget/bots/${a.bot.id}/look`, payload: {} });
        expect(anonymous.statusCode).to.equal(401);
    });
});
