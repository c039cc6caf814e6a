import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { signUserToken } from '../../core/auth/tokens';

/**
 * Issue 25, the audit trail: sign-ins (and refused ones), knowledge edits, settings, a super admin's changes to a
 * store, user changes are recorded with who, when, from where and on what; a store's admins read their store's
 * rows only, super admins every store's; filters and a CSV export; nobody can change or delete a row over the API.
 */
describe('the audit trail (issue 25)', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    let superToken: string;
    const audit = async (token: string, query = '') => {
        const res = await server.inject({ url: `/api/privacy/audit${query}`, headers: bearer(token) });
        expect(res.statusCode, res.payload).to.equal(200);
        return JSON.parse(res.payload) as { total: number; rows: Array<Record<string, any>> };
    };

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'audita');
        b = await createTenant(server, 'auditb');
        const root = await server.app.services.users.create({ email: 'root@audit.test', password: 'root-password-1', role: 'super_admin' });
        superToken = signUserToken(server.app.config.jwtSecret, { id: root.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
    });
    after(async () => t?.close());

    it('records a sign-in and a refused one, a knowledge edit and a settings change, with the caller and the target', async () => {
        expect((await server.inject({ method: 'POST', url: '/api/admin/login', payload: { email: a.admin.email, password: a.admin.password }, remoteAddress: '10.25.0.7' })).statusCode).to.equal(200);
        expect((await server.inject({ method: 'POST', url: '/api/admin/login', payload: { email: a.admin.email, password: 'wrong-password-1' }, remoteAddress: '10.25.0.8' })).statusCode).to.equal(401);
        const created = await server.inject({ method: 'POST', url: '/api/ai/knowledge', headers: bearer(a.admin.token), payload: { title: 'Gift cards', content: 'Gift cards never expire.' } });
        expect(created.statusCode, created.payload).to.equal(201);
        const id = JSON.parse(created.payload).id;
        expect((await server.inject({ method: 'PUT', url: `/api/ai/knowledge/${id}`, headers: bearer(a.admin.token), payload: { content: 'Gift cards never expire, ever.' } })).statusCode).to.equal(200);
        expect((await server.inject({ method: 'PUT', url: '/api/ai/knowledge/999999', headers: bearer(a.admin.token), payload: { content: 'nothing' } })).statusCode,
            'a refused change records nothing').to.equal(404);
        expect((await server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(a.admin.token), payload: { emailNotificationsEnabled: true, emailRecipient: a.admin.email } })).statusCode).to.equal(200);

        const { rows } = await audit(a.admin.token);
        const actions = rows.map((r) => `${r.action} ${r.target ?? ''}`.trim());
        expect(actions).to.include.members(['auth.sign_in user:' + a.admin.id, `knowledge.create knowledge:${id}`, `knowledge.update knowledge:${id}`, 'settings.email.update']);
        expect(actions.filter((x) => x.startsWith('knowledge.update')), 'the 404 left no row').to.have.length(1);
        const signIn = rows.find((r) => r.action === 'auth.sign_in')!;
        expect(signIn).to.include({ actorUserId: a.admin.id, actorEmail: a.admin.email, actorRole: 'admin', organizationId: a.organization.id, ip: '10.25.0.7' });
        expect(new Date(signIn.createdAt).getTime()).to.be.closeTo(Date.now(), 60_000);
        // A refused sign-in names no account and belongs to no store: super admins see it.
        expect(rows.some((r) => r.action === 'auth.sign_in_failed')).to.equal(false);
        const failed = (await audit(superToken, '?action=auth.sign_in_failed')).rows;
        expect(failed.map((r) => r.ip)).to.include('10.25.0.8');
        expect(JSON.stringify(failed)).to.not.include(a.admin.email);
    });

    it('records a super admin\'s change to a store in that store\'s trail', async () => {
        const res = await server.inject({ method: 'PATCH', url: `/api/super-admin/organizations/${a.organization.id}`, headers: bearer(superToken), payload: { name: 'Store audita renamed' } });
        expect(res.statusCode, res.payload).to.equal(200);
        const row = (await audit(a.admin.token, '?action=organizations')).rows[0];
        expect(row).to.include({ action: 'organizations.update', target: `organization:${a.organization.id}`, actorRole: 'super_admin', organizationId: a.organization.id });
    });

    it('shows a store\'s admins their store\'s trail only; super admins every store\'s; filters; CSV', async () => {
        await server.inject({ method: 'POST', url: '/api/ai/knowledge', headers: bearer(b.admin.token), payload: { title: 'B only', content: 'B' } });
        const ofA = await audit(a.admin.token);
        expect(ofA.rows.every((r) => r.organizationId === a.organization.id)).to.equal(true);
        const all = await audit(superToken, '?limit=1000');
        expect(new Set(all.rows.map((r) => r.organizationId))).to.include(a.organization.id).and.to.include(b.organization.id);
        const ofB = await audit(superToken, `?organizationId=${b.organization.id}`);
        expect(ofB.rows.map((r) => r.action)).to.deep.equal(['knowledge.create']);
        const paged = await audit(a.admin.token, '?limit=1&offset=1');
        expect(paged.rows).to.have.length(1);
        expect(paged.total).to.equal(ofA.total);
        const csv = await server.inject({ url: '/api/privacy/audit?format=csv', headers: bearer(a.admin.token) });
        expect(csv.statusCode).to.equal(200);
        expect(csv.headers['content-type']).to.match(/^text\/csv/);
        expect(csv.payload.split('\r\n')[0]).to.equal('id,createdAt,organizationId,actorUserId,actorEmail,actorRole,action,target,subjectHash,details,ip');
        expect(csv.payload).to.include('knowledge.update');
    });

    it('answers 400 for bad filters, refuses organization users, and offers no way to change a row', async () => {
        for (const q of ['?limit=0', '?limit=5000', '?action=DROP%20TABLE', '?from=yesterday', '?format=xml', '?subject=zz']) {
            expect((await server.inject({ url: `/api/privacy/audit${q}`, headers: bearer(a.admin.token) })).statusCode, q).to.equal(400);
        }
        expect((await server.inject({ url: '/api/privacy/audit', headers: bearer(a.orgUser.token) })).statusCode).to.be.oneOf([401, 403]);
        const writes = server.table().filter((r) => r.path.startsWith('/api/privacy/audit') && r.method !== 'get');
        expect(writes).to.deep.equal([]);
    });
});
