import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connect, createSession, NesClient } from '../helpers/livechat-client';

describe('pre-made questions (/api/questions)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;

    const as = (tenant: Tenant) => ({ ...bearer(tenant.admin.token) });
    const create = (tenant: Tenant, payload: unknown) => server.inject({ method: 'POST', url: '/api/questions', payload: payload as object, headers: as(tenant) });

    before(async () => {
        t = await startTestServer({ listen: true });
        server = t.server;
        a = await createTenant(server, 'qa');
        b = await createTenant(server, 'qb');
        // These tests start from an empty list: a new store's five default questions are covered by question-kinds.test.ts.
        await server.app.db('premade_questions').whereIn('organization_id', [a.organization.id, b.organization.id]).delete();
    });
    after(async () => t?.close());

    it('creates a question as active with sortOrder = count + 1', async () => {
        const first = await create(a, { question: 'What are your store hours?', answer: 'Monday-Saturday 9AM-8PM.' });
        expect(first.statusCode, first.payload).to.equal(201);
        expect(first.result).to.include({ question: 'What are your store hours?', isActive: true, sortOrder: 1 });
        const second = await create(a, { question: 'How do I earn points?', answer: '1 point per $1.' });
        expect(second.result).to.include({ sortOrder: 2, isActive: true });
        expect((second.result as any).createdAt).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it('answers 400 naming the field for a missing answer, and stores nothing', async () => {
        const res = await create(a, { question: 'Half a question' });
        expect(res.statusCode).to.equal(400);
        expect(JSON.parse(res.payload).message).to.equal('"answer" is required');
        const list = await server.inject({ url: '/api/questions', headers: as(a) });
        expect((list.result as any[]).map((q) => q.question)).to.not.include('Half a question');
    });

    it('edits, disables and deletes a question; the widget reads only the active ones in order', async () => {
        const created = (await create(a, { question: 'Temp?', answer: 'Temp.' })).result as any;
        const edited = await server.inject({ method: 'PUT', url: `/api/questions/${created.id}`, payload: { question: 'Temporary?', isActive: false }, headers: as(a) });
        expect(edited.statusCode).to.equal(200);
        expect(edited.result).to.include({ question: 'Temporary?', answer: 'Temp.', isActive: false });
        const widget = await server.inject({ url: '/api/questions', headers: { 'x-widget-key': a.bot.publicKey } });
        expect(widget.statusCode).to.equal(200);
        expect((widget.result as any[]).map((q) => q.question)).to.deep.equal(['What are your store hours?', 'How do I earn points?']);
        const admin = await server.inject({ url: '/api/questions', headers: as(a) });
        expect((admin.result as any[]).map((q) => q.question)).to.include('Temporary?');
        const deleted = await server.inject({ method: 'DELETE', url: `/api/questions/${created.id}`, headers: as(a) });
        expect(deleted.statusCode).to.equal(204);
        const gone = await server.inject({ method: 'DELETE', url: `/api/questions/${created.id}`, headers: as(a) });
        expect(gone.statusCode).to.equal(404);
        expect(JSON.parse(gone.payload).message).to.equal('Question not found');
        const edit = await server.inject({ method: 'PUT', url: `/api/questions/${created.id}`, payload: { answer: 'Back?' }, headers: as(a) });
        expect(edit.statusCode).to.equal(404);
        expect(JSON.parse(edit.payload).message).to.equal('Question not found');
    });

    it('saves a new order, refusing a list that is not exactly the store\'s questions', async () => {
        const list = (await server.inject({ url: '/api/questions', headers: as(a) })).result as any[];
        const reversed = list.map((q) => q.id).reverse();
        const saved = await server.inject({ method: 'PUT', url: '/api/questions/order', payload: { ids: reversed }, headers: as(a) });
        expect(saved.statusCode, saved.payload).to.equal(200);
        expect((saved.result as any[]).map((q) => q.id)).to.deep.equal(reversed);
        expect((saved.result as any[]).map((q) => q.sortOrder)).to.deep.equal(reversed.map((_, i) => i + 1));
        const partial = await server.inject({ method: 'PUT', url: '/api/questions/order', payload: { ids: reversed.slice(1) }, headers: as(a) });
        expect(partial.statusCode).to.equal(400);
    });

    it('keeps organizations apart: another store\'s question answers 404 and is unchanged', async () => {
        const theirs = (await create(b, { question: 'B only?', answer: 'B.' })).result as any;
        const put = await server.inject({ method: 'PUT', url: `/api/questions/${theirs.id}`, payload: { answer: 'hacked' }, headers: as(a) });
        expect(put.statusCode).to.equal(404);
        const del = await server.inject({ method: 'DELETE', url: `/api/questions/${theirs.id}`, headers: as(a) });
        expect(del.statusCode).to.equal(404);
        const own = (await server.inject({ url: '/api/questions', headers: as(b) })).result as any[];
        expect(own).to.have.length(1);
        expect(own[0]).to.include({ answer: 'B.' });
        const widgetA = (await server.inject({ url: '/api/questions', headers: { 'x-widget-key': a.bot.publicKey } })).result as any[];
        expect(widgetA.map((q) => q.question)).to.not.include('B only?');
    });

    it('lets only admins change questions over HTTP: no credentials, an org user or a widget key are refused', async () => {
        expect((await server.inject({ method: 'POST', url: '/api/questions', payload: { question: 'x', answer: 'y' } })).statusCode).to.equal(401);
        expect((await server.inject({ method: 'POST', url: '/api/questions', payload: { question: 'x', answer: 'y' }, headers: bearer(a.orgUser.token) })).statusCode).to.equal(401);
        expect((await server.inject({ method: 'POST', url: '/api/questions', payload: { question: 'x', answer: 'y' }, headers: { 'x-widget-key': a.bot.publicKey } })).statusCode).to.equal(401);
        expect((await server.inject({ url: '/api/questions' })).statusCode).to.equal(401);
        expect((await server.inject({ method: 'PUT', url: '/api/questions/abc', payload: { answer: 'y' }, headers: as(a) })).statusCode).to.equal(400);
    });

    describe('over a socket (nes request frames, which skip the strategies)', function () {
        const sockets: NesClient[] = [];
        const frame = async (client: NesClient, method: string, path: string, payload?: unknown): Promise<{ statusCode: number; payload: any }> => {
            try {
                return await client.request({ method, path, payload });
            }
            catch (err) {
                return { statusCode: (err as { statusCode?: number }).statusCode ?? 0, payload: (err as { data?: unknown }).data };
            }
        };
        const open = async (token: string) => {
            const client = await connect(t.url, token);
            sockets.push(client);
            return client;
        };
        after(async () => {
            for (const client of sockets) {
                await client.disconnect().catch(() => undefined);
            }
        });

        it('lets only the organization\'s admins change questions: a customer socket gets 403, another store\'s admin 404, the admin\'s own socket passes', async () => {
            const mine = (await create(a, { question: 'Socket question?', answer: 'Socket answer.' })).result as any;
            const chat = await createSession(server, a, 'questions_socket_chat', 'hello');
            const customer = await open(chat.token);
            const otherAdmin = await open(b.admin.token);
            const admin = await open(a.admin.token);
            const stored = async () => (await server.inject({ url: '/api/questions', headers: as(a) })).result as any[];
            const before = await stored();

            for (const [method, path, payload] of [
                ['POST', '/api/questions', { question: 'By a customer?', answer: 'x' }],
                ['PUT', `/api/questions/${mine.id}`, { answer: 'changed by a customer' }],
                ['PUT', '/api/questions/order', { ids: before.map((q) => q.id).reverse() }],
                ['DELETE', `/api/questions/${mine.id}`, undefined]
            ] as const) {
                const res = await frame(customer, method, path, payload);
                expect(res.statusCode, `customer ${method} ${path}`).to.equal(403);
            }
            for (const [method, path, payload] of [
                ['PUT', `/api/questions/${mine.id}`, { answer: 'changed by B' }],
                ['DELETE', `/api/questions/${mine.id}`, undefined]
            ] as const) {
                const res = await frame(otherAdmin, method, path, payload);
                expect(res.statusCode, `admin of B ${method} ${path}`).to.equal(404);
            }
            const refused = await frame(otherAdmin, 'PUT', '/api/questions/order', { ids: before.map((q) => q.id) });
            expect(refused.statusCode, 'admin of B orders A\'s questions').to.equal(400);
            expect(await stored(), 'A\'s questions after the refused frames').to.deep.equal(before);

            const created = await frame(admin, 'POST', '/api/questions', { question: 'Over the socket?', answer: 'Yes.' });
            expect(created.statusCode).to.equal(201);
            expect(created.payload).to.include({ question: 'Over the socket?', isActive: true, sortOrder: before.length + 1 });
            const edited = await frame(admin, 'PUT', `/api/questions/${mine.id}`, { answer: 'Edited over the socket.' });
            expect(edited.statusCode).to.equal(200);
            expect(edited.payload).to.include({ id: mine.id, answer: 'Edited over the socket.' });
            const deleted = await frame(admin, 'DELETE', `/api/questions/${created.payload.id}`);
            expect(deleted.statusCode).to.equal(204);
            expect((await stored()).map((q) => q.id)).to.deep.equal(before.map((q) => q.id));
        });
    });
});
