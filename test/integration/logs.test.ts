import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import pino from 'pino';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connect, connectCustomer, inbox, request } from '../helpers/livechat-client';
import { importCustomers, lastCode } from '../helpers/loyalty';
import { signLinkToken } from '../../core/auth/link-token';

const PHONE = '+15555550100';
const SUPER = { email: 'root@platform.test', password: 'super-secret-passphrase-91' };
const WRONG_PASSWORD = 'not-the-password-zz-42';
const COOKIE = 'lc_session=cookie-secret-value-7f3a';

/**
 * The server's whole log during a full run of what carries credentials: the three logins (and a wrong
 * password), a widget verification code sent and used, an agent socket (nes hello with a Bearer token) and a
 * live chat with a customer token, messages both ways over HTTP and the sockets. DESIGN §8: none of it may
 * hold a token, a password, a one-time code or a cookie.
 */
for (const nodeEnv of ['production', 'test']) {
    describe(`the server log with NODE_ENV=${nodeEnv}`, function () {
        this.timeout(30000);
        let t: TestServer;
        let tenant: Tenant;
        let logFile: string;
        const secrets: Record<string, string> = {};

        before(async () => {
            logFile = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-log-')), 'server.log');
            const logger = pino({ level: 'debug' }, pino.destination({ dest: logFile, sync: true }));
            t = await startTestServer({ listen: true, logger, env: { NODE_ENV: nodeEnv, LOG_LEVEL: 'debug' } });
            tenant = await createTenant(t.server, 'logs', 'shop.example');
            await t.server.app.services.users.create({ ...SUPER, role: 'super_admin' });
            await importCustomers(t.server, tenant.organization.id, [[PHONE, 'Alex Rivera', 'alex@example.com', 'LC-1001', 1250]]);
        });
        after(async () => {
            await t?.close();
            Fs.rmSync(Path.dirname(logFile), { recursive: true, force: true });
        });

        async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
            const res = await fetch(t.url + path, {
                method,
                headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
                body: options.body === undefined ? undefined : JSON.stringify(options.body)
            });
            const text = await res.text();
            return { status: res.status, body: text ? JSON.parse(text) : null };
        }
        const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
        const widget = { 'x-widget-key': '' };

        it('runs logins, a verification code, an agent socket and a live chat with a customer token', async () => {
            widget['x-widget-key'] = tenant.bot.publicKey;
            secrets.adminPassword = tenant.admin.password;
            secrets.orgPassword = tenant.orgUser.password;
            secrets.superPassword = SUPER.password;
            secrets.wrongPassword = WRONG_PASSWORD;
            secrets.cookie = COOKIE.split('=')[1];

            // Logins: right and wrong password, then each token used on a call (and a cookie sent along).
            const wrong = await call('POST', '/api/admin/login', { body: { email: tenant.admin.email, password: WRONG_PASSWORD } });
            expect(wrong.status).to.equal(401);
            const admin = await call('POST', '/api/admin/login', { body: { email: tenant.admin.email, password: tenant.admin.password } });
            expect(admin.status).to.equal(200);
            secrets.adminToken = admin.body.token;
            expect((await call('GET', '/api/admin/verify', { headers: { ...bearer(admin.body.token), cookie: COOKIE } })).status).to.equal(200);
            const sup = await call('POST', '/api/super-admin/login', { body: SUPER });
            expect(sup.status).to.equal(200);
            secrets.superToken = sup.body.token;
            expect((await call('GET', '/api/super-admin/organizations', { headers: bearer(sup.body.token) })).status).to.equal(200);
            const org = await call('POST', '/api/org/login', { body: { email: tenant.orgUser.email, password: tenant.orgUser.password } });
            expect(org.status).to.equal(200);
            secrets.orgToken = org.body.token;
            expect((await call('GET', `/api/org/bot-instances?organizationId=${tenant.organization.id}`, { headers: bearer(org.body.token) })).status).to.equal(200);

            // The widget: a code sent by SMS (outbox) and viewed with it.
            const sent = await call('POST', '/api/loyalty/verify', { body: { identifier: PHONE, sessionId: 'widget_logs_1' }, headers: widget });
            expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
            secrets.code = await lastCode(t.server, PHONE);
            const viewed = await call('POST', '/api/loyalty/view', { body: { identifier: PHONE, code: secrets.code, sessionId: 'widget_logs_1' }, headers: widget });
            expect(viewed.status).to.equal(200);
            expect(viewed.body.points).to.equal(1250);

            // The agent: a socket whose hello carries the Bearer token, Available, its organization's feed.
            const agentBox = inbox();
            const agent = await connect(t.url, admin.body.token);
            await agent.subscribe(`/agents/${tenant.organization.id}`, (m: any) => agentBox.messages.push(m));
            expect((await call('POST', '/api/chat/agent/availability', { body: { available: true }, headers: bearer(admin.body.token) })).status).to.equal(200);

            // The customer: a live chat, its token on HTTP calls and on its socket.
            const created = await call('POST', '/api/chat/create-session', { body: { sessionId: 'logs_chat_1', phoneNumber: PHONE, customerMessage: 'A human, please' }, headers: widget });
            expect(created.status).to.be.oneOf([200, 201]);
            secrets.customerToken = created.body.token;
            const customer = await connectCustomer(t.url, created.body.token, 'logs_chat_1');
            try {
                await agentBox.waitFor((m) => m.type === 'new_customer');
                expect((await request(agent, 'POST', '/api/chat/session/logs_chat_1/accept', {})).statusCode).to.equal(200);
                await request(agent, 'POST', '/api/chat/session/logs_chat_1/messages', { message: 'Agent over the socket' });
                const http = await call('POST', '/api/chat/session/logs_chat_1/messages', {
                    body: { message: 'Agent over HTTP' }, headers: bearer(admin.body.token)
                });
                expect(http.status).to.equal(201);
                await customer.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Agent over HTTP');
                await request(customer.client, 'POST', '/api/chat/session/logs_chat_1/messages', { message: 'Customer over the socket' });
                const fromPage = await call('POST', '/api/chat/session/logs_chat_1/messages', {
                    body: { message: 'Customer over HTTP' }, headers: { ...bearer(created.body.token), origin: 'https://shop.example' }
                });
                expect(fromPage.status).to.equal(201);
                await agentBox.waitFor((m) => m.type === 'chat_message' && m.message === 'Customer over HTTP');
                // The email the customer gives in the chat (issue 28): never in the log.
                const email = await call('PUT', '/api/chat/session/logs_chat_1/email', { body: { email: 'robin.logs@example.com' }, headers: bearer(created.body.token) });
                expect(email.status).to.equal(200);
                secrets.customerEmail = 'robin.logs@example.com';
                const end = await call('POST', '/api/chat/session/logs_chat_1/end', { body: { reason: 'customer_left' }, headers: bearer(created.body.token) });
                expect(end.status).to.equal(200);
            }
            finally {
                await customer.client.disconnect();
                await agent.disconnect();
            }
            // The mailed link to rate the chat (its path is its credential): opened, then sent.
            const link = signLinkToken(t.server.app.config.jwtSecret, { scope: 'rate', organizationId: tenant.organization.id, subject: 'logs_chat_1' }, 3600);
            secrets.rateToken = link;
            expect((await fetch(`${t.url}/rate/${link}`)).status).to.equal(200);
            const rated = await fetch(`${t.url}/rate/${link}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'score=5' });
            expect(rated.status).to.equal(201);
            expect(Object.keys(secrets)).to.have.length(12);
        });

        it('logged every request, with its headers', () => {
            const log = Fs.readFileSync(logFile, 'utf8');
            const lines = log.trim().split('\n').map((line) => JSON.parse(line));
            const urls = lines.map((l) => l.req?.url).filter(Boolean);
            for (const url of ['/api/admin/login', '/api/super-admin/login', '/api/org/login', '/api/loyalty/verify', '/api/loyalty/view',
                '/api/chat/create-session', '/api/chat/session/logs_chat_1/messages', '/nes/auth', '/rate/[Redacted]']) {
                expect(urls, url).to.include(url);
            }
            const headers = lines.filter((l) => l.req?.headers?.authorization !== undefined).map((l) => l.req.headers.authorization);
            expect(headers.length, 'request lines that had an Authorization header').to.be.greaterThan(8);
            expect(log).to.contain('sms stored in outbox');
        });

        it('holds no token, password, one-time code, cookie or customer email', () => {
            const log = Fs.readFileSync(logFile, 'utf8');
            const leaked = Object.entries(secrets).filter(([name, value]) => {
                expect(value, name).to.be.a('string').with.length.greaterThan(5);
                // The code as a number of its own (not six digits inside a timestamp).
                return name === 'code' ? new RegExp(`(?<![0-9])${value}(?![0-9])`).test(log) : log.includes(value);
            }).map(([name]) => name);
            expect(leaked, 'what the log holds').to.deep.equal([]);
            expect(log, 'a JSON Web Token').to.not.match(/eyJ[\w-]+\.eyJ[\w-]+/);
            expect(log, 'a Bearer credential').to.not.match(/bearer /i);
            for (const match of log.matchAll(/"(authorization|cookie|set-cookie)":("[^"]*"|\[[^\]]*\])/gi)) {
                expect(match[2], match[0]).to.equal('"[Redacted]"');
            }
        });
    });
}
