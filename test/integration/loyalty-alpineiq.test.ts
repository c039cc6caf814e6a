import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import pino from 'pino';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { FakeAlpineOrder, startFakeAlpineIq } from '../helpers/fake-alpineiq';
import { lastCode } from '../helpers/loyalty';

const KEY = 'aiq-live-key-5f2e9c';
const CONNECTING = "Sorry, I'm having trouble connecting. Please try again.";
const VERIFYING = "Sorry, I'm having trouble verifying the code. Please try again.";
/** The check's one answer for every failure (issue 25): it cannot tell a prober what is at an address. */
const CHECK_FAILED = 'The connection check failed. Check the base URL, the account UID and the API key; the server log has the details.';

/** Seven orders, oldest first, one a day from 2026-03-01. */
const ORDERS: FakeAlpineOrder[] = Array.from({ length: 7 }, (_, i) => ({
    id: `ORD-${i + 1}`,
    date: `2026-03-0${i + 1}T15:00:00.000Z`,
    total: 10 * (i + 1),
    items: [{ name: `Item ${i + 1}`, quantity: 1, price: 10 * (i + 1) }, { name: 'Bag', quantity: 1, price: 0 }]
}));

describe('the Alpine IQ loyalty provider against a local Alpine IQ-shaped server', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let shop: Tenant;
    let alpine: Awaited<ReturnType<typeof startFakeAlpineIq>>;
    let logFile: string;

    const post = (url: string, payload: object) => server.inject({ method: 'POST', url, payload, headers: { 'x-widget-key': shop.bot.publicKey } });
    const verify = (identifier: string) => post('/api/loyalty/verify', { identifier });
    const view = (identifier: string, code: string) => post('/api/loyalty/view', { identifier, code });
    const lookups = () => alpine.requests.filter((r) => r.url.startsWith('/api/v2/loyalty/lookup/'));

    before(async () => {
        alpine = await startFakeAlpineIq({
            apiKey: KEY, uid: 'acct-1', members: [
                { phone: '+15555550100', contactId: 'AIQ-77', firstName: 'Alex', lastName: 'Rivera', email: 'alex@example.com', points: 880, tier: 'Gold', orders: ORDERS },
                { phone: '15555550101', contactId: 'AIQ-78', firstName: 'Dana', lastName: 'Lee', email: 'dana@example.com', points: 12 },
                { phone: '5555550102', contactId: 'AIQ-79', firstName: 'Sam', lastName: 'Ortiz', email: 'sam@example.com', points: 40, walletInLookup: false }
            ]
        });
        logFile = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-aiq-')), 'server.log');
        const logger = pino({ level: 'debug' }, pino.destination({ dest: logFile, sync: true }));
        t = await startTestServer({
            logger,
            env: {
                LOG_LEVEL: 'debug', LOYALTY_PROVIDER: 'alpineiq', ALPINEIQ_API_KEY: KEY, ALPINEIQ_UID: 'acct-1', ALPINEIQ_BASE_URL: alpine.url,
                ALPINEIQ_TIMEOUT_MS: '400', LOYALTY_CACHE_SECONDS: '30'
            }
        });
        server = t.server;
        shop = await createTenant(server, 'aiq');
    });
    afterEach(() => {
        alpine.state.down = false;
        alpine.state.delayMs = 0;
        alpine.state.garbage = false;
    });
    after(async () => {
        await t?.close();
        await alpine?.close();
        Fs.rmSync(Path.dirname(logFile), { recursive: true, force: true });
    });

    it('shows a member\'s points: the lookup is POST /api/v2/loyalty/lookup/{E.164} with X-APIKEY and {}', async () => {
        const sent = await verify('555-555-0100');
        expect(sent.statusCode, sent.payload).to.equal(200);
        const [first] = lookups();
        expect(first).to.include({ method: 'POST', url: '/api/v2/loyalty/lookup/%2B15555550100', body: '{}' });
        expect(first.headers['x-apikey']).to.equal(KEY);
        const res = await view('555-555-0100', await lastCode(server, '+15555550100'));
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.include({ success: true, points: 880, message: 'You have 880 points.' });
        expect(alpine.requests.every((r) => r.headers['x-apikey'] === KEY && !r.url.includes(KEY))).to.equal(true);
    });

    it('finds a member the account holds by digits only or by the national number, trying E.164 first', async () => {
        const before = lookups().length;
        expect(await server.app.services.loyalty.lookupCustomer(shop.organization.id, '(555) 555-0101'))
            .to.deep.equal({ found: true, email: 'dana@example.com', name: 'Dana Lee', alpineId: 'AIQ-78' });
        expect(lookups().slice(before).map((r) => r.url)).to.deep.equal(['/api/v2/loyalty/lookup/%2B15555550101', '/api/v2/loyalty/lookup/15555550101']);
        const sent = await verify('555-555-0102');
        expect(sent.statusCode, sent.payload).to.equal(200);
        const res = await view('555-555-0102', await lastCode(server, '+15555550102'));
        // This member's lookup carries no wallet: the points come from GET /api/v1.1/wallet/{uid}/{contactId}.
        expect(res.result).to.include({ points: 40 });
        expect(alpine.requests.some((r) => r.method === 'GET' && r.url === '/api/v1.1/wallet/acct-1/AIQ-79')).to.equal(true);
    });

    it('maps a phone that is not a member to the not-found answer, and caches that briefly', async () => {
        const res = await verify('+15555550199');
        expect(res.statusCode).to.equal(200);     // an expected outcome, not an error (issue 11)
        expect(JSON.parse(res.payload)).to.deep.equal({ ok: false, reason: 'not_found', code: 'loyalty.not_found', message: 'Phone number not found in our loyalty program' });
        const before = lookups().length;
        expect(await server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550199'))
            .to.deep.equal({ found: false, email: null, name: null, alpineId: null });
        expect(lookups().length, 'answered from the cache').to.equal(before);
    });

    it('caches a member per organization and phone: a second lookup does not reach Alpine IQ', async () => {
        await server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550100');
        const before = alpine.requests.length;
        const again = await server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550100');
        expect(again).to.include({ found: true, alpineId: 'AIQ-77' });
        expect(alpine.requests.length).to.equal(before);
    });

    it('reads the orders by contact id (start=0, limit=25) and keeps the newest five, newest first', async () => {
        const history = await server.app.services.loyalty.orderHistory(shop.organization.id, '+15555550100');
        expect(alpine.requests.at(-1)!.url).to.equal('/api/v1.1/contact/orders/acct-1/AIQ-77?start=0&limit=25');
        expect(history.found).to.equal(true);
        expect(history.customerName).to.equal('Alex Rivera');
        expect(history.orders.map((o) => o.orderRef)).to.deep.equal(['ORD-7', 'ORD-6', 'ORD-5', 'ORD-4', 'ORD-3']);
        expect(history.orders[0]).to.deep.equal({ orderRef: 'ORD-7', productName: 'Item 7, Bag', quantity: 2, price: 70, orderDate: '2026-03-07T15:00:00.000Z' });
        const two = await server.app.services.loyalty.orders(shop.organization.id, '555-555-0100', 2);
        expect(two.map((o) => o.orderRef)).to.deep.equal(['ORD-7', 'ORD-6']);
        const many = await server.app.services.loyalty.orders(shop.organization.id, '555-555-0100', 50);
        expect(many).to.have.length(5);
        expect(await server.app.services.loyalty.orders(shop.organization.id, '555-555-0199', 5)).to.deep.equal([]);
    });

    it('answers 503 with the connection text when Alpine IQ is down, and never caches the failure as "not a member"', async () => {
        alpine.state.down = true;
        const res = await verify('+15555550103');
        expect(res.statusCode).to.equal(503);
        expect(JSON.parse(res.payload).message).to.equal(CONNECTING);
        const lookup = await server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550103');
        expect(lookup).to.include({ found: false });
        expect(lookup.error).to.contain('503');
        try {
            await server.app.services.loyalty.orders(shop.organization.id, '+15555550103', 5);
            expect.fail('orders() should throw');
        }
        catch (err) {
            expect((err as { output?: { statusCode: number } }).output?.statusCode).to.equal(503);
        }
        alpine.state.down = false;
        const before = lookups().length;
        await server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550103');
        expect(lookups().length, 'the failure was not cached').to.be.greaterThan(before);
    });

    it('gives up after ALPINEIQ_TIMEOUT_MS with a 503, and an answer that is not the envelope is a 503 too', async () => {
        alpine.state.delayMs = 2000;
        const started = Date.now();
        const res = await verify('+15555550104');
        expect(res.statusCode).to.equal(503);
        expect(Date.now() - started).to.be.lessThan(1900);
        expect(JSON.parse(res.payload).message).to.equal(CONNECTING);
        alpine.state.delayMs = 0;
        alpine.state.garbage = true;
        expect((await verify('+15555550104')).statusCode).to.equal(503);
    });

    it('does not burn the customer\'s code when Alpine IQ fails at the code step: the same code works afterwards', async () => {
        expect((await verify('+15555550100')).statusCode).to.equal(200);
        const code = await lastCode(server, '+15555550100');
        alpine.state.down = true;
        const failed = await view('+15555550100', code);
        expect(failed.statusCode).to.equal(503);
        expect(JSON.parse(failed.payload).message).to.equal(VERIFYING);
        alpine.state.down = false;
        const res = await view('+15555550100', code);
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.include({ points: 880 });
    });

    it('writes no API key into the log', async () => {
        const log = Fs.readFileSync(logFile, 'utf8');
        expect(log).to.contain('loyalty provider failed');
        expect(log).not.to.contain(KEY);
    });
});

describe('the Alpine IQ provider with a key Alpine IQ refuses', function () {
    this.timeout(30000);
    let t: TestServer;
    let shop: Tenant;
    let alpine: Awaited<ReturnType<typeof startFakeAlpineIq>>;

    before(async () => {
        alpine = await startFakeAlpineIq({ apiKey: 'the-real-key', uid: 'acct-1', members: [] });
        t = await startTestServer({ env: { LOYALTY_PROVIDER: 'alpineiq', ALPINEIQ_API_KEY: 'revoked-key-123', ALPINEIQ_UID: 'acct-1', ALPINEIQ_BASE_URL: alpine.url } });
        shop = await createTenant(t.server, 'refused');
    });
    after(async () => {
        await t?.close();
        await alpine?.close();
    });

    it('answers 502 with the connection text, naming no key', async () => {
        const res = await t.server.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { identifier: '+15555550100' }, headers: { 'x-widget-key': shop.bot.publicKey } });
        expect(res.statusCode).to.equal(502);
        expect(JSON.parse(res.payload).message).to.equal(CONNECTING);
        expect(res.payload).not.to.contain('revoked-key-123');
        const lookup = await t.server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550100');
        expect(lookup.error).to.equal('Alpine IQ refused the API key (401)');
        expect(alpine.requests).to.have.length(2);
    });
});

describe('per-organization Alpine IQ settings, set by a super admin', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let north: Tenant;
    let south: Tenant;
    let superToken: string;
    let alpineA: Awaited<ReturnType<typeof startFakeAlpineIq>>;
    let alpineB: Awaited<ReturnType<typeof startFakeAlpineIq>>;
    const KEY_A = 'north-key-a1b2c3d4';
    const KEY_B = 'south-key-e5f6a7b8';
    let settingsLog: string;

    const api = (method: string, url: string, payload?: object, token = superToken) =>
        server.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
    const settingsUrl = (tenant: Tenant) => `/api/super-admin/organizations/${tenant.organization.id}/loyalty-provider`;
    const verify = (tenant: Tenant, identifier: string) =>
        server.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { identifier }, headers: { 'x-widget-key': tenant.bot.publicKey } });

    before(async () => {
        alpineA = await startFakeAlpineIq({ apiKey: KEY_A, uid: 'north-uid', members: [
            { phone: '+15555550100', contactId: 'N-1', firstName: 'Nora', lastName: 'North', email: 'nora@north.test', points: 111 }
        ] });
        alpineB = await startFakeAlpineIq({ apiKey: KEY_B, uid: 'south-uid', members: [
            { phone: '+15555550100', contactId: 'S-1', firstName: 'Sol', lastName: 'South', email: 'sol@south.test', points: 222 }
        ] });
        // The server itself uses the built-in provider: each store's Alpine IQ account is its own setting.
        settingsLog = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-aiq-')), 'server.log');
        const logger = pino({ level: 'debug' }, pino.destination({ dest: settingsLog, sync: true }));
        t = await startTestServer({ logger, env: { LOG_LEVEL: 'debug', LOYALTY_CACHE_SECONDS: '30' } });
        server = t.server;
        north = await createTenant(server, 'north');
        south = await createTenant(server, 'south');
        const user = await server.app.services.users.create({ email: 'root@aiq.test', password: 'super-secret-passphrase-91', role: 'super_admin' });
        const { signUserToken } = await import('../../core/auth/tokens');
        superToken = signUserToken(server.app.config.jwtSecret, { id: user.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
    });
    after(async () => {
        await t?.close();
        await alpineA?.close();
        await alpineB?.close();
        Fs.rmSync(Path.dirname(settingsLog), { recursive: true, force: true });
    });

    it('starts on the server default and answers whether a key is stored, never the key', async () => {
        const res = await api('GET', settingsUrl(north));
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.deep.include({ organizationId: north.organization.id, provider: 'default', effectiveProvider: 'builtin', hasApiKey: false, uid: null, updatedAt: null });
    });

    it('stores each organization\'s account sealed and looks each store\'s customers up in its own account', async () => {
        const a = await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'north-uid', baseUrl: `${alpineA.url}/`, apiKey: KEY_A });
        expect(a.statusCode, a.payload).to.equal(200);
        expect(a.result).to.deep.include({ provider: 'alpineiq', effectiveProvider: 'alpineiq', uid: 'north-uid', baseUrl: alpineA.url, hasApiKey: true });
        expect(a.payload).not.to.contain(KEY_A);
        const b = await api('PUT', settingsUrl(south), { provider: 'alpineiq', uid: 'south-uid', baseUrl: alpineB.url, apiKey: KEY_B });
        expect(b.statusCode, b.payload).to.equal(200);
        const rows = await server.app.db('loyalty_provider_settings').orderBy('organization_id');
        expect(rows).to.have.length(2);
        expect(JSON.stringify(rows)).not.to.contain(KEY_A).and.not.to.contain(KEY_B);
        expect(rows[0].api_key_sealed).to.match(/^v1\./);

        const loyalty = server.app.services.loyalty;
        expect(await loyalty.lookupCustomer(north.organization.id, '+15555550100')).to.include({ found: true, name: 'Nora North', alpineId: 'N-1' });
        expect(await loyalty.lookupCustomer(south.organization.id, '+15555550100')).to.include({ found: true, name: 'Sol South', alpineId: 'S-1' });
        expect(alpineA.requests.every((r) => r.headers['x-apikey'] === KEY_A)).to.equal(true);
        expect(alpineB.requests.every((r) => r.headers['x-apikey'] === KEY_B)).to.equal(true);
        expect((await verify(north, '555-555-0100')).statusCode).to.equal(200);

        const read = await api('GET', settingsUrl(south));
        expect(read.result).to.deep.include({ provider: 'alpineiq', hasApiKey: true });
        expect(read.payload).not.to.contain(KEY_B);
    });

    it('keeps the stored key when a change leaves it out, and uses new settings at once (not the cached answers)', async () => {
        // North's account moves to B's server and UID with B's key: the cached N-1 must not be answered.
        const moved = await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'south-uid', baseUrl: alpineB.url, apiKey: KEY_B });
        expect(moved.statusCode).to.equal(200);
        expect(await server.app.services.loyalty.lookupCustomer(north.organization.id, '+15555550100')).to.include({ alpineId: 'S-1' });
        const kept = await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'south-uid', baseUrl: alpineB.url });
        expect(kept.result).to.deep.include({ hasApiKey: true });
        const check = await api('POST', `${settingsUrl(north)}/check`);
        expect(check.result).to.deep.equal({ ok: true, provider: 'alpineiq', message: 'Alpine IQ accepted the API key' });
    });

    it('requires the API key again when the base URL\'s host changes (400, nothing stored), so Check never sends the stored key to a new host', async () => {
        // North is on B's server with B's key (the test above).
        const before = await server.app.db('loyalty_provider_settings').orderBy('organization_id');
        const seenByA = alpineA.requests.length;
        for (const baseUrl of [alpineA.url, '', null, alpineB.url.replace('127.0.0.1', 'localhost')]) {
            const moved = await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'south-uid', baseUrl });
            expect(moved.statusCode, String(baseUrl)).to.equal(400);
            expect(JSON.parse(moved.payload).message, String(baseUrl)).to.match(/^Enter the API key again: the base URL now points to .+, not to http:\/\/127\.0\.0\.1:\d+ where the stored key belongs$/);
        }
        expect(await server.app.db('loyalty_provider_settings').orderBy('organization_id'), 'nothing stored').to.deep.equal(before);
        const check = await api('POST', `${settingsUrl(north)}/check`);
        expect(check.result).to.deep.equal({ ok: true, provider: 'alpineiq', message: 'Alpine IQ accepted the API key' });
        expect(alpineA.requests.length, 'A never heard of the key').to.equal(seenByA);
        // The same host (another path, a trailing slash) keeps the key; so does switching to another host with a key.
        expect((await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'south-uid', baseUrl: `${alpineB.url}/` })).statusCode).to.equal(200);
        expect((await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'north-uid', baseUrl: alpineA.url, apiKey: KEY_A })).statusCode).to.equal(200);
        expect((await api('POST', `${settingsUrl(north)}/check`)).result).to.deep.include({ ok: true });
        // A key stored under the server default (no base URL) is that host's too.
        expect((await api('PUT', settingsUrl(south), { provider: 'alpineiq', uid: 'south-uid', baseUrl: null, apiKey: KEY_B })).statusCode).to.equal(200);
        const fromDefault = await api('PUT', settingsUrl(south), { provider: 'alpineiq', uid: 'south-uid', baseUrl: alpineB.url });
        expect(fromDefault.statusCode).to.equal(400);
        expect(JSON.parse(fromDefault.payload).message).to.contain('not to https://lab.alpineiq.com where the stored key belongs');
        expect((await api('PUT', settingsUrl(south), { provider: 'alpineiq', uid: 'south-uid', baseUrl: alpineB.url, apiKey: KEY_B })).statusCode).to.equal(200);
    });

    it('binds the stored key to its host: a base URL changed in the database alone gets no key sent', async () => {
        const row = await server.app.db('loyalty_provider_settings').where({ organization_id: north.organization.id }).first();
        expect(row.base_url).to.equal(alpineA.url);
        const seenByB = alpineB.requests.length;
        await server.app.db('loyalty_provider_settings').where({ organization_id: north.organization.id }).update({ base_url: alpineB.url, updated_at: Number(row.updated_at) + 1 });
        try {
            const lookup = await server.app.services.loyalty.lookupCustomer(north.organization.id, '+15555550100');
            expect(lookup.found).to.equal(false);
            const check = await api('POST', `${settingsUrl(north)}/check`);
            expect(check.result).to.deep.equal({ ok: false, provider: 'alpineiq', message: CHECK_FAILED });
            expect(alpineB.requests.slice(seenByB).filter((r) => r.headers['x-apikey'] === KEY_A), 'A\'s key never reached B').to.have.length(0);
        }
        finally {
            await server.app.db('loyalty_provider_settings').where({ organization_id: north.organization.id }).update({ base_url: row.base_url, updated_at: Number(row.updated_at) + 2 });
        }
        expect((await api('POST', `${settingsUrl(north)}/check`)).result).to.deep.include({ ok: true });
    });

    it('keeps a key stored before keys were bound to hosts working for its own host only, and seals it for that host on the next save', async () => {
        const { SecretBox } = await import('../../core/crypto/secret-box');
        const box = new SecretBox(server.app.config.jwtSecret, 'loyalty-provider-api-key');
        const row = await server.app.db('loyalty_provider_settings').where({ organization_id: north.organization.id }).first();
        const legacy = box.seal(KEY_A, String(north.organization.id));
        await server.app.db('loyalty_provider_settings').where({ organization_id: north.organization.id })
            .update({ api_key_sealed: legacy, updated_at: Number(row.updated_at) + 3 });
        expect((await api('POST', `${settingsUrl(north)}/check`)).result).to.deep.include({ ok: true });
        const moved = await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'north-uid', baseUrl: alpineB.url });
        expect(moved.statusCode).to.equal(400);
        expect((await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'north-uid', baseUrl: alpineA.url })).statusCode).to.equal(200);
        const resealed = (await server.app.db('loyalty_provider_settings').where({ organization_id: north.organization.id }).first()).api_key_sealed;
        expect(resealed).to.not.equal(legacy);
        expect(box.open(resealed, String(north.organization.id)), 'no longer opens without its host').to.equal(null);
        expect((await api('POST', `${settingsUrl(north)}/check`)).result).to.deep.include({ ok: true });
    });

    it('checks the settings with one answer for every failure (a refused key, an unreachable server), the details in the log', async () => {
        await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'south-uid', baseUrl: alpineB.url, apiKey: 'wrong-key-00000000' });
        const refused = await api('POST', `${settingsUrl(north)}/check`);
        expect(refused.statusCode).to.equal(200);
        expect(refused.result).to.deep.equal({ ok: false, provider: 'alpineiq', message: CHECK_FAILED });
        expect((await verify(north, '+15555550100')).statusCode).to.equal(502);
        await api('PUT', settingsUrl(north), { provider: 'alpineiq', uid: 'north-uid', baseUrl: 'http://127.0.0.1:9', apiKey: KEY_A });
        const down = await api('POST', `${settingsUrl(north)}/check`);
        expect(down.result).to.deep.equal({ ok: false, provider: 'alpineiq', message: CHECK_FAILED });
        expect((await verify(north, '+15555550100')).statusCode).to.equal(503);
        const log = Fs.readFileSync(settingsLog, 'utf8');
        expect(log).to.contain('Alpine IQ refused the API key (401)').and.to.contain('Alpine IQ cannot be reached');
    });

    it('goes back to the server default, removing the stored account', async () => {
        const res = await api('PUT', settingsUrl(north), { provider: 'default' });
        expect(res.result).to.deep.include({ provider: 'default', effectiveProvider: 'builtin', hasApiKey: false });
        expect(await server.app.db('loyalty_provider_settings').where({ organization_id: north.organization.id })).to.have.length(0);
        expect(JSON.parse((await verify(north, '+15555550100')).payload).reason, 'not a built-in member').to.equal('not_found');
    });

    it('refuses bad settings with a 400 naming the problem, storing nothing', async () => {
        const before = await server.app.db('loyalty_provider_settings').orderBy('organization_id');
        const cases: Array<[object, RegExp]> = [
            [{ provider: 'alpineiq', baseUrl: alpineA.url, apiKey: KEY_A }, /UID/],
            [{ provider: 'alpineiq', uid: 'x' }, /API key/],
            [{ provider: 'alpineiq', uid: 'x', baseUrl: 'ftp://host', apiKey: KEY_A }, /base URL/],
            [{ provider: 'alpineiq', uid: 'x y', apiKey: KEY_A }, /UID/],
            [{ provider: 'alpineiq', uid: 'x', apiKey: 'short' }, /API key/],
            [{ provider: 'other' }, /provider/],
            [{}, /provider/]
        ];
        for (const [payload, message] of cases) {
            const res = await api('PUT', settingsUrl(north), payload);
            expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
            expect(JSON.parse(res.payload).message, JSON.stringify(payload)).to.match(message);
        }
        expect(await server.app.db('loyalty_provider_settings').orderBy('organization_id')).to.deep.equal(before);
        expect((await api('GET', '/api/super-admin/organizations/999999/loyalty-provider')).statusCode).to.equal(404);
        expect((await api('PUT', '/api/super-admin/organizations/999999/loyalty-provider', { provider: 'builtin' })).statusCode).to.equal(404);
    });

    it('is for super admins only: an organization\'s admin, org user, widget or anonymous caller is refused', async () => {
        for (const token of [north.admin.token, north.orgUser.token]) {
            // Staff tokens of another role do not pass the route's strategies at all: 401, as everywhere.
            expect((await api('GET', settingsUrl(north), undefined, token)).statusCode).to.equal(401);
            expect((await api('PUT', settingsUrl(north), { provider: 'builtin' }, token)).statusCode).to.equal(401);
            expect((await api('POST', `${settingsUrl(north)}/check`, undefined, token)).statusCode).to.equal(401);
        }
        expect((await server.inject({ method: 'GET', url: settingsUrl(north) })).statusCode).to.equal(401);
        expect((await server.inject({ method: 'GET', url: settingsUrl(north), headers: { 'x-widget-key': north.bot.publicKey } })).statusCode).to.equal(401);
    });

    it('wrote none of the keys it was given into the log', () => {
        const log = Fs.readFileSync(settingsLog, 'utf8');
        expect(log).to.contain('loyalty-provider');
        for (const key of [KEY_A, KEY_B, 'wrong-key-00000000']) {
            expect(log).not.to.contain(key);
        }
    });
});

describe('per-organization Alpine IQ settings in production', function () {
    this.timeout(30000);
    let t: TestServer;
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ env: { NODE_ENV: 'production' } });
        shop = await createTenant(t.server, 'prodshop');
    });
    after(async () => {
        await t?.close();
    });

    it('refuses a plain http:// base URL (the key would travel in clear), and takes https://', async () => {
        const user = await t.server.app.services.users.create({ email: 'root@prod.test', password: 'super-secret-passphrase-91', role: 'super_admin' });
        const { signUserToken } = await import('../../core/auth/tokens');
        const token = signUserToken(t.server.app.config.jwtSecret, { id: user.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
        const put = (baseUrl: string) => t.server.inject({
            method: 'PUT', url: `/api/super-admin/organizations/${shop.organization.id}/loyalty-provider`,
            payload: { provider: 'alpineiq', uid: 'acct', apiKey: 'prod-key-12345678', baseUrl }, headers: { authorization: `Bearer ${token}` }
        });
        const plain = await put('http://aiq.internal.test');
        expect(plain.statusCode).to.equal(400);
        expect(JSON.parse(plain.payload).message).to.equal('The base URL must be an https:// URL in production');
        expect(await t.server.app.db('loyalty_provider_settings')).to.have.length(0);
        expect((await put('https://lab.alpineiq.com')).statusCode).to.equal(200);
    });
});
