import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { audienceFor, ISSUER } from '../../core/auth/tokens';
import { DEMO_USERS } from '../../plugins/auth/demo-data';
import { createServer } from '../../core/server';
import auth from '../../plugins/auth';

let ipCounter = 0;
/** Each login call gets its own client address unless one is given, so the per-IP throttle stays out of the way. */
function freshIp(): string {
    ipCounter += 1;
    return `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

async function login(server: Server, path: string, payload: unknown, ip = freshIp()) {
    const res = await server.inject({ method: 'POST', url: path, payload: payload as object, remoteAddress: ip });
    return { status: res.statusCode, body: JSON.parse(res.payload || '{}'), headers: res.headers };
}

async function get(server: Server, url: string, token?: string) {
    const res = await server.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
    return { status: res.statusCode, body: JSON.parse(res.payload || 'null') };
}

const LOGINS = {
    admin: '/api/admin/login',
    super_admin: '/api/super-admin/login',
    org_user: '/api/org/login'
} as const;
const VERIFY = {
    admin: '/api/admin/verify',
    super_admin: '/api/super-admin/verify',
    org_user: '/api/org/verify'
} as const;

describe('logins, roles and tokens', function () {
    this.timeout(60000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    const superPassword = 'super-secret-pass';
    let superToken: string;
    let superId: number;

    before(async () => {
        t = await startTestServer();
        a = await createTenant(t.server, 'authalpha', 'alpha.test');
        b = await createTenant(t.server, 'authbeta', 'beta.test');
        const sup = await t.server.app.services.users.create({ email: 'root@platform.test', password: superPassword, role: 'super_admin' });
        superId = sup.id;
        superToken = (await login(t.server, LOGINS.super_admin, { email: 'root@platform.test', password: superPassword })).body.token;
    });
    after(async () => {
        await t?.close();
    });

    const accounts = () => ({
        admin: { email: a.admin.email, password: a.admin.password },
        super_admin: { email: 'root@platform.test', password: superPassword },
        org_user: { email: a.orgUser.email, password: a.orgUser.password }
    });

    for (const role of ['admin', 'super_admin', 'org_user'] as const) {
        describe(`${LOGINS[role]}`, () => {
            it('gives a token for the right password, and the token passes its verify call', async () => {
                const res = await login(t.server, LOGINS[role], accounts()[role]);
                expect(res.status).to.equal(200);
                expect(res.body.message).to.equal('Login successful');
                expect(res.body.token).to.be.a('string');
                const verified = await get(t.server, VERIFY[role], res.body.token);
                expect(verified.status).to.equal(200);
                expect(verified.body.user).to.include({ email: accounts()[role].email, role });
            });

            it('answers 401 "Invalid email or password" for a wrong password and for an unknown email', async () => {
                const wrong = await login(t.server, LOGINS[role], { ...accounts()[role], password: 'not-the-password' });
                expect(wrong.status).to.equal(401);
                expect(wrong.body.message).to.equal('Invalid email or password');
                expect(wrong.body).to.not.have.property('token');
                const unknown = await login(t.server, LOGINS[role], { email: 'nobody@nowhere.test', password: 'whatever-it-is' });
                expect(unknown.status).to.equal(401);
                expect(unknown.body.message).to.equal('Invalid email or password');
            });

            it('answers 400 naming the missing field', async () => {
                const noEmail = await login(t.server, LOGINS[role], { password: 'x' });
                expect(noEmail.status).to.equal(400);
                expect(noEmail.body.message).to.contain('"email" is required');
                const noPassword = await login(t.server, LOGINS[role], { email: 'x@y.test' });
                expect(noPassword.status).to.equal(400);
                expect(noPassword.body.message).to.contain('"password" is required');
                const badEmail = await login(t.server, LOGINS[role], { email: 'not-an-email', password: 'x' });
                expect(badEmail.status).to.equal(400);
                expect(badEmail.body.message).to.contain('"email" must be a valid email');
            });

            it('refuses the right password of every other role with the same 401', async () => {
                for (const other of ['admin', 'super_admin', 'org_user'] as const) {
                    if (other === role) {
                        continue;
                    }
                    const res = await login(t.server, LOGINS[role], accounts()[other]);
                    expect(res.status, `${other} at ${LOGINS[role]}`).to.equal(401);
                    expect(res.body.message).to.equal('Invalid email or password');
                }
            });
        });
    }

    it('answers the organization login with the user, their role, organization id and organization', async () => {
        const res = await login(t.server, LOGINS.org_user, accounts().org_user);
        expect(res.body.user).to.include({ email: a.orgUser.email, role: 'org_user', organizationId: a.organization.id });
        expect(res.body.user.organization).to.include({ id: a.organization.id, name: a.organization.name, domain: 'alpha.test', subdomain: 'authalpha' });
    });

    it('answers a staff token with 401 on every route that does not admit its role, and lets it past the gate on those that do (generated from the route table)', async () => {
        // The access matrix (access-matrix.test.ts) checks every caller against the review table and accepts 401 or
        // 403; this checks each route against its own declaration, and that a staff token of another role is not
        // authenticated at all (its audience names its role), rather than authenticated and then refused by scope.
        const tokens: Record<string, string> = { admin: a.admin.token, super_admin: superToken, org_user: a.orgUser.token };
        const staffRoutes = t.server.table().filter((route) => {
            const auth = route.settings.auth as { strategies?: string[] } | false | undefined;
            return !route.settings.isInternal && !!auth && (auth.strategies ?? []).some((strategy) => strategy in tokens);
        });
        expect(staffRoutes.length, 'routes that admit staff').to.be.greaterThan(25);
        const failures: string[] = [];
        for (const route of staffRoutes) {
            const admitted = (route.settings.auth as { strategies: string[] }).strategies;
            const url = route.path.replace('{id}', '2147483000').replace(/\{[A-Za-z]+\*?\}/g, 'role_probe');
            for (const [role, token] of Object.entries(tokens)) {
                const res = await t.server.inject({
                    method: route.method,
                    url,
                    headers: bearer(token),
                    payload: ['post', 'put', 'patch'].includes(route.method) ? {} : undefined
                });
                const ok = admitted.includes(role) ? ![401, 403].includes(res.statusCode) : res.statusCode === 401;
                if (!ok) {
                    failures.push(`${role} token at ${route.method.toUpperCase()} ${route.path} (${route.settings.id}): ${res.statusCode}`);
                }
            }
        }
        expect(failures).to.deep.equal([]);
    });

    it('fails start-up with a clear message when no plugin provides the organizations the auth plugin asks for', async () => {
        const lone = await createServer(t.config, [auth]);
        try {
            const err = await lone.initialize().then(() => null, (e: Error) => e);
            expect(err?.message).to.equal('No plugin provided the organizations: register the tenants plugin too');
        }
        finally {
            await lone.stop();
        }
    });

    describe('forged and stale tokens', () => {
        const secret = () => t.server.app.config.jwtSecret;
        const claims = () => ({ role: 'admin', org: a.organization.id, tv: 0 });
        const options = (over: jwt.SignOptions = {}): jwt.SignOptions => ({
            algorithm: 'HS256', expiresIn: 3600, issuer: ISSUER, audience: audienceFor('admin'), subject: String(a.admin.id), ...over
        });

        it('accepts the well-formed control token (so the rejections below are about one flaw each)', async () => {
            expect((await get(t.server, VERIFY.admin, jwt.sign(claims(), secret(), options()))).status).to.equal(200);
        });

        it('rejects a token signed with alg none', async () => {
            const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
            const now = Math.floor(Date.now() / 1000);
            const body = Buffer.from(JSON.stringify({ ...claims(), sub: String(a.admin.id), iss: ISSUER, aud: audienceFor('admin'), iat: now, exp: now + 3600 })).toString('base64url');
            expect((await get(t.server, VERIFY.admin, `${header}.${body}.`)).status).to.equal(401);
        });

        it('rejects a token signed with another secret', async () => {
            expect((await get(t.server, VERIFY.admin, jwt.sign(claims(), 'another-secret-another-secret-123456', options()))).status).to.equal(401);
        });

        it('rejects an expired token', async () => {
            const { expiresIn: _ignored, ...noExpiry } = options();
            const expired = jwt.sign({ ...claims(), exp: Math.floor(Date.now() / 1000) - 10 }, secret(), noExpiry);
            expect((await get(t.server, VERIFY.admin, expired)).status).to.equal(401);
        });

        it('rejects a token for another audience or issuer', async () => {
            expect((await get(t.server, VERIFY.admin, jwt.sign(claims(), secret(), options({ audience: audienceFor('super_admin') })))).status).to.equal(401);
            expect((await get(t.server, VERIFY.admin, jwt.sign(claims(), secret(), options({ audience: 'someone-else' })))).status).to.equal(401);
            expect((await get(t.server, VERIFY.admin, jwt.sign(claims(), secret(), options({ issuer: 'not-us' })))).status).to.equal(401);
        });

        it('rejects a token signed with another HMAC algorithm than the pinned HS256', async () => {
            expect((await get(t.server, VERIFY.admin, jwt.sign(claims(), secret(), options({ algorithm: 'HS512' })))).status).to.equal(401);
        });

        it('keeps staff tokens to at most 24 hours', async () => {
            for (const role of ['admin', 'super_admin', 'org_user'] as const) {
                const { token } = (await login(t.server, LOGINS[role], accounts()[role])).body;
                const decoded = jwt.decode(token) as jwt.JwtPayload;
                expect(decoded.exp! - decoded.iat!).to.be.within(1, 24 * 3600);
            }
        });
    });

    describe('revocation', () => {
        it('revokes every token of a user at once when their password changes', async () => {
            const tenant = await createTenant(t.server, 'revokepw');
            const token = (await login(t.server, LOGINS.admin, { email: tenant.admin.email, password: tenant.admin.password })).body.token;
            expect((await get(t.server, VERIFY.admin, token)).status).to.equal(200);
            const res = await t.server.inject({ method: 'PATCH', url: `/api/super-admin/users/${tenant.admin.id}`, headers: bearer(superToken), payload: { password: 'a-brand-new-password' } });
            expect(res.statusCode).to.equal(200);
            expect((await get(t.server, VERIFY.admin, token)).status).to.equal(401);
            expect((await get(t.server, VERIFY.admin, tenant.admin.token)).status).to.equal(401);
            expect((await login(t.server, LOGINS.admin, { email: tenant.admin.email, password: 'a-brand-new-password' })).status).to.equal(200);
        });

        it('revokes the tokens of a deactivated user and refuses their login', async () => {
            const tenant = await createTenant(t.server, 'revokeoff');
            expect((await get(t.server, VERIFY.org_user, tenant.orgUser.token)).status).to.equal(200);
            const res = await t.server.inject({ method: 'POST', url: `/api/super-admin/users/${tenant.orgUser.id}/deactivate`, headers: bearer(superToken) });
            expect(res.statusCode).to.equal(200);
            expect(JSON.parse(res.payload).isActive).to.equal(false);
            expect((await get(t.server, VERIFY.org_user, tenant.orgUser.token)).status).to.equal(401);
            const again = await login(t.server, LOGINS.org_user, { email: tenant.orgUser.email, password: tenant.orgUser.password });
            expect(again.status).to.equal(401);
            expect(again.body.message).to.equal('Invalid email or password');
        });

        it('shuts out the users of a deactivated organization', async () => {
            const tenant = await createTenant(t.server, 'revokeorg');
            const res = await t.server.inject({ method: 'POST', url: `/api/super-admin/organizations/${tenant.organization.id}/deactivate`, headers: bearer(superToken) });
            expect(res.statusCode).to.equal(200);
            expect((await get(t.server, VERIFY.admin, tenant.admin.token)).status).to.equal(401);
            expect((await login(t.server, LOGINS.admin, { email: tenant.admin.email, password: tenant.admin.password })).status).to.equal(401);
        });
    });

    describe('the super-admin API', () => {
        const call = (method: string, url: string, payload?: object) =>
            t.server.inject({ method, url, payload, headers: bearer(superToken) }).then((r) => ({ status: r.statusCode, body: JSON.parse(r.payload || 'null') }));

        it('lists every organization, bot instance (with key and embed snippet) and user', async () => {
            const orgs = await call('GET', '/api/super-admin/organizations');
            expect(orgs.body.map((o: any) => o.subdomain)).to.include.members(['authalpha', 'authbeta']);
            expect(orgs.body[0]).to.have.keys('id', 'name', 'domain', 'subdomain', 'subscriptionPlan', 'isActive', 'extraDomains', 'storeName', 'country', 'languages', 'createdAt');
            const bots = await call('GET', '/api/super-admin/bot-instances');
            const bot = bots.body.find((x: any) => x.id === a.bot.id);
            expect(bot).to.include({ organizationId: a.organization.id, organizationName: a.organization.name, publicKey: a.bot.publicKey, isActive: true });
            expect(bot.embedSnippet).to.match(/^<script src="http:\/\/[^"]+\/widget-authalpha\.js" async><\/script>$/);
            const users = await call('GET', '/api/super-admin/users');
            expect(users.body.map((u: any) => u.email)).to.include.members([a.admin.email, a.orgUser.email, 'root@platform.test']);
            expect(JSON.stringify(users.body)).to.not.match(/password|token_version/);
        });

        it('creates, updates and deactivates an organization, a bot instance and a user', async () => {
            const org = await call('POST', '/api/super-admin/organizations', { name: 'Made In Browser', domain: 'browser.test', subdomain: 'browsermade', subscriptionPlan: 'basic' });
            expect(org.status).to.equal(201);
            expect(org.body).to.include({ subdomain: 'browsermade', subscriptionPlan: 'basic', isActive: true });
            const renamed = await call('PATCH', `/api/super-admin/organizations/${org.body.id}`, { name: 'Renamed', subscriptionPlan: 'pro' });
            expect(renamed.body).to.include({ name: 'Renamed', subscriptionPlan: 'pro' });

            const bot = await call('POST', '/api/super-admin/bot-instances', { organizationId: org.body.id, name: 'Main widget', description: 'Home page' });
            expect(bot.status).to.equal(201);
            expect(bot.body.publicKey).to.match(/^pk_/);
            expect(bot.body.embedSnippet).to.contain('/widget-browsermade.js');
            expect((await call('PATCH', `/api/super-admin/bot-instances/${bot.body.id}`, { description: 'Everywhere' })).body.description).to.equal('Everywhere');
            expect((await call('POST', `/api/super-admin/bot-instances/${bot.body.id}/deactivate`)).body.isActive).to.equal(false);
            expect(await t.server.app.services.tenants.resolveWidgetKey(bot.body.publicKey)).to.equal(null);

            const user = await call('POST', '/api/super-admin/users', { email: 'Agent@Browser.test', password: 'long-enough-pw', role: 'admin', organizationId: org.body.id });
            expect(user.status).to.equal(201);
            expect(user.body).to.include({ email: 'agent@browser.test', role: 'admin', organizationId: org.body.id, isActive: true });
            expect((await login(t.server, LOGINS.admin, { email: 'agent@browser.test', password: 'long-enough-pw' })).status).to.equal(200);
            expect((await call('POST', `/api/super-admin/users/${user.body.id}/deactivate`)).body.isActive).to.equal(false);
            expect((await call('PATCH', `/api/super-admin/users/${user.body.id}`, { isActive: true })).body.isActive).to.equal(true);

            expect((await call('POST', `/api/super-admin/organizations/${org.body.id}/deactivate`)).body.isActive).to.equal(false);
            expect((await call('PATCH', `/api/super-admin/organizations/${org.body.id}`, { isActive: true })).body.isActive).to.equal(true);
        });

        it('answers 400 naming the field for invalid input, 409 for a taken subdomain or email, 404 for unknown ids, and stores nothing', async () => {
            const before = (await call('GET', '/api/super-admin/organizations')).body.length;
            const noName = await call('POST', '/api/super-admin/organizations', { domain: 'x.test', subdomain: 'noname' });
            expect(noName.status).to.equal(400);
            expect(noName.body.message).to.contain('"name" is required');
            const badSub = await call('POST', '/api/super-admin/organizations', { name: 'X', domain: 'x.test', subdomain: 'Not Valid!' });
            expect(badSub.status).to.equal(400);
            expect(badSub.body.message).to.contain('"subdomain"');
            expect((await call('POST', '/api/super-admin/organizations', { name: 'X', domain: 'x.test', subdomain: 'authalpha' })).status).to.equal(409);
            expect((await call('GET', '/api/super-admin/organizations')).body.length).to.equal(before);
            const shortPw = await call('POST', '/api/super-admin/users', { email: 'x@x.test', password: 'short', role: 'admin', organizationId: a.organization.id });
            expect(shortPw.status).to.equal(400);
            expect(shortPw.body.message).to.contain('"password" must be at least 8 characters');
            const noOrg = await call('POST', '/api/super-admin/users', { email: 'x@x.test', password: 'long-enough-pw', role: 'org_user' });
            expect(noOrg.status).to.equal(400);
            expect((await call('POST', '/api/super-admin/users', { email: a.admin.email, password: 'long-enough-pw', role: 'admin', organizationId: a.organization.id })).status).to.equal(409);
            const unknown = await call('PATCH', '/api/super-admin/organizations/999999', { name: 'Y' });
            expect(unknown.status).to.equal(404);
            expect(unknown.body.message).to.equal('Organization not found');
            expect((await call('PATCH', '/api/super-admin/organizations/abc', { name: 'Y' })).status).to.equal(400);
            expect((await call('PATCH', `/api/super-admin/organizations/${a.organization.id}`, {})).status).to.equal(400);
            expect((await call('POST', '/api/super-admin/bot-instances', { organizationId: 999999, name: 'Z' })).status).to.equal(404);
            expect((await call('POST', '/api/super-admin/bot-instances/999999/deactivate')).body).to.include({ statusCode: 404, message: 'Bot instance not found' });
            expect((await call('POST', '/api/super-admin/users/999999/deactivate')).body).to.include({ statusCode: 404, message: 'User not found' });
        });

        it('does not let a super admin deactivate their own account', async () => {
            const res = await call('POST', `/api/super-admin/users/${superId}/deactivate`);
            expect(res.status).to.equal(400);
            expect(res.body.message).to.equal('You cannot deactivate your own account');
            expect((await get(t.server, VERIFY.super_admin, superToken)).status).to.equal(200);
        });
    });

    describe('the organization API', () => {
        it('lists only the caller\'s own bot instances, with public key and embed snippet', async () => {
            for (const url of ['/api/org/bot-instances', `/api/org/bot-instances?organizationId=${a.organization.id}`]) {
                const res = await get(t.server, url, a.orgUser.token);
                expect(res.status).to.equal(200);
                expect(res.body.map((x: any) => x.id)).to.deep.equal([a.bot.id]);
                expect(res.body[0].publicKey).to.equal(a.bot.publicKey);
                expect(res.body[0].embedSnippet).to.match(/widget-authalpha\.js" async><\/script>$/);
            }
        });

        it('answers 404 and nothing of the other organization for its id', async () => {
            for (const url of [`/api/org/bot-instances?organizationId=${b.organization.id}`, `/api/org/analytics?organizationId=${b.organization.id}`]) {
                const res = await t.server.inject({ url, headers: bearer(a.orgUser.token) });
                expect(res.statusCode, url).to.equal(404);
                expect(res.payload).to.not.contain('authbeta');
                expect(res.payload).to.not.contain(b.bot.publicKey);
            }
        });

        it('answers the analytics totals with the organization\'s name, domain and subdomain (zeros before any event)', async () => {
            const res = await get(t.server, `/api/org/analytics?organizationId=${a.organization.id}`, a.orgUser.token);
            expect(res.status).to.equal(200);
            expect(res.body).to.include({
                organizationId: a.organization.id, name: a.organization.name, domain: 'alpha.test', subdomain: 'authalpha',
                totalInteractions: 0, loyaltyChecks: 0, liveChatSessions: 0, successRate: 0
            });
            // 30 local days of the organization's zone (New York): 30 × 24 h, give or take a daylight saving change.
            expect(res.body.timeZone).to.equal('America/New_York');
            expect(res.body.daily).to.have.length(30);
            expect(Date.parse(res.body.to) + 1 - Date.parse(res.body.from)).to.be.within(30 * 24 * 3600 * 1000 - 3600 * 1000, 30 * 24 * 3600 * 1000 + 3600 * 1000);
        });

        it('sums the caller\'s organization\'s events from the first moment of startDate to the last of endDate (the organization\'s zone, New York)', async () => {
            const analytics = t.server.app.services.analytics;
            // New York is UTC-5 in January: its 1 January begins at 05:00 UTC.
            const inside: Array<[string, boolean | null, string]> = [
                ['points_retrieved', true, '2026-01-01T05:00:00.000Z'],
                ['verification_sent', true, '2026-01-15T12:00:00.000Z'],
                ['live_chat_requested', null, '2026-01-20T08:30:00.000Z'],
                ['code_verification_failed', false, '2026-02-01T04:59:59.999Z']
            ];
            const outside: Array<[string, boolean | null, string]> = [
                ['widget_opened', true, '2026-01-01T04:59:59.999Z'],
                ['widget_opened', true, '2026-02-01T05:00:00.000Z']
            ];
            for (const [action, success, at] of [...inside, ...outside]) {
                await analytics.track({ organizationId: a.organization.id, action, success, createdAt: Date.parse(at) });
            }
            await analytics.track({ organizationId: b.organization.id, action: 'verification_sent', success: true, createdAt: Date.parse('2026-01-10T00:00:00.000Z') });
            await t.server.app.jobs.drain();

            const res = await get(t.server, `/api/org/analytics?organizationId=${a.organization.id}&startDate=2026-01-01&endDate=2026-01-31`, a.orgUser.token);
            expect(res.status).to.equal(200);
            // 1 code that showed points out of 2 outcomes (1 shown, 1 wrong code) = 50%.
            const { daily, ...totals } = res.body;
            expect(totals).to.deep.equal({
                organizationId: a.organization.id, name: a.organization.name, domain: 'alpha.test', subdomain: 'authalpha',
                totalInteractions: 4, loyaltyChecks: 1, liveChatSessions: 0, successRate: 50,    // an event, not a created chat (issue 23)
                from: '2026-01-01T05:00:00.000Z', to: '2026-02-01T04:59:59.999Z', timeZone: 'America/New_York'
            });
            expect(daily).to.have.length(31);
            expect(daily[0]).to.include({ date: '2026-01-01', points_viewed: 1 });
            const oneDay = await get(t.server, '/api/org/analytics?startDate=2026-01-31', a.orgUser.token);
            expect(oneDay.body).to.include({ totalInteractions: 1, from: '2026-01-31T05:00:00.000Z', to: '2026-02-01T04:59:59.999Z' });

            const bad = await get(t.server, '/api/org/analytics?startDate=2026-02-01&endDate=2026-01-01', a.orgUser.token);
            expect(bad.status).to.equal(400);
            expect(bad.body.message).to.contain('"endDate"');
            expect((await get(t.server, '/api/org/analytics?endDate=2026-01-01', a.orgUser.token)).status).to.equal(400);
        });
    });

    describe('the demo credentials box', () => {
        it('answers 404 while the demo super admin does not exist, the demo login once it does, and 404 in production', async () => {
            expect((await get(t.server, '/api/super-admin/demo-credentials')).status).to.equal(404);
            const demo = DEMO_USERS.find((u) => u.role === 'super_admin')!;
            await t.server.app.services.users.create({ email: demo.email, password: demo.password, role: 'super_admin' });
            const shown = await get(t.server, '/api/super-admin/demo-credentials');
            expect(shown.status).to.equal(200);
            expect(shown.body).to.deep.equal({ email: demo.email, password: demo.password });
            expect((await login(t.server, LOGINS.super_admin, shown.body)).status).to.equal(200);
            const config = t.server.app.config as { env: string };
            config.env = 'production';
            try {
                expect((await get(t.server, '/api/super-admin/demo-credentials')).status).to.equal(404);
            }
            finally {
                config.env = 'test';
            }
        });
    });
});
