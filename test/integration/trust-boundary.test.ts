import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer, usingPostgres, usingRedis } from '../helpers/server';
import { connect, connectAgent, connectCustomer, createSession, NesClient, request, wsUrl, disconnectAll } from '../helpers/livechat-client';
import { hello, openRaw } from '../helpers/raw-socket';
import { EXPECTED } from '../helpers/access-expectations';
import { signUserToken, audienceFor, ISSUER } from '../../core/auth/tokens';
import { CUSTOMER_AUDIENCE } from '../../core/auth/customer-token';
import { until } from '../helpers/wait';

/** Resolves with the time it took for the nes client to lose its connection (rejects after ms). */
function disconnectedWithin(client: NesClient, ms: number): Promise<number> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
        const previous = client.onDisconnect;
        client.onDisconnect = (...args: unknown[]) => {
            clearTimeout(timer);
            previous?.(...args);
            resolve(Date.now() - started);
        };
    });
}

async function superToken(server: Server, email = `root${Date.now()}${Math.random()}@trust.test`): Promise<string> {
    const root = await server.app.services.users.create({ email, password: 'root-password-1', role: 'super_admin' });
    return signUserToken(server.app.config.jwtSecret, { id: root.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
}

/**
 * The reproductions of the attack on the running product (security issue), each kept as a test: they failed
 * before the fix and pass now.
 */
describe('the trust boundary: reproductions of the attack', function () {
    this.timeout(60000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    const clients: NesClient[] = [];
    const keep = <T extends NesClient>(c: T): T => {
        clients.push(c);
        return c;
    };

    before(async () => {
        t = await startTestServer({ listen: true, env: { WS_MAX_CONNECTIONS_PER_IP: '40', WS_MAX_CONNECTIONS_PER_TOKEN: '3', WS_MAX_FRAMES_PER_SECOND: '10000' } });
        a = await createTenant(t.server, 'trusta', 'trust-a.test');
        b = await createTenant(t.server, 'trustb', 'trust-b.test');
    });
    afterEach(() => disconnectAll(clients));
    after(async () => {
        await t?.close();
    });

    describe('1. an anonymous visitor over the socket', () => {
        it('cannot list, create or change what only super admins may, with a customer token from the public widget key', async () => {
            // The public key, as any visitor reads it from the store's widget script.
            const script = await t.server.inject({ method: 'GET', url: `/widget-${a.organization.subdomain}.js` });
            const key = /"key":"([^"]+)"/.exec(script.payload)?.[1];
            expect(key).to.equal(a.bot.publicKey);
            const created = await t.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': key! }, payload: { sessionId: 'visitor_1', customerMessage: 'hi' } });
            const token = (created.result as { token: string }).token;
            const socket = keep(await connect(t.url, token));

            const list = await request(socket, 'GET', '/api/super-admin/users').catch((e) => e);
            expect(list.statusCode).to.equal(403);
            const make = await request(socket, 'POST', '/api/super-admin/users', { email: 'evil@attacker.test', password: 'evil-password-1', role: 'super_admin' }).catch((e) => e);
            expect(make.statusCode).to.equal(403);
            const login = await t.server.inject({ method: 'POST', url: '/api/super-admin/login', payload: { email: 'evil@attacker.test', password: 'evil-password-1' } });
            expect(login.statusCode, 'the account was never made').to.equal(401);

            // A customer of store A switching off store B.
            const off = await request(socket, 'PATCH', `/api/super-admin/organizations/${b.organization.id}`, { isActive: false }).catch((e) => e);
            expect(off.statusCode).to.equal(403);
            expect((await t.server.app.services.tenants.getOrganization(b.organization.id))!.isActive).to.equal(true);
        });

        it('reaches no route that does not admit a customer, and no public route, by any request frame', async () => {
            const created = await createSession(t.server, a, 'visitor_2');
            const socket = keep(await connect(t.url, created.token));
            for (const [id, allowed] of Object.entries(EXPECTED)) {
                const route = t.server.lookup(id);
                if (!route || (Array.isArray(allowed) && allowed.includes('customer'))) {
                    continue;
                }
                const path = route.path.replace('{sessionId}', 'visitor_2').replace(/\{[^}]+\}/g, '1');
                const res = await socket.request({ method: route.method.toUpperCase(), path, payload: {} }).catch((e: any) => e);
                expect([401, 403], `${id} over a customer socket`).to.include(res.statusCode);
            }
        });
    });

    describe('3. chat takeover by LIKE wildcard', () => {
        it('gives a session id of 30 underscores a new chat of its own, not another customer\'s open one', async () => {
            const victim = 'v'.repeat(30);
            await createSession(t.server, a, victim, 'my first chat');
            await t.server.app.services.livechat.end(a.organization.id, victim, 'customer');
            const second = await createSession(t.server, a, victim, 'my second chat');
            expect(second.sessionId).to.equal(`${victim}~2`);
            await t.server.app.services.livechat.sendMessage(a.organization.id, `${victim}~2`, { sender: 'customer', userId: null }, { message: 'my secret order' });

            const attacker = await createSession(t.server, a, '_'.repeat(30), 'hello');
            expect(attacker.sessionId).to.equal('_'.repeat(30));
            const read = await t.server.inject({ method: 'GET', url: `/api/chat/session/${victim}~2/messages`, headers: bearer(attacker.token) });
            expect(read.statusCode).to.equal(403);
            expect(read.payload).to.not.contain('my secret order');
        });

        it('refuses session ids outside the strict pattern with 400', async () => {
            for (const sessionId of ['a%b', 'a b', 'x~2', '', 'a'.repeat(101), 'é']) {
                const res = await t.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId } });
                expect(res.statusCode, sessionId).to.equal(400);
            }
        });
    });

    describe('4. revoked staff and stores lose their sockets', () => {
        async function agentOf(tenant: Tenant, email: string): Promise<{ token: string; id: number }> {
            const user = await t.server.app.services.users.create({ email, password: 'agent-password-1', role: 'admin', organizationId: tenant.organization.id });
            return { id: user.id, token: signUserToken(t.server.app.config.jwtSecret, { id: user.id, role: 'admin', organizationId: tenant.organization.id, tokenVersion: 0 }) };
        }

        it('closes an agent\'s socket within 2 s of deactivation, and its token answers 401', async () => {
            const root = await superToken(t.server);
            const agent = await agentOf(a, 'deact@trust-a.test');
            const socket = keep(await connect(t.url, agent.token, { reconnect: false }));
            await socket.subscribe(`/agents/${a.organization.id}`, () => undefined);
            const gone = disconnectedWithin(socket, 2000);
            const res = await t.server.inject({ method: 'PATCH', url: `/api/super-admin/users/${agent.id}`, headers: bearer(root), payload: { isActive: false } });
            expect(res.statusCode).to.equal(200);
            expect(await gone).to.be.below(2000);
            const again = await t.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(agent.token) });
            expect(again.statusCode).to.equal(401);
        });

        it('closes an agent\'s socket within 2 s of a password change', async () => {
            const root = await superToken(t.server);
            const agent = await agentOf(a, 'pw@trust-a.test');
            const socket = keep(await connect(t.url, agent.token, { reconnect: false }));
            const gone = disconnectedWithin(socket, 2000);
            await t.server.inject({ method: 'PATCH', url: `/api/super-admin/users/${agent.id}`, headers: bearer(root), payload: { password: 'a-new-password-2' } });
            expect(await gone).to.be.below(2000);
        });

        it('closes the agents\' and customers\' sockets of a deactivated store within 2 s, and no others', async () => {
            const root = await superToken(t.server);
            const store = await createTenant(t.server, 'trustc', 'trust-c.test');
            const agent = keep(await connect(t.url, store.admin.token, { reconnect: false }));
            const chat = await createSession(t.server, store, 'doomed_chat');
            const customer = keep(await connect(t.url, chat.token, { reconnect: false }));
            const bystander = keep(await connect(t.url, b.admin.token, { reconnect: false }));
            const agentGone = disconnectedWithin(agent, 2000);
            const customerGone = disconnectedWithin(customer, 2000);
            await t.server.inject({ method: 'POST', url: `/api/super-admin/organizations/${store.organization.id}/deactivate`, headers: bearer(root) });
            expect(await agentGone).to.be.below(2000);
            expect(await customerGone).to.be.below(2000);
            const stillThere = await request(bystander, 'GET', '/api/chat/waiting');
            expect(stillThere.statusCode).to.equal(200);
            const customerHttp = await t.server.inject({ method: 'GET', url: '/api/chat/session/doomed_chat', headers: bearer(chat.token) });
            expect(customerHttp.statusCode).to.equal(401);
        });

        it('closes a revoked agent\'s socket on the other node too (PostgreSQL + Redis)', async function () {
            if (!(usingPostgres && usingRedis)) {
                this.skip();
            }
            const other = await startTestServer({ listen: true, shareWith: t });
            try {
                const root = await superToken(t.server);
                const agent = await agentOf(a, 'twonode@trust-a.test');
                const socket = keep(await connect(other.url, agent.token, { reconnect: false }));
                const gone = disconnectedWithin(socket, 2000);
                await t.server.inject({ method: 'PATCH', url: `/api/super-admin/users/${agent.id}`, headers: bearer(root), payload: { isActive: false } });
                expect(await gone).to.be.below(2000);
            }
            finally {
                await other.close();
            }
        });
    });

    describe('7. text and numbers that PostgreSQL refuses', () => {
        it('answers 400, never 500, for a NUL byte in any text field of any route', async () => {
            const root = await superToken(t.server);
            const chat = await createSession(t.server, a, 'nul_chat');
            const headersFor = (allowed: 'public' | string[]): Record<string, string> => {
                if (allowed === 'public') return {};
                if (allowed.includes('widget')) return { 'x-widget-key': a.bot.publicKey };
                if (allowed.includes('customer')) return bearer(chat.token);
                if (allowed.includes('admin')) return bearer(a.admin.token);
                if (allowed.includes('org_user')) return bearer(a.orgUser.token);
                return bearer(root);
            };
            let checked = 0;
            for (const route of t.server.table()) {
                const schema = (route.settings.validate as { payload?: any } | undefined)?.payload;
                if (!schema || typeof schema.describe !== 'function') {
                    continue;
                }
                const keys = Object.entries((schema.describe().keys ?? {}) as Record<string, { type: string }>).filter(([, d]) => d.type === 'string');
                for (const [key] of keys) {
                    const url = route.path.replace('{sessionId}', 'nul_chat').replace(/\{[^}]+\}/g, '1');
                    const res = await t.server.inject({
                        method: route.method, url, headers: headersFor(EXPECTED[String(route.settings.id)]),
                        payload: { [key]: 'a\u0000b' }, remoteAddress: `10.7.0.${(checked % 200) + 1}`
                    });
                    expect(res.statusCode, `${route.settings.id} ${key}: ${res.payload}`).to.equal(400);
                    checked += 1;
                }
            }
            expect(checked).to.be.above(20);
            const inPath = await t.server.inject({ method: 'GET', url: '/api/chat/session/a%00b', headers: bearer(a.admin.token) });
            expect(inPath.statusCode).to.equal(400);
        });

        it('answers 400 for ids beyond the column range on the super-admin create routes', async () => {
            const root = await superToken(t.server);
            const bot = await t.server.inject({ method: 'POST', url: '/api/super-admin/bot-instances', headers: bearer(root), payload: { organizationId: 2147483648, name: 'x' } });
            expect(bot.statusCode, bot.payload).to.equal(400);
            const user = await t.server.inject({ method: 'POST', url: '/api/super-admin/users', headers: bearer(root), payload: { email: 'big@trust.test', password: 'password-123', role: 'admin', organizationId: 2147483648 } });
            expect(user.statusCode, user.payload).to.equal(400);
        });
    });

    describe('9. smaller doors', () => {
        it('answers a reauth right after an Origin refusal with nothing but the close', async () => {
            const raw = await openRaw(wsUrl(t.url), { origin: 'http://evil.example' });
            const refused = await raw.call(hello(a.admin.token));
            expect(refused.statusCode).to.equal(403);
            raw.send({ type: 'reauth', id: 99, auth: { headers: { authorization: `Bearer ${a.admin.token}` } } });
            const [code] = await raw.closed;
            expect(code).to.equal(1008);
            expect(raw.frames.find((f) => f.id === 99 && f.type === 'reauth' && !f.statusCode), 'a reauth answered 200').to.equal(undefined);
        });

        it('refuses a customer socket that reauths with an admin token, and never lets it subscribe to the agents\' feed', async () => {
            const chat = await createSession(t.server, a, 'reauth_chat');
            const raw = await openRaw(wsUrl(t.url));
            expect((await raw.call(hello(chat.token))).type).to.equal('hello');
            const swap = await raw.call({ type: 'reauth', auth: { headers: { authorization: `Bearer ${a.admin.token}` } } });
            expect(swap.statusCode).to.equal(403);
            const sub = await raw.call({ type: 'sub', path: `/agents/${a.organization.id}` });
            expect(sub.closed || sub.statusCode === 403, JSON.stringify(sub)).to.equal(true);
            const [code] = await raw.closed;
            expect(code).to.equal(1008);
        });

        it('caps the sockets of one customer token, with close code 1008', async () => {
            const chat = await createSession(t.server, a, 'capped_chat');
            for (let i = 0; i < 3; i++) {
                keep(await connect(t.url, chat.token, { reconnect: false }));
            }
            const raw = await openRaw(wsUrl(t.url));
            const refused = await raw.call(hello(chat.token));
            expect(refused.statusCode).to.equal(403);
            const [code, reason] = await raw.closed;
            expect([code, reason]).to.deep.equal([1008, 'Too many connections for these credentials']);
        });

        it('caps the sockets of one client address, with close code 1008', async () => {
            const open = [];
            for (let i = 0; i < 40; i++) {
                open.push(await openRaw(wsUrl(t.url)));
            }
            const extra = await openRaw(wsUrl(t.url));
            const [code, reason] = await extra.closed;
            expect([code, reason]).to.deep.equal([1008, 'Too many connections from your address']);
            for (const raw of open) {
                raw.ws.close();
            }
            await Promise.all(open.map((raw) => raw.closed));
            await until(() => true);
        });

        it('refuses staff and customer tokens without an expiry, or living longer than ours', async () => {
            const secret = t.server.app.config.jwtSecret;
            const noExp = jwt.sign({ role: 'admin', org: a.organization.id, tv: 0 }, secret, { algorithm: 'HS256', issuer: ISSUER, audience: audienceFor('admin'), subject: String(a.admin.id) });
            expect((await t.server.inject({ method: 'GET', url: '/api/admin/verify', headers: bearer(noExp) })).statusCode).to.equal(401);
            const tooLong = jwt.sign({ role: 'admin', org: a.organization.id, tv: 0 }, secret, { algorithm: 'HS256', issuer: ISSUER, audience: audienceFor('admin'), subject: String(a.admin.id), expiresIn: '30d' });
            expect((await t.server.inject({ method: 'GET', url: '/api/admin/verify', headers: bearer(tooLong) })).statusCode).to.equal(401);
            await createSession(t.server, a, 'noexp_chat');
            const customer = jwt.sign({ org: a.organization.id, sid: 'noexp_chat' }, secret, { algorithm: 'HS256', issuer: ISSUER, audience: CUSTOMER_AUDIENCE, subject: 'chat:noexp_chat' });
            expect((await t.server.inject({ method: 'GET', url: '/api/chat/session/noexp_chat', headers: bearer(customer) })).statusCode).to.equal(401);
            const customerLong = jwt.sign({ org: a.organization.id, sid: 'noexp_chat' }, secret, { algorithm: 'HS256', issuer: ISSUER, audience: CUSTOMER_AUDIENCE, subject: 'chat:noexp_chat', expiresIn: '48h' });
            expect((await t.server.inject({ method: 'GET', url: '/api/chat/session/noexp_chat', headers: bearer(customerLong) })).statusCode).to.equal(401);
        });

        it('answers a request sent right behind the hello, before the hello was answered (a reconnecting nes client does), and still refuses one behind a bad hello', async () => {
            const raw = await openRaw(wsUrl(t.url));
            raw.send({ ...hello(a.admin.token), id: 'h1' });
            const answer = await raw.call({ type: 'request', method: 'GET', path: '/api/admin/verify' });
            expect(raw.frames.find((f) => f.id === 'h1')?.type).to.equal('hello');
            expect(answer.statusCode, JSON.stringify(answer)).to.equal(200);
            expect(raw.isClosed()).to.equal(false);
            raw.ws.close();
            const bad = await openRaw(wsUrl(t.url));
            bad.send({ ...hello('not-a-token'), id: 'h2' });
            const refused = await bad.call({ type: 'request', method: 'GET', path: '/api/admin/verify' });
            expect(refused.closed === true || refused.statusCode >= 400, JSON.stringify(refused)).to.equal(true);
            expect(bad.frames.some((f) => f.type === 'request' && f.statusCode === 200)).to.equal(false);
            const [code] = await bad.closed;
            expect(code).to.equal(1008);
        });

        it('keeps an agent socket working through all of the above', async () => {
            const agent = await connectAgent(t.url, a);
            keep(agent.client);
            const chat = await createSession(t.server, a, 'still_works');
            const customer = await connectCustomer(t.url, chat.token, 'still_works');
            keep(customer.client);
            await request(agent.client, 'POST', '/api/chat/session/still_works/accept');
            await request(customer.client, 'POST', '/api/chat/session/still_works/messages', { message: 'still here', clientMessageId: 'sw1' });
            await agent.box.waitFor((m) => m.message === 'still here');
        });
    });
});
