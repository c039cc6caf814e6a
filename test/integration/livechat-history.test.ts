import { expect } from 'chai';
import { startWithStores, bearer, TestServer, Tenant } from '../helpers/server';
import { connectAgent, connectCustomer, createSession, request, disconnectAll } from '../helpers/livechat-client';
import { lastCode } from '../helpers/loyalty';
import { likeContains } from '../../plugins/livechat/services/console-service';

describe('the agent console: archive, history, previews, customer context and canned replies', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    const clients: any[] = [];

    before(async () => {
        ({ t, stores: [a, b] } = await startWithStores(['histalpha', 'histbeta']));
        await t.server.app.services.loyalty.seedDemoCustomers(a.organization.id, [
            { phone: '+15555550100', name: 'Avery Stone', email: 'avery@example.com', loyaltyId: 'LC-1', points: 1250,
                orders: [{ productName: 'Trail Running Shoes', quantity: 1, price: 129.99, daysAgo: 3 }, { productName: 'Wool Socks', quantity: 2, price: 12, daysAgo: 20 }] }
        ]);
    });
    afterEach(() => disconnectAll(clients));
    after(async () => {
        await t?.close();
    });

    const get = async (tenant: Tenant, url: string) => t.server.inject({ method: 'GET', url, headers: bearer(tenant.admin.token) });
    const post = async (tenant: Tenant, url: string, payload?: object) => t.server.inject({ method: 'POST', url, headers: bearer(tenant.admin.token), payload });
    const patch = async (tenant: Tenant, url: string, payload: object) => t.server.inject({ method: 'PATCH', url, headers: bearer(tenant.admin.token), payload });

    /** A chat of `tenant` that its admin accepted, with these customer and agent messages. */
    async function chat(tenant: Tenant, sessionId: string, first: string, more: Array<['customer' | 'agent', string]> = [], phone: string | null = '+15555550100'): Promise<{ token: string }> {
        const created = await createSession(t.server, tenant, sessionId, first, phone);
        expect((await post(tenant, `/api/chat/session/${sessionId}/accept`)).statusCode).to.equal(200);
        for (const [i, [sender, text]] of more.entries()) {
            const res = sender === 'agent'
                ? await post(tenant, `/api/chat/session/${sessionId}/messages`, { message: text, clientMessageId: `a${i}` })
                : await t.server.inject({ method: 'POST', url: `/api/chat/session/${sessionId}/messages`, headers: bearer(created.token), payload: { message: text, clientMessageId: `c${i}` } });
            expect(res.statusCode, res.payload).to.equal(201);
        }
        return created;
    }

    it('ends an active chat that is archived, telling its customer, and archives it', async () => {
        const agent = await connectAgent(t.url, a);
        clients.push(agent.client);
        const created = await chat(a, 'hist_archive_1', 'My parcel is late');
        const customer = await connectCustomer(t.url, created.token, 'hist_archive_1');
        clients.push(customer.client);
        const res = await patch(a, '/api/chat/session/hist_archive_1/archive', { isArchived: true });
        expect(res.statusCode).to.equal(200);
        expect(res.result).to.include({ status: 'completed', isArchived: true, endReason: 'archived', endedBy: 'agent' });
        const ended = await customer.box.waitFor((m) => m.type === 'session_ended');
        expect(ended).to.include({ sessionId: 'hist_archive_1', reason: 'archived', status: 'completed' });
        await agent.box.waitFor((m) => m.type === 'session_ended' && m.sessionId === 'hist_archive_1');
        const send = await t.server.inject({ method: 'POST', url: '/api/chat/session/hist_archive_1/messages', headers: bearer(created.token), payload: { message: 'hello?', clientMessageId: 'late' } });
        expect(send.statusCode, 'the customer no longer writes to nobody').to.equal(409);
        const active = await get(a, '/api/chat/sessions');
        expect((active.result as any[]).map((s) => s.sessionId)).to.not.include('hist_archive_1');
        const archived = await get(a, '/api/chat/history?archived=only');
        expect((archived.result as any).sessions.map((s: any) => s.sessionId)).to.include('hist_archive_1');
        const unarchive = await patch(a, '/api/chat/session/hist_archive_1/archive', { isArchived: false });
        expect(unarchive.result).to.include({ isArchived: false, status: 'completed' });
    });

    it('lists active chats with the last message and the customer messages no agent has read, and marks them read', async () => {
        await chat(a, 'hist_unread_1', 'First question', [['customer', 'second line'], ['agent', 'Hi there'], ['customer', 'third'], ['customer', 'fourth, the newest']]);
        const list = async () => ((await get(a, '/api/chat/sessions')).result as any[]).find((s) => s.sessionId === 'hist_unread_1');
        const before = await list();
        expect(before.lastMessage).to.include({ sender: 'customer', message: 'fourth, the newest' });
        expect(before.unreadCount).to.equal(4);
        expect(before.messageCount).to.equal(5);
        const read = await post(a, '/api/chat/session/hist_unread_1/read', { seq: 3 });
        expect(read.statusCode).to.equal(200);
        expect(read.result).to.deep.equal({ sessionId: 'hist_unread_1', agentReadSeq: 3, unreadCount: 2 });
        expect((await list()).unreadCount).to.equal(2);
        const backwards = await post(a, '/api/chat/session/hist_unread_1/read', { seq: 1 });
        expect(backwards.result, 'a read mark never moves back').to.include({ agentReadSeq: 3, unreadCount: 2 });
        const past = await post(a, '/api/chat/session/hist_unread_1/read', { seq: 999 });
        expect(past.result, 'nor past the last message').to.include({ agentReadSeq: 5, unreadCount: 0 });
        expect((await post(a, '/api/chat/session/hist_unread_1/read', { seq: -1 })).statusCode).to.equal(400);
        expect((await post(a, '/api/chat/session/hist_unread_1/read', {})).statusCode).to.equal(400);
        expect((await post(b, '/api/chat/session/hist_unread_1/read', { seq: 1 })).statusCode, 'another store').to.equal(404);
    });

    it('finds ended chats by a word in any message, phone, star and date, newest first, with the matching message', async () => {
        await chat(a, 'hist_find_1', 'Where are my trail shoes?', [['agent', 'They ship tomorrow'], ['customer', 'Thanks, the Zebra-print ones']], '+15555550177');
        await chat(a, 'hist_find_2', 'Do you sell gift cards?', [['agent', 'Yes, 100% of them online']], '+15555550188');
        await chat(a, 'hist_find_open', 'A zebra question still open');
        await chat(b, 'hist_find_other', 'zebra at the other store');
        for (const id of ['hist_find_1', 'hist_find_2']) {
            expect((await post(a, `/api/chat/session/${id}/end`)).statusCode).to.equal(200);
        }
        await patch(a, '/api/chat/session/hist_find_2/star', { isStarred: true });

        const find = async (query: string) => {
            const res = await get(a, `/api/chat/history?${query}`);
            expect(res.statusCode, res.payload).to.equal(200);
            return res.result as any;
        };
        const zebra = await find('q=ZEBRA');
        expect(zebra.sessions.map((s: any) => s.sessionId), 'ended chats of this store only, case-insensitive').to.deep.equal(['hist_find_1']);
        expect(zebra.sessions[0].match).to.deep.equal({ seq: 3, message: 'Thanks, the Zebra-print ones' });
        expect(zebra.total).to.equal(1);
        expect((await find('q=ship%20tomorrow')).sessions.map((s: any) => s.sessionId), 'agent messages count too').to.deep.equal(['hist_find_1']);
        // Words (issue 28): punctuation separates words and is not searched, nor a wildcard.
        expect((await find('q=100%25')).sessions.map((s: any) => s.sessionId), '100% is the word 100').to.deep.equal(['hist_find_2']);
        expect((await find('q=%25')).sessions, 'no word, nothing found').to.deep.equal([]);
        expect((await find('q=_')).sessions).to.deep.equal([]);
        expect((await find('q=gift_cards')).sessions.map((s: any) => s.sessionId), 'gift_cards is gift cards').to.deep.equal(['hist_find_2']);
        expect((await find('q=gift%25cards%25')).sessions.map((s: any) => s.sessionId), '% is no wildcard').to.deep.equal(['hist_find_2']);
        expect((await find('q=g%25ft')).sessions).to.deep.equal([]);
        expect((await find('phone=0188')).sessions.map((s: any) => s.sessionId)).to.deep.equal(['hist_find_2']);
        expect((await find('starred=true')).sessions.map((s: any) => s.sessionId)).to.deep.equal(['hist_find_2']);
        const all = await find('pageSize=100');
        const ids = all.sessions.map((s: any) => s.sessionId);
        expect(ids.indexOf('hist_find_2'), 'newest ended first').to.be.below(ids.indexOf('hist_find_1'));
        expect(ids).to.not.include('hist_find_open');
        expect(all.sessions.find((s: any) => s.sessionId === 'hist_find_1')).to.include({ messageCount: 3, status: 'completed' });
        const future = new Date(Date.now() + 86400000).toISOString();
        expect((await find(`from=${future}`)).sessions).to.deep.equal([]);
        expect((await find(`to=${future}&q=zebra`)).total).to.equal(1);
        const paged = await find('pageSize=1&page=2');
        expect(paged).to.include({ page: 2, pageSize: 1 });
        expect(paged.sessions).to.have.length(1);
        const transcript = await get(a, '/api/chat/session/hist_find_1');
        expect((transcript.result as any).messages.map((m: any) => m.message)).to.deep.equal(['Where are my trail shoes?', 'They ship tomorrow', 'Thanks, the Zebra-print ones']);
    });

    it('refuses bad history filters with a clear 400', async () => {
        for (const [query, text] of [
            ['from=yesterday', '"from" must be in ISO 8601 date format'],
            ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', '"to" must not be before "from"'],
            ['archived=maybe', '"archived" must be one of'],
            ['pageSize=1000', '"pageSize" must be less than or equal to 100'],
            ['q=' + 'x'.repeat(201), '"q" length must be less than or equal to 200'],
            ['starred=perhaps', '"starred" must be a boolean']
        ]) {
            const res = await get(a, `/api/chat/history?${query}`);
            expect(res.statusCode, query).to.equal(400);
            expect((res.result as any).message, query).to.contain(text);
        }
        expect((await t.server.inject({ method: 'GET', url: '/api/chat/history', headers: bearer(a.orgUser.token) })).statusCode, 'an organization user').to.equal(401);
    });

    it('escapes LIKE patterns', () => {
        expect(likeContains('50%_off\\')).to.equal('%50\\%\\_off\\\\%');
    });

    it('shows the customer beside the chat: verified phone, points, last orders and earlier chats', async () => {
        // The customer proves the phone in this widget session, then asks for a human.
        const widget = { 'x-widget-key': a.bot.publicKey };
        expect((await t.server.inject({ method: 'POST', url: '/api/loyalty/verify', headers: widget, payload: { identifier: '555-555-0100' } })).statusCode).to.equal(200);
        const code = await lastCode(t.server, '+15555550100');
        const view = await t.server.inject({ method: 'POST', url: '/api/loyalty/view', headers: widget, payload: { identifier: '555-555-0100', code, sessionId: 'hist_ctx_1' } });
        expect(view.statusCode, view.payload).to.equal(200);
        await chat(a, 'hist_ctx_1', 'About my points');
        const res = await get(a, '/api/chat/session/hist_ctx_1/context');
        expect(res.statusCode, res.payload).to.equal(200);
        const ctx = res.result as any;
        expect(ctx).to.include({ sessionId: 'hist_ctx_1', phoneNumber: '+15555550100', phoneVerified: true, loyaltyError: null });
        expect(ctx.customer).to.deep.equal({ name: 'Avery Stone', email: 'avery@example.com', loyaltyId: 'LC-1', points: 1250 });
        expect(ctx.orders.map((o: any) => o.productName)).to.deep.equal(['Trail Running Shoes', 'Wool Socks']);
        expect(ctx.previousChats.length, 'earlier chats of the same phone').to.be.greaterThan(0);
        expect(ctx.previousChats.map((s: any) => s.sessionId)).to.not.include('hist_ctx_1');
        expect(ctx.previousChats.map((s: any) => s.sessionId)).to.include('hist_archive_1');

        await chat(a, 'hist_ctx_2', 'No phone given', [], null);
        const anonymous = (await get(a, '/api/chat/session/hist_ctx_2/context')).result as any;
        expect(anonymous).to.include({ phoneNumber: null, phoneVerified: false, customer: null, loyaltyError: 'The customer gave no phone number' });
        expect(anonymous.previousChats).to.deep.equal([]);

        await chat(a, 'hist_ctx_3', 'Typed a phone, never verified', [], '+15555550100');
        const typed = (await get(a, '/api/chat/session/hist_ctx_3/context')).result as any;
        expect(typed, 'a typed phone is shown as not verified').to.include({ phoneNumber: '+15555550100', phoneVerified: false });
        expect((await get(a, '/api/chat/session/nope_nope/context')).statusCode).to.equal(404);
        expect((await get(b, '/api/chat/session/hist_ctx_1/context')).statusCode).to.equal(404);
    });

    it('offers the store\'s active pre-made answers as canned replies', async () => {
        const questions = t.server.app.services.questions;
        await questions.create(a.organization.id, { question: 'What are your hours?', answer: 'We are open 9 to 5.', isActive: true });
        await questions.create(a.organization.id, { question: 'Hidden one', answer: 'Not offered', isActive: false });
        await questions.create(b.organization.id, { question: 'Other store', answer: 'Not ours', isActive: true });
        const res = await get(a, '/api/chat/canned-replies');
        expect(res.statusCode).to.equal(200);
        const replies = res.result as any[];
        expect(replies.find((r) => r.title === 'What are your hours?')).to.include({ kind: 'question', text: 'We are open 9 to 5.' });
        expect(replies.map((r) => r.title)).to.not.include.members(['Hidden one', 'Other store']);
    });

    it('answers an agent of the store over a socket too (history through a request frame)', async () => {
        const agent = await connectAgent(t.url, a);
        clients.push(agent.client);
        const res = await request(agent.client, 'GET', '/api/chat/history?q=zebra');
        expect(res.payload.sessions.map((s: any) => s.sessionId)).to.deep.equal(['hist_find_1']);
    });
});
