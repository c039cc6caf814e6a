import { expect } from 'chai';
import { startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';
import { startFakeSmtp } from '../helpers/fake-smtp';
import { connectAgent, NesClient } from '../helpers/livechat-client';
import leftMessagesMigration from '../../plugins/livechat/migrations/20261202000000-left-messages';
import { visitorNumber } from '../../core/shared/visitor';

/**
 * Issue 23, the staff side: a message left with the widget's form is a conversation in the console's Messages inbox
 * (unread, pushed live), answered by email from the console (Reply-To the store), kept as a thread, marked done or
 * reopened; and customers without a phone are told apart by a visitor label that stays with the widget session.
 */
/** A received mail's text: quoted-printable soft line breaks joined and its =XX bytes decoded (UTF-8). */
function decoded(raw: string): string {
    const joined = raw.replace(/=\r?\n/g, '');
    return Buffer.from(joined.replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
}

describe('live chat: left messages are conversations in the console, answered by email', function () {
    this.timeout(30000);
    let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    let agent: { client: NesClient; box: { messages: any[]; waitFor(p: (m: any) => boolean, ms?: number): Promise<any> } } | null = null;

    before(async () => {
        smtp = await startFakeSmtp();
        t = await startTestServer({ listen: true, env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, MAIL_FROM: 'chat@platform.test' } });
        a = await createTenant(t.server, 'lma', 'lma.test');
        b = await createTenant(t.server, 'lmb', 'lmb.test');
        await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(a.admin.token), payload: { emailNotificationsEnabled: false, emailRecipient: 'desk@lma.test' } });
    });
    after(async () => {
        await agent?.client.disconnect();
        await t?.close();
        await smtp?.close();
    });

    let ip = 0;
    const leave = (tenant: Tenant, payload: Record<string, unknown>) => t.server.inject({
        method: 'POST', url: '/api/chat/offline-message', remoteAddress: `10.23.0.${(ip += 1)}`,
        headers: { 'x-widget-key': tenant.bot.publicKey }, payload
    });
    const inbox = async (tenant: Tenant, state = 'open') => {
        const res = await t.server.inject({ method: 'GET', url: `/api/chat/left-messages?state=${state}`, headers: bearer(tenant.admin.token) });
        expect(res.statusCode, res.payload).to.equal(200);
        return res.result as any;
    };
    const reply = (tenant: Tenant, sessionId: string, payload: Record<string, unknown>) => t.server.inject({
        method: 'POST', url: `/api/chat/left-messages/${encodeURIComponent(sessionId)}/reply`, headers: bearer(tenant.admin.token), payload
    });

    it('puts a left message in the inbox, unread, with email, name and page, and pushes it to a connected agent', async () => {
        agent = await connectAgent(t.url, a);
        const res = await leave(a, {
            sessionId: 'widget_1_leftone', email: 'jo@example.test', name: 'Jo Park', message: 'Do you have the blue jacket in M?',
            pageUrl: 'https://lma.test/products/jacket'
        });
        expect(res.statusCode, res.payload).to.equal(201);

        const push = await agent.box.waitFor((m) => m.type === 'left_message');
        expect(push).to.include({ sessionId: 'widget_1_leftone', email: 'jo@example.test', name: 'Jo Park', message: 'Do you have the blue jacket in M?',
            pageUrl: 'https://lma.test/products/jacket', visitorNumber: visitorNumber('widget_1_leftone') });

        const page = await inbox(a);
        expect(page).to.include({ open: 1, unread: 1 });
        expect(page.messages).to.have.length(1);
        expect(page.messages[0]).to.include({
            sessionId: 'widget_1_leftone', kind: 'left_message', inboxState: 'open', unreadCount: 1, customerEmail: 'jo@example.test',
            customerName: 'Jo Park', pageUrl: 'https://lma.test/products/jacket', firstMessage: 'Do you have the blue jacket in M?', phoneNumber: 'Unknown'
        });
        expect(page.messages[0].visitorLabel).to.match(/^Visitor \d{4}$/);

        // The store still gets it by mail, and can answer the customer from its mail client (Reply-To).
        await smtp.waitFor(1);
        const storeMail = smtp.received.find((m) => m.to.includes('desk@lma.test'))!;
        expect(decoded(storeMail.raw)).to.include('Do you have the blue jacket in M?').and.match(/^Reply-To: jo@example\.test/m);

        // A live chat is not a left message, and a left message is not in History.
        const history = await t.server.inject({ method: 'GET', url: '/api/chat/history', headers: bearer(a.admin.token) });
        expect(JSON.stringify(history.result)).to.not.include('widget_1_leftone');
        // Only this store's agents see it.
        expect((await inbox(b)).messages).to.deep.equal([]);
    });

    it('mails the agent\'s reply to the customer with the store as Reply-To, keeps it in the thread, and reads the message', async () => {
        const before = smtp.received.length;
        const res = await reply(a, 'widget_1_leftone', { message: 'Yes! We have two in M.', clientMessageId: 'reply-1' });
        expect(res.statusCode, res.payload).to.equal(201);
        expect(res.result).to.deep.include({ to: 'jo@example.test', replyTo: 'desk@lma.test' });
        await smtp.waitFor(before + 1);
        const mail = smtp.received[before];
        expect(mail.to).to.deep.equal(['jo@example.test']);
        expect(decoded(mail.raw)).to.match(/^Reply-To: desk@lma\.test/m).and.to.match(/^Subject: Re: your message to /m)
            .and.include('Yes! We have two in M.').and.include('Hi Jo Park,').and.include('> Do you have the blue jacket in M?')
            .and.include('To answer, reply to this email: it goes to Store lma.');
        const outbox = await t.server.app.services.mail.list({ to: 'jo@example.test' });
        expect(outbox[0]).to.include({ status: 'sent', replyTo: 'desk@lma.test' });

        const thread = await t.server.inject({ method: 'GET', url: '/api/chat/session/widget_1_leftone', headers: bearer(a.admin.token) });
        expect((thread.result as any).messages.map((m: any) => [m.sender, m.message])).to.deep.equal([
            ['customer', 'Do you have the blue jacket in M?'],
            ['system', 'Offline message: no agent was available. Reply to jo@example.test'],
            ['agent', 'Yes! We have two in M.']
        ]);
        const page = await inbox(a);
        expect(page).to.include({ open: 1, unread: 0 });
        expect(page.messages[0]).to.include({ unreadCount: 0, messageCount: 3 });
        expect(page.messages[0].lastMessage).to.include({ sender: 'agent', message: 'Yes! We have two in M.' });
        await agent!.box.waitFor((m) => m.type === 'left_message_updated' && m.message?.message === 'Yes! We have two in M.');

        // A retry of the same reply is answered from the thread and mailed once.
        const again = await reply(a, 'widget_1_leftone', { message: 'Yes! We have two in M.', clientMessageId: 'reply-1' });
        expect(again.statusCode).to.equal(200);
        await new Promise((r) => setTimeout(r, 200));       // a second mail must not come: no event to wait for, so a window well past the mail job's few ms
        expect(smtp.received.length).to.equal(before + 1);
    });

    it('mails the reply in the language the customer wrote in (the widget\'s lang), English for one it does not have', async () => {
        await leave(a, { sessionId: 'widget_1_leftes', email: 'ana@example.test', name: 'Ana', message: '¿Tienen la chaqueta azul?', lang: 'es-MX' });
        // Italian is not shipped (German is, since issue 27's translations): English.
        await leave(a, { sessionId: 'widget_1_leftde', email: 'udo@example.test', message: 'Avete la giacca?', lang: 'it' });
        expect((await reply(a, 'widget_1_leftes', { message: '¡Sí, en talla M!' })).statusCode).to.equal(201);
        expect((await reply(a, 'widget_1_leftde', { message: 'Yes, in M.' })).statusCode).to.equal(201);
        const [es] = await t.server.app.services.mail.list({ to: 'ana@example.test' });
        expect(es.subject).to.equal('Re: tu mensaje a Store lma');
        expect(es.body).to.include('Hola, Ana:').and.include('¡Sí, en talla M!').and.include('> ¿Tienen la chaqueta azul?');
        const [de] = await t.server.app.services.mail.list({ to: 'udo@example.test' });
        expect(de.subject).to.equal('Re: your message to Store lma');
        expect(de.body).to.include('Hello,');
        expect((await leave(a, { sessionId: 'widget_1_leftxx', email: 'x@example.test', message: 'hi', lang: 'not a language!' })).statusCode).to.equal(400);
        for (const id of ['widget_1_leftes', 'widget_1_leftde']) {
            await t.server.inject({ method: 'PATCH', url: `/api/chat/left-messages/${id}`, headers: bearer(a.admin.token), payload: { state: 'done' } });
        }
    });

    it('marks a left message done and reopens it', async () => {
        const done = await t.server.inject({ method: 'PATCH', url: '/api/chat/left-messages/widget_1_leftone', headers: bearer(a.admin.token), payload: { state: 'done' } });
        expect(done.statusCode, done.payload).to.equal(200);
        expect((done.result as any).inboxState).to.equal('done');
        expect((await inbox(a)).open).to.equal(0);
        expect((await inbox(a, 'done')).messages.map((m: any) => m.sessionId)).to.include('widget_1_leftone');
        await agent!.box.waitFor((m) => m.type === 'left_message_updated' && m.inboxState === 'done');
        const reopened = await t.server.inject({ method: 'PATCH', url: '/api/chat/left-messages/widget_1_leftone', headers: bearer(a.admin.token), payload: { state: 'open' } });
        expect((reopened.result as any).inboxState).to.equal('open');
        expect((await inbox(a)).messages.map((m: any) => m.sessionId)).to.deep.equal(['widget_1_leftone']);
    });

    it('answers another store\'s agent 404 (reply, state, thread) and mails nothing', async () => {
        const before = smtp.received.length;
        const res = await reply(b, 'widget_1_leftone', { message: 'Not my store' });
        expect(res.statusCode).to.equal(404);
        expect((res.result as any).code).to.equal('livechat.left_message_not_found');
        expect((await t.server.inject({ method: 'PATCH', url: '/api/chat/left-messages/widget_1_leftone', headers: bearer(b.admin.token), payload: { state: 'done' } })).statusCode).to.equal(404);
        expect((await t.server.inject({ method: 'GET', url: '/api/chat/session/widget_1_leftone', headers: bearer(b.admin.token) })).statusCode).to.equal(404);
        // A live chat is not answered by email.
        await t.server.app.services.livechat.createSession({ organizationId: a.organization.id, botInstanceId: a.bot.id, sessionId: 'widget_2_live', phoneNumber: null, customerMessage: 'hi', domain: null });
        expect((await reply(a, 'widget_2_live', { message: 'by mail?' })).statusCode).to.equal(404);
        await new Promise((r) => setTimeout(r, 100));
        expect(smtp.received.length).to.equal(before);
        const thread = await t.server.app.services.livechat.getSession(a.organization.id, 'widget_1_leftone', { messages: true });
        expect(thread.messages!.filter((m) => m.sender === 'agent')).to.have.length(1);
    });

    it('answers bad input with a 4xx and a message, and stores and mails nothing', async () => {
        const before = smtp.received.length;
        const max = t.server.app.config.chat.maxMessageLength;
        for (const [payload, code] of [
            [{ message: '   ' }, 'livechat.message_empty'],
            [{ message: 'x'.repeat(max + 1) }, 'livechat.message_too_long'],
            [{ message: 'ok', clientMessageId: 'bad id with spaces' }, 'livechat.invalid_client_message_id'],
            [{ message: 'ok', to: 'someone-else@example.test' }, undefined]
        ] as const) {
            const res = await reply(a, 'widget_1_leftone', payload);
            expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).to.equal(400);
            expect((res.result as any).message).to.be.a('string');
            expect((res.result as any).code).to.equal(code);
        }
        expect((await reply(a, 'not a session id!', { message: 'ok' })).statusCode).to.equal(400);
        const badState = await t.server.inject({ method: 'PATCH', url: '/api/chat/left-messages/widget_1_leftone', headers: bearer(a.admin.token), payload: { state: 'archived' } });
        expect([badState.statusCode, (badState.result as any).code]).to.deep.equal([400, 'livechat.invalid_state']);
        expect((await t.server.inject({ method: 'GET', url: '/api/chat/left-messages?state=closed', headers: bearer(a.admin.token) })).statusCode).to.equal(400);
        await new Promise((r) => setTimeout(r, 100));
        expect(smtp.received.length).to.equal(before);
        const thread = await t.server.app.services.livechat.getSession(a.organization.id, 'widget_1_leftone', { messages: true });
        expect(thread.messages).to.have.length(3);
        expect((await inbox(a)).messages[0].inboxState).to.equal('open');

        // The widget's calls: a page that is not an http(s) URL, or too long, or a name too long, is refused; nothing is stored.
        for (const [extra, code] of [
            [{ pageUrl: 'javascript:alert(1)' }, 'livechat.invalid_page_url'], [{ pageUrl: `https://lma.test/${'p'.repeat(2000)}` }, 'livechat.invalid_page_url'],
            [{ name: 'n'.repeat(101) }, 'livechat.invalid_name'], [{ lang: 'x'.repeat(40) }, 'livechat.invalid_lang']
        ] as const) {
            const res = await leave(a, { sessionId: 'widget_3_bad', email: 'x@example.test', message: 'hi', ...extra });
            expect(res.statusCode, JSON.stringify(extra).slice(0, 60)).to.equal(400);
            expect((res.result as any).code).to.equal(code);
        }
        const created = await t.server.inject({
            method: 'POST', url: '/api/chat/create-session', remoteAddress: '10.23.1.1', headers: { 'x-widget-key': a.bot.publicKey },
            payload: { sessionId: 'widget_3_bad', phoneNumber: null, customerMessage: 'hi', pageUrl: 'ftp://lma.test/x' }
        });
        expect(created.statusCode).to.equal(400);
        expect(await t.server.app.services.livechat.hasSession(a.organization.id, 'widget_3_bad')).to.equal(false);
    });

    it('names a visitor the same across two chats of one widget session, and another session otherwise', async () => {
        const create = (sessionId: string, pageUrl?: string) => t.server.inject({
            method: 'POST', url: '/api/chat/create-session', remoteAddress: '10.23.2.1', headers: { 'x-widget-key': a.bot.publicKey },
            payload: { sessionId, phoneNumber: null, customerMessage: 'I need a person', ...(pageUrl ? { pageUrl } : {}) }
        });
        const first = await create('widget_1700000000000_AbCdEfGhIjKlMnOp', 'https://lma.test/cart');
        expect(first.statusCode, first.payload).to.equal(201);
        await t.server.app.services.livechat.end(a.organization.id, 'widget_1700000000000_AbCdEfGhIjKlMnOp', 'customer');
        const second = await create('widget_1700000000000_AbCdEfGhIjKlMnOp');
        expect((second.result as any).sessionId).to.equal('widget_1700000000000_AbCdEfGhIjKlMnOp~2');
        const other = await create('widget_1700000000001_QrStUvWxYz012345');

        const waiting = (await t.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(a.admin.token) })).result as any[];
        const byId = Object.fromEntries(waiting.map((s) => [s.sessionId, s]));
        const again = byId['widget_1700000000000_AbCdEfGhIjKlMnOp~2'];
        const firstChat = await t.server.app.services.livechat.getSession(a.organization.id, 'widget_1700000000000_AbCdEfGhIjKlMnOp');
        expect(firstChat.visitorLabel).to.match(/^Visitor \d{4}$/);
        expect(firstChat.pageUrl).to.equal('https://lma.test/cart');
        expect(again.visitorLabel, 'the same visitor in their second chat').to.equal(firstChat.visitorLabel);
        expect(again.visitorNumber).to.equal(firstChat.visitorNumber);
        expect(byId[(other.result as any).sessionId].visitorLabel, 'another visitor').to.not.equal(firstChat.visitorLabel);
        // A left message of that same widget session carries that label too; the history lists it as a live chat.
        await leave(a, { sessionId: 'widget_1700000000000_AbCdEfGhIjKlMnOp', email: 'sam@example.test', message: 'Never mind, by mail' });
        const left = (await inbox(a)).messages.find((m: any) => m.customerEmail === 'sam@example.test');
        expect(left.visitorLabel).to.equal(firstChat.visitorLabel);
        const history = (await t.server.inject({ method: 'GET', url: '/api/chat/history', headers: bearer(a.admin.token) })).result as any;
        expect(history.sessions.find((s: any) => s.sessionId === 'widget_1700000000000_AbCdEfGhIjKlMnOp').visitorLabel).to.equal(firstChat.visitorLabel);
        // The agents' push of a new chat names the visitor too.
        const push = await agent!.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === (other.result as any).sessionId);
        expect(push.visitorLabel).to.equal(byId[(other.result as any).sessionId].visitorLabel);
    });

    it('answers the store\'s country with the admin\'s organization (the console formats phones with it)', async () => {
        const org = await t.server.inject({ method: 'GET', url: '/api/admin/organization', headers: bearer(a.admin.token) });
        expect((org.result as any).country).to.equal('US');
    });

    it('keeps the left messages an earlier version filed: they become done left messages whose reply address is read back', async () => {
        const db = t.server.app.db;
        await leftMessagesMigration.down(db);
        const t0 = Date.now() - 86400_000;
        const [id] = await db('chat_sessions').insert({
            organization_id: a.organization.id, session_id: 'widget_old_left', widget_session_id: 'widget_old_left', phone_number: 'Unknown',
            status: 'no_interaction', customer_message: 'Old question', last_seq: 2, is_starred: false, is_archived: false, ended_by: 'customer',
            end_reason: 'offline_message', created_at: t0, updated_at: t0, ended_at: t0
        }).returning('id');
        const chatId = typeof id === 'object' ? (id as { id: number }).id : id;
        await db('chat_messages').insert([
            { organization_id: a.organization.id, chat_session_id: chatId, seq: 1, sender: 'customer', message: 'Old question', client_message_id: 'offline', created_at: t0 },
            { organization_id: a.organization.id, chat_session_id: chatId, seq: 2, sender: 'system', message: 'Offline message: no agent was available. Reply to old@example.test', client_message_id: 'offline-note', created_at: t0 }
        ]);
        const chats = Number((await db('chat_sessions').count({ n: '*' }).first())?.n);
        await leftMessagesMigration.up(db);
        expect(Number((await db('chat_sessions').count({ n: '*' }).first())?.n), 'every chat is kept').to.equal(chats);

        const done = await inbox(a, 'done');
        const old = done.messages.find((m: any) => m.sessionId === 'widget_old_left');
        expect(old).to.include({ kind: 'left_message', inboxState: 'done', customerEmail: 'old@example.test', unreadCount: 0 });
        // Left messages filed since this version's start are left messages again; live chats stay live chats.
        expect((await inbox(a, 'all')).messages.map((m: any) => m.sessionId)).to.include('widget_1_leftone');
        expect((await t.server.app.services.livechat.getSession(a.organization.id, 'widget_2_live')).kind).to.equal('chat');
        // It can still be answered from the console.
        const before = smtp.received.length;
        expect((await reply(a, 'widget_old_left', { message: 'Sorry for the wait!' })).statusCode).to.equal(201);
        await smtp.waitFor(before + 1);
        expect(smtp.received[before].to).to.deep.equal(['old@example.test']);
    });
});
