import { expect } from 'chai';
import { startTestServer, TestServer, usingPostgres, usingRedis, createTenant } from '../helpers/server';
import { migratorFor } from '../../core/server';

describe('the platform', () => {
    let t: TestServer;
    before(async () => {
        // Listening, so that embed snippets made without PUBLIC_URL can carry the server's real port.
        t = await startTestServer({ listen: true });
    });
    after(async () => {
        await t.close();
    });

    it('answers GET /health with status, database, redis and version', async () => {
        const res = await t.server.inject('/health');
        expect(res.statusCode).to.equal(200);
        const body = JSON.parse(res.payload);
        expect(body.status).to.equal('ok');
        expect(body.database).to.equal(usingPostgres ? 'postgres' : 'sqlite');
        expect(body.redis).to.equal(usingRedis ? 'ok' : 'disabled');
        expect(body.version).to.match(/^\d+\.\d+\.\d+/);
    });

    it('serves the admin app for the client routes and a 404 page status for unknown paths', async () => {
        const known = await t.server.inject('/admin-login');
        expect(known.statusCode).to.equal(200);
        expect(known.headers['content-type']).to.match(/text\/html/);
        expect(known.payload).to.match(/<div id="?root"?>/);
        const unknown = await t.server.inject('/no-such-page');
        expect(unknown.statusCode).to.equal(404);
        expect(unknown.payload).to.match(/<div id="?root"?>/);
    });

    it('answers an unknown API path with a JSON 404, not the app', async () => {
        const res = await t.server.inject('/api/nothing-here');
        expect(res.statusCode).to.equal(404);
        expect(JSON.parse(res.payload).message).to.match(/No route/);
    });

    it('answers a validation failure with 400 naming the field', async () => {
        const res = await t.server.inject({ method: 'POST', url: '/api/admin/login', payload: { password: 'x' } });
        expect(res.statusCode).to.equal(400);
        expect(JSON.parse(res.payload).message).to.contain('"email" is required');
    });

    it('answers malformed JSON with 400', async () => {
        const res = await t.server.inject({ method: 'POST', url: '/api/admin/login', payload: '{bad', headers: { 'content-type': 'application/json' } });
        expect(res.statusCode).to.equal(400);
    });

    it('refuses a second organization with a taken subdomain and stores nothing', async () => {
        const tenants = t.server.app.services.tenants;
        await tenants.createOrganization({ name: 'First', domain: 'first.test', subdomain: 'taken' });
        let message = '';
        try {
            await tenants.createOrganization({ name: 'Second', domain: 'second.test', subdomain: 'taken' });
        }
        catch (err: any) {
            message = err.message;
        }
        expect(message).to.match(/Subdomain "taken" is already taken/);
        expect((await tenants.listOrganizations()).filter((o) => o.subdomain === 'taken')).to.have.length(1);
    });

    it('gives every bot instance a public key and an embed snippet on the port the server listens on', async () => {
        const tenant = await createTenant(t.server, 'snippets');
        const bots = await t.server.app.services.tenants.listBotInstances({ organizationId: tenant.organization.id });
        expect(bots[0].publicKey).to.match(/^pk_/);
        expect(t.server.info.port).to.be.a('number').and.not.equal(0);
        expect(bots[0].embedSnippet).to.equal(`<script src="http://127.0.0.1:${t.server.info.port}/widget-snippets.js" async></script>`);
    });

    it('migrates latest, rolls back and migrates latest again', async () => {
        const migrator = migratorFor(t.server);
        const rolled = await migrator.rollback(true);
        expect(rolled.length).to.be.greaterThan(0);
        expect((await migrator.status()).completed).to.have.length(0);
        const applied = await migrator.latest();
        expect([...applied].sort()).to.deep.equal([...rolled].sort());
        expect((await migrator.status()).pending).to.have.length(0);
    });
});
