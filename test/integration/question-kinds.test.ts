import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import Knex from 'knex';
import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { runCli } from '../helpers/cli';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';

describe('question kinds and a new store\'s default questions (issue 11)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;

    const as = (tenant: Tenant) => bearer(tenant.admin.token);

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'kinds');
    });
    after(async () => t?.close());

    it('gives a new organization the five SPEC §9 questions with their kinds, in order', async () => {
        const res = await server.inject({ url: '/api/questions', headers: { 'x-widget-key': a.bot.publicKey } });
        expect(res.statusCode).to.equal(200);
        const list = res.result as Array<{ question: string; kind: string; sortOrder: number; isActive: boolean }>;
        expect(list.map((q) => [q.question, q.kind, q.sortOrder, q.isActive])).to.deep.equal(
            DEFAULT_QUESTIONS.map((q, i) => [q.question, q.kind, i + 1, true]));
        expect(list.map((q) => q.kind)).to.deep.equal(['loyalty_check', 'answer', 'live_support', 'answer', 'answer']);
    });

    it('creates the defaults in the organization\'s transaction: a failing hook leaves neither organization nor questions', async () => {
        const tenants = server.app.services.tenants;
        tenants.onOrganizationCreated(async (_trx, org) => {
            if (org.subdomain === 'broken') {
                throw new Error('hook failed');
            }
        });
        let failed: Error | null = null;
        await tenants.createOrganization({ name: 'Broken', domain: 'broken.example', subdomain: 'broken' }).catch((err) => { failed = err; });
        expect(failed).to.be.an('error');
        expect(await tenants.getOrganizationBySubdomain('broken')).to.equal(null);
        const orphans = await server.app.db('premade_questions')
            .whereNotIn('organization_id', server.app.db('organizations').select('id'));
        expect(orphans).to.have.length(0);
    });

    it('keeps the behaviour when a question is renamed: the kind stays, only the text changes', async () => {
        const list = (await server.inject({ url: '/api/questions', headers: as(a) })).result as Array<{ id: number; kind: string }>;
        const loyalty = list.find((q) => q.kind === 'loyalty_check')!;
        const res = await server.inject({ method: 'PUT', url: `/api/questions/${loyalty.id}`, payload: { question: 'Wie viele Punkte habe ich?' }, headers: as(a) });
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.include({ question: 'Wie viele Punkte habe ich?', kind: 'loyalty_check' });
    });

    it('creates with kind answer unless given, sets and changes a kind, and refuses an unknown kind with 400 storing nothing', async () => {
        const plain = await server.inject({ method: 'POST', url: '/api/questions', payload: { question: 'Parking?', answer: 'Behind the store.' }, headers: as(a) });
        expect(plain.statusCode).to.equal(201);
        expect(plain.result).to.include({ kind: 'answer' });
        const human = await server.inject({ method: 'POST', url: '/api/questions', payload: { question: 'Someone please', answer: '…', kind: 'live_support' }, headers: as(a) });
        expect(human.statusCode).to.equal(201);
        expect(human.result).to.include({ kind: 'live_support' });
        const changed = await server.inject({ method: 'PUT', url: `/api/questions/${(human.result as any).id}`, payload: { kind: 'answer' }, headers: as(a) });
        expect(changed.result).to.include({ kind: 'answer', question: 'Someone please' });
        const before = ((await server.inject({ url: '/api/questions', headers: as(a) })).result as unknown[]).length;
        const bad = await server.inject({ method: 'POST', url: '/api/questions', payload: { question: 'X?', answer: 'Y', kind: 'teleport' }, headers: as(a) });
        expect(bad.statusCode).to.equal(400);
        expect(JSON.parse(bad.payload).message).to.equal('"kind" must be one of answer, loyalty_check, live_support');
        const badPut = await server.inject({ method: 'PUT', url: `/api/questions/${(plain.result as any).id}`, payload: { kind: 'LIVE' }, headers: as(a) });
        expect(badPut.statusCode).to.equal(400);
        const after = (await server.inject({ url: '/api/questions', headers: as(a) })).result as Array<{ id: number; kind: string }>;
        expect(after).to.have.length(before);
        expect(after.find((q) => q.id === (plain.result as any).id)!.kind).to.equal('answer');
    });

    it('`loyalty-chat org create` gives the new store its five questions too', async function () {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-kinds-'));
        try {
            const file = Path.join(dir, 'cli.sqlite');
            const env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'warn' };
            const res = await runCli(['org', 'create', '--name', 'Fresh', '--domain', 'fresh.test', '--subdomain', 'fresh', '--json'], env);
            expect(res.code, res.stderr).to.equal(0);
            const knex = Knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
            try {
                const rows = await knex('premade_questions').orderBy('sort_order').select('question', 'kind');
                expect(rows).to.deep.equal(DEFAULT_QUESTIONS.map((q) => ({ question: q.question, kind: q.kind })));
            }
            finally {
                await knex.destroy();
            }
        }
        finally {
            Fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
