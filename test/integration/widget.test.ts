import { expect } from 'chai';
import * as Fs from 'fs';
import * as Path from 'path';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { PUBLIC_DIR } from '../../core/paths';

const WIDGET_DIR = Path.join(PUBLIC_DIR, 'widget');

describe('serving the widget (/widget-{subdomain}.js) and the demo storefront', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;

    before(async function () {
        if (!Fs.existsSync(Path.join(WIDGET_DIR, 'loader.js'))) {
            throw new Error('The widget is not built: run npm run build first');
        }
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'serve', 'serve.test');
    });
    after(async () => t?.close());

    it('serves the loader with the store\'s public settings and a short cache', async () => {
        const res = await server.inject({ url: '/widget-serve.js', headers: { host: 'chat.example.com:8080' } });
        expect(res.statusCode).to.equal(200);
        expect(res.headers['content-type']).to.match(/^application\/javascript/);
        expect(res.headers['cache-control']).to.equal('public, max-age=300');
        const match = res.payload.match(/^window\.__loyaltyChatWidget=(\{.*?\});\n/);
        expect(match, res.payload.slice(0, 200)).to.not.equal(null);
        expect(JSON.parse(match![1])).to.deep.equal({
            key: a.bot.publicKey, storeName: 'Store serve', apiOrigin: 'http://chat.example.com:8080', subdomain: 'serve',
            // The loader shows the widget only on these hosts; the panel offers the AI step when it is on.
            domains: ['serve.test'], aiEnabled: true, look: { color: null, position: 'right', title: null, greeting: null, texts: {}, privacy: null, privacyUrl: null },
            // A new store speaks every shipped language, English the default (issue 27).
            languages: { enabled: ['en', 'es', 'fr', 'pt-BR', 'de', 'ar'], default: 'en' }
        });
        await server.app.services.ai.setEnabled(a.organization.id, false);
        const off = await server.inject({ url: '/widget-serve.js', headers: { host: 'chat.example.com:8080' } });
        expect(JSON.parse(off.payload.match(/^window\.__loyaltyChatWidget=(\{.*?\});\n/)![1]).aiEnabled).to.equal(false);
        await server.app.services.ai.setEnabled(a.organization.id, true);
        expect(res.payload).to.not.contain(server.app.config.jwtSecret);
    });

    it('uses PUBLIC_URL as the API origin when it is set', async () => {
        const other = await startTestServer({ env: { PUBLIC_URL: 'https://chat.brand.example/' } });
        try {
            await createTenant(other.server, 'pub');
            const res = await other.server.inject('/widget-pub.js');
            expect(res.payload).to.contain('"apiOrigin":"https://chat.brand.example"');
        }
        finally {
            await other.close();
        }
    });

    it('answers a JS comment and 404 for an unknown or inactive store', async () => {
        const unknown = await server.inject('/widget-nobody.js');
        expect(unknown.statusCode).to.equal(404);
        expect(unknown.headers['content-type']).to.match(/^application\/javascript/);
        expect(unknown.payload).to.equal('/* loyalty-chat: no active store with subdomain "nobody" */\n');
        const off = await createTenant(server, 'closed');
        await server.app.services.tenants.updateOrganization(off.organization.id, { isActive: false });
        const inactive = await server.inject('/widget-closed.js');
        expect(inactive.statusCode).to.equal(404);
        expect(inactive.payload).to.match(/^\/\* loyalty-chat: .* \*\/\n$/);
    });

    it('serves the hashed chunks with long-lived caching and nothing else from the widget folder', async () => {
        const manifest = JSON.parse(Fs.readFileSync(Path.join(WIDGET_DIR, 'manifest.json'), 'utf8'));
        const chunk = manifest.panel[0];
        const res = await server.inject(`/widget/${chunk}`);
        expect(res.statusCode).to.equal(200);
        expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
        expect((await server.inject('/widget/manifest.json')).statusCode).to.equal(404);
        expect((await server.inject('/widget/loader.js')).statusCode).to.equal(404);
        expect((await server.inject('/widget/..%2Fadmin%2Findex.html')).statusCode).to.equal(404);
    });

    it('serves the demo storefront at / and /demo with its header links, cart and the demo widget', async () => {
        for (const url of ['/', '/demo']) {
            const res = await server.inject(url);
            expect(res.statusCode).to.equal(200);
            expect(res.headers['content-type']).to.match(/^text\/html/);
            for (const link of ['href="/test">Test Dashboard', 'href="/analytics">Analytics', 'href="/admin-chat">Live Chat',
                'href="/admin-questions">Manage Questions', 'href="/admin-login">Admin Login']) {
                expect(res.payload).to.contain(link);
            }
            expect(res.payload).to.contain('Cart (2)');
            expect(res.payload).to.contain('<script src="/widget-demo.js" async></script>');
            expect(res.payload).to.contain('/api/loyalty/verify');
            expect(res.payload).to.contain('/api/loyalty/view');
        }
    });

    it('adds CORS headers for a registered domain on the widget routes and answers the preflight', async () => {
        const res = await server.inject({ url: '/api/questions', headers: { 'x-widget-key': a.bot.publicKey, origin: 'https://shop.serve.test' } });
        expect(res.statusCode).to.equal(200);
        expect(res.headers['access-control-allow-origin']).to.equal('https://shop.serve.test');
        const pre = await server.inject({ method: 'OPTIONS', url: '/api/loyalty/verify', headers: { origin: 'https://shop.serve.test', 'access-control-request-method': 'POST' } });
        expect(pre.statusCode).to.equal(204);
        const foreign = await server.inject({ url: '/api/questions', headers: { 'x-widget-key': a.bot.publicKey, origin: 'https://evil.example' } });
        expect(foreign.statusCode).to.equal(403);
        expect(foreign.headers['access-control-allow-origin']).to.equal(undefined);
    });
});
