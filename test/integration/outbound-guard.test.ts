import * as Fs from 'fs';
import * as Http from 'http';
import * as Os from 'os';
import * as Path from 'path';
import type { AddressInfo } from 'net';
import { expect } from 'chai';
import pino from 'pino';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { startFakeAlpineIq } from '../helpers/fake-alpineiq';
import { signUserToken } from '../../core/auth/tokens';

const KEY = 'guarded-key-7c1d2e3f';
const CHECK_FAILED = 'The connection check failed. Check the base URL, the account UID and the API key; the server log has the details.';

/**
 * Outbound calls to URLs that staff configure (issue 25, fix 1; DESIGN §8): with OUTBOUND_REFUSE_PRIVATE (on in
 * production) a loyalty provider's base URL may not reach loopback, private, link-local, CGNAT, unspecified or
 * metadata addresses, checked at save, at check and on the address resolved at the moment of connecting (so a name
 * that resolves elsewhere later, DNS rebinding, gets nothing either). Two nodes share one database: `open` (the
 * guard off, as in tests and development) saves what `guarded` then must refuse to call.
 */
describe('outbound calls to staff-configured URLs (OUTBOUND_REFUSE_PRIVATE)', function () {
    this.timeout(30000);
    let open: TestServer;
    let guarded: TestServer;
    let alpine: Awaited<ReturnType<typeof startFakeAlpineIq>>;
    let byName: Tenant;
    let byAddress: Tenant;
    let logFile: string;
    let openToken: string;
    let guardedToken: string;

    const settingsUrl = (tenant: Tenant) => `/api/super-admin/organizations/${tenant.organization.id}/loyalty-provider`;
    const put = (t: TestServer, token: string, tenant: Tenant, baseUrl: string, apiKey: string | undefined = KEY) => t.server.inject({
        method: 'PUT', url: settingsUrl(tenant), headers: { authorization: `Bearer ${token}` },
        payload: { provider: 'alpineiq', uid: 'acct-1', baseUrl, ...(apiKey ? { apiKey } : {}) }
    });
    const check = (t: TestServer, token: string, tenant: Tenant) => t.server.inject({ method: 'POST', url: `${settingsUrl(tenant)}/check`, headers: { authorization: `Bearer ${token}` } });
    const verify = (t: TestServer, tenant: Tenant) => t.server.inject({
        method: 'POST', url: '/api/loyalty/verify', headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { identifier: '+15555550100' }
    });

    before(async () => {
        alpine = await startFakeAlpineIq({ apiKey: KEY, uid: 'acct-1', members: [
            { phone: '+15555550100', contactId: 'G-1', firstName: 'Gus', lastName: 'Guard', email: 'gus@example.com', points: 5 }
        ] });
        logFile = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-outbound-')), 'server.log');
        open = await startTestServer({ env: { OUTBOUND_REFUSE_PRIVATE: 'false', ALPINEIQ_TIMEOUT_MS: '300', LOYALTY_CACHE_SECONDS: '0' } });
        guarded = await startTestServer({
            shareWith: open,
            env: { OUTBOUND_REFUSE_PRIVATE: 'true', LOG_LEVEL: 'info', LOYALTY_CACHE_SECONDS: '0' },
            logger: pino({ level: 'info' }, pino.destination({ dest: logFile, sync: true }))
        });
        byName = await createTenant(open.server, 'obname');
        byAddress = await createTenant(open.server, 'obaddr');
        const root = await open.server.app.services.users.create({ email: 'root@outbound.test', password: 'super-secret-passphrase-91', role: 'super_admin' });
        openToken = signUserToken(open.config.jwtSecret, { id: root.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
        guardedToken = signUserToken(guarded.config.jwtSecret, { id: root.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
    });
    after(async () => {
        await guarded?.close();
        await open?.close();
        await alpine?.close();
        Fs.rmSync(Path.dirname(logFile), { recursive: true, force: true });
    });

    it('refuses at save a base URL on loopback, private, link-local, CGNAT, unspecified or metadata addresses, IPv4-mapped IPv6 too, storing nothing', async () => {
        const urls = [
            alpine.url, 'http://localhost:8080', 'http://shop.localhost', 'http://10.1.2.3', 'http://172.16.0.1', 'http://192.168.1.1',
            'http://100.64.0.1', 'http://169.254.169.254', 'http://0.0.0.0', 'http://2130706433', 'http://0x7f.1',
            'http://[::1]', 'http://[::]', 'http://[fc00::1]', 'http://[fd00:ec2::254]', 'http://[fe80::1]',
            'http://[::ffff:127.0.0.1]', 'http://[::ffff:a9fe:a9fe]', 'http://[::ffff:10.0.0.1]'
        ];
        for (const url of urls) {
            const res = await put(guarded, guardedToken, byName, url);
            expect(res.statusCode, url).to.equal(400);
            expect(JSON.parse(res.payload).message, url).to.match(/^The base URL must be a public address: .+ is a loopback, private, link-local or metadata address$/);
        }
        expect(await guarded.server.app.db('loyalty_provider_settings')).to.have.length(0);
    });

    it('refuses at every use and at Check, on the address resolved when connecting: a name or address saved while allowed gets nothing', async () => {
        // Saved on the node without the guard: a name that resolves to loopback, and a loopback address.
        expect((await put(open, openToken, byName, alpine.url.replace('127.0.0.1', 'localhost'))).statusCode).to.equal(200);
        expect((await put(open, openToken, byAddress, alpine.url)).statusCode).to.equal(200);
        expect((await verify(open, byAddress)).statusCode, 'the open node reaches it').to.equal(200);
        const seen = alpine.requests.length;

        for (const tenant of [byName, byAddress]) {
            expect((await verify(guarded, tenant)).statusCode).to.equal(503);
            expect((await check(guarded, guardedToken, tenant)).result).to.deep.equal({ ok: false, provider: 'alpineiq', message: CHECK_FAILED });
            expect((await guarded.server.app.services.loyalty.lookupCustomer(tenant.organization.id, '+15555550100')).found).to.equal(false);
        }
        expect(alpine.requests.length, 'nothing reached the private address').to.equal(seen);
        const log = Fs.readFileSync(logFile, 'utf8');
        expect(log).to.match(/refused.*(loopback|private)/i);
        expect(log).not.to.contain(KEY);
    });

    it('answers Check with one text for every failure, so it cannot probe: unreachable, timeout, wrong key, redirect, private address', async () => {
        const redirect = Http.createServer((_req, res) => {
            res.writeHead(302, { location: `${alpine.url}/api/v2/loyalty/lookup/%2B15555550100` });
            res.end();
        });
        await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
        try {
            const answers: unknown[] = [];
            expect((await put(open, openToken, byAddress, 'http://127.0.0.1:9')).statusCode).to.equal(200);
            answers.push((await check(open, openToken, byAddress)).result);
            expect((await put(open, openToken, byAddress, alpine.url, 'wrong-key-12345678')).statusCode).to.equal(200);
            answers.push((await check(open, openToken, byAddress)).result);
            expect((await put(open, openToken, byAddress, alpine.url)).statusCode).to.equal(200);
            alpine.state.delayMs = 600;
            answers.push((await check(open, openToken, byAddress)).result);
            alpine.state.delayMs = 0;
            const seen = alpine.requests.length;
            expect((await put(open, openToken, byAddress, `http://127.0.0.1:${(redirect.address() as AddressInfo).port}`)).statusCode).to.equal(200);
            answers.push((await check(open, openToken, byAddress)).result);
            expect(alpine.requests.length, 'a redirect is not followed').to.equal(seen);
            answers.push((await check(guarded, guardedToken, byAddress)).result);
            for (const answer of answers) {
                expect(answer).to.deep.equal({ ok: false, provider: 'alpineiq', message: CHECK_FAILED });
            }
        }
        finally {
            alpine.state.delayMs = 0;
            await new Promise<void>((resolve) => redirect.close(() => resolve()));
        }
    });
});
