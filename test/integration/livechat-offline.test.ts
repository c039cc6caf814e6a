import { expect } from 'chai';
import { startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';

describe('live chat: an offline message when no agent is available (POST /api/chat/offline-message)', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;

    before(async () => {
        t = await startTestServer();
        a = await createTenant(t.server, 'offa', 'offa.test');
        b = await createTenant(t.server, 'offb', 'offb.test');
        await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(a.admin.token), payload: { emailNotificationsEnabled: false, emailRecipient: 'desk@offa.test' } });
    });
    after(async () => {
        await t?.close();
    });

    const post = (tenant: Tenant | null, payload: object, ip = '10.9.0.1', headers: Record<string, string> = {}) => t.server.inject({
        method: 'POST', url: '/api/chat/offline-message', remoteAddress: ip,
        headers: { ...(tenant ? { 'x-widget-key': tenant.bot.publicKey } : {}), ...headers }, payload
    });

    it('mails the store\'s recipient and stores a left message that the console\'s Messages inbox shows (only to that store)', async () => {
        const settings = await t.server.inject({ method: 'GET', url: '/api/chat/email-settings', headers: bearer(a.admin.token) });
        expect((settings.result as any).emailRecipient).to.equal('desk@offa.test');
        const res = await post(a, { sessionId: 'off_1', email: ' jo@example.test ', message: '  Is my order ready?  ', phoneNumber: '+15555550111' });
        expect(res.statusCode, res.payload).to.equal(201);
        expect((res.result as any).sessionId).to.equal('off_1');

        const mails = await t.server.app.services.mail.list({ to: 'desk@offa.test' });
        const mail = mails.find((m) => m.subject.startsWith('Offline message from jo@example.test'));
        expect(mail, 'mailed although transcripts are off').to.not.equal(undefined);
        expect(mail!.body).to.include('Is my order ready?').and.include('Reply to: jo@example.test');
        expect(mail!.body, 'no assistant section without questions to it').to.not.include('asked the assistant');

        const session = await t.server.app.services.livechat.getSession(a.organization.id, 'off_1', { messages: true });
        expect(session).to.include({ status: 'no_interaction', endReason: 'offline_message', endedBy: 'customer', phoneNumber: '+15555550111' });
        expect(session.messages!.map((m) => [m.sender, m.message])).to.deep.equal([
            ['customer', 'Is my order ready?'], ['system', 'Offline message: no agent was available. Reply to jo@example.test']
        ]);

        expect(session).to.include({ kind: 'left_message', inboxState: 'open', customerEmail: 'jo@example.test' });
        const inbox = await t.server.inject({ method: 'GET', url: '/api/chat/left-messages', headers: bearer(a.admin.token) });
        expect(inbox.statusCode).to.equal(200);
        expect(JSON.stringify(inbox.result)).to.include('off_1');
        const other = await t.server.inject({ method: 'GET', url: '/api/chat/left-messages?state=all', headers: bearer(b.admin.token) });
        expect(JSON.stringify(other.result)).to.not.include('off_1');
        expect((await t.server.app.services.mail.list({ to: b.admin.email })).filter((m) => m.subject.startsWith('Offline message'))).to.deep.equal([]);

        // A second one from the same widget session is a new chat, not an overwrite.
        const again = await post(a, { sessionId: 'off_1', email: 'jo@example.test', message: 'Me again' });
        expect((again.result as any).sessionId).to.equal('off_1~2');
    });

    it('tells the store what the customer asked the AI agent before writing: a follow-up left as a message makes sense', async () => {
        const long = `We ship to Canada in 5 to 8 business days. ${'Duties and taxes are paid at checkout, so nothing is due on delivery. '.repeat(6)}`;
        await t.server.app.services.ai.createKnowledge(a.organization.id, { title: 'Shipping to Canada', content: long });
        const ask = (message: string) => t.server.inject({
            method: 'POST', url: '/api/ai/chat', remoteAddress: '10.9.0.4', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId: 'off_ai', message }
        });
        for (const q of ['Do you ship to Canada?', 'and to Mexico?']) {
            expect((await ask(q)).statusCode).to.equal(200);
        }
        const res = await post(a, { sessionId: 'off_ai', email: 'kim@example.test', message: 'and to Mexico?' }, '10.9.0.4');
        expect(res.statusCode, res.payload).to.equal(201);
        const mail = (await t.server.app.services.mail.list({ to: 'desk@offa.test' })).find((m) => m.subject.startsWith('Offline message from kim@example.test'));
        const body = mail!.body;
        const earlier = body.slice(body.indexOf('Before writing, they asked the assistant:'));
        expect(body.indexOf('Before writing, they asked the assistant:'), body).to.be.above(body.indexOf('and to Mexico?'));
        const lines = earlier.split('\n');
        expect(lines[1]).to.equal('Customer: Do you ship to Canada?');
        // The answer on one line, cut to 300 characters (the console shows it whole).
        expect(lines[2]).to.match(/^Assistant: We ship to Canada in 5 to 8 business days\. .*…$/);
        expect(lines[2].length).to.equal('Assistant: '.length + 300);
        expect(lines[3]).to.equal('Customer: and to Mexico?');
        expect(lines[4]).to.match(/^Assistant: \S/);
        // Another session's questions are not in it.
        expect(body).to.not.include('Is my order ready?');
    });

    it('answers 400 with a clear message for bad input and stores nothing', async () => {
        const max = t.server.app.config.chat.maxMessageLength;
        for (const [payload, text, code] of [
            [{ sessionId: 'off_bad', email: 'not-an-email', message: 'Hi' }, 'valid email', 'livechat.invalid_email'],
            [{ sessionId: 'off_bad', email: 'a@b.test', message: '   ' }, 'message', 'livechat.message_empty'],
            [{ sessionId: 'off_bad', email: 'a@b.test', message: 'x'.repeat(max + 1) }, 'at most', 'livechat.message_too_long'],
            [{ sessionId: 'off_bad', email: 'a@b.test', message: 'Hi', organizationId: b.organization.id }, 'not allowed', undefined]
        ] as const) {
            const res = await post(a, payload, '10.9.0.2');
            expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).to.equal(400);
            expect((res.result as any).message).to.include(text);
            // The widget shows its catalogue's text for the code (issue 27).
            expect((res.result as any).code).to.equal(code);
            if (code === 'livechat.message_too_long') {
                expect((res.result as any).args).to.deep.equal({ max });
            }
        }
        expect(await t.server.app.services.livechat.hasSession(a.organization.id, 'off_bad')).to.equal(false);
    });

    it('refuses a call without a widget key, and an admin token in its place', async () => {
        expect((await post(null, { sessionId: 'off_x', email: 'a@b.test', message: 'Hi' }, '10.9.0.3')).statusCode).to.equal(401);
        const admin = await post(null, { sessionId: 'off_x', email: 'a@b.test', message: 'Hi' }, '10.9.0.3', bearer(a.admin.token));
        expect(admin.statusCode).to.be.oneOf([401, 403]);
        expect(await t.server.app.services.livechat.hasSession(a.organization.id, 'off_x')).to.equal(false);
    });

    it('limits each address to 5 an hour (429 with a message)', async () => {
        for (let i = 0; i < 5; i += 1) {
            expect((await post(b, { sessionId: `off_rl${i}`, email: 'a@b.test', message: 'Hi' }, '10.9.0.9')).statusCode).to.equal(201);
        }
        const sixth = await post(b, { sessionId: 'off_rl5', email: 'a@b.test', message: 'Hi' }, '10.9.0.9');
        expect(sixth.statusCode).to.equal(429);
        expect((sixth.result as any).message).to.include('Too many offline messages');
        expect((sixth.result as any).code).to.equal('livechat.too_many_offline');
        expect(await t.server.app.services.livechat.hasSession(b.organization.id, 'off_rl5')).to.equal(false);
    });
});
