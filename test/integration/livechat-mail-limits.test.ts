import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';

/**
 * Mail flooding (issue 25, fix 4): left messages and test emails are mails to a store. Per client address alone,
 * twenty addresses sent twenty mails; now each store also has an hourly ceiling, and the test email goes only to
 * the store's own staff.
 */
describe('live chat mail limits per store: left messages and test emails', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;

    const leave = (tenant: Tenant, sessionId: string, ip: string) => t.server.inject({
        method: 'POST', url: '/api/chat/offline-message', remoteAddress: ip,
        headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId, email: 'jo@example.test', message: 'Call me back' }
    });
    const mailsTo = async (to: string, subject: string) => (await t.server.app.services.mail.list({ to })).filter((m) => m.subject.startsWith(subject));
    const testEmail = (tenant: Tenant) => t.server.inject({ method: 'POST', url: '/api/chat/test-email', headers: bearer(tenant.admin.token) });
    const setRecipient = (tenant: Tenant, emailRecipient: string | null) => t.server.inject({
        method: 'POST', url: '/api/chat/email-settings', headers: bearer(tenant.admin.token), payload: { emailNotificationsEnabled: true, emailRecipient }
    });

    before(async () => {
        t = await startTestServer({ env: { OFFLINE_MESSAGES_PER_STORE_HOUR: '3', TEST_EMAILS_PER_STORE_HOUR: '2' } });
        a = await createTenant(t.server, 'mla', 'mla.test');
        b = await createTenant(t.server, 'mlb', 'mlb.test');
    });
    after(async () => {
        await t?.close();
    });

    it('takes OFFLINE_MESSAGES_PER_STORE_HOUR left messages an hour per store from any addresses, then answers 429 storing and mailing nothing', async () => {
        for (let i = 0; i < 3; i++) {
            const res = await leave(a, `widget_1_ml${i}`, `10.77.0.${i + 1}`);
            expect(res.statusCode, res.payload).to.equal(201);
        }
        const fourth = await leave(a, 'widget_1_ml3', '10.77.0.4');
        expect(fourth.statusCode).to.equal(429);
        expect((fourth.result as any).message).to.equal('This store has received many messages in the last hour. Please try again later.');
        expect(fourth.headers['retry-after']).to.match(/^\d+$/);
        expect(await t.server.app.services.livechat.hasSession(a.organization.id, 'widget_1_ml3')).to.equal(false);
        expect(await mailsTo(a.admin.email, 'Offline message')).to.have.length(3);
        // Another store's ceiling is its own.
        expect((await leave(b, 'widget_1_mlb', '10.77.0.5')).statusCode).to.equal(201);
    });

    it('sends the test email only to a staff address of the store: another recipient is a 400 and nothing is mailed', async () => {
        expect((await setRecipient(a, 'someone@elsewhere.test')).statusCode).to.equal(200);
        const refused = await testEmail(a);
        expect(refused.statusCode).to.equal(400);
        expect((refused.result as any).message).to.equal(
            'The test email goes only to an admin of this store: save the email address of one of its admins as the recipient, then test again.');
        expect(await mailsTo('someone@elsewhere.test', 'Test email')).to.have.length(0);
        // Another store's admin is not this store's staff either.
        expect((await setRecipient(a, b.admin.email)).statusCode).to.equal(200);
        expect((await testEmail(a)).statusCode).to.equal(400);
        expect(await mailsTo(b.admin.email, 'Test email')).to.have.length(0);

        // The store's own admin (in any case), or the default recipient (its first admin), is fine.
        expect((await setRecipient(a, a.admin.email.toUpperCase())).statusCode).to.equal(200);
        const sent = await testEmail(a);
        expect(sent.statusCode, sent.payload).to.equal(200);
        expect((sent.result as any).message).to.equal(`Test email sent to ${a.admin.email.toUpperCase()}`);
    });

    it('sends at most TEST_EMAILS_PER_STORE_HOUR test emails an hour per store, then answers 429 and mails nothing', async () => {
        expect((await setRecipient(a, null)).statusCode).to.equal(200);
        const before = (await t.server.app.services.mail.list()).filter((m) => m.subject.startsWith('Test email')).length;
        expect((await testEmail(a)).statusCode).to.equal(200);
        const third = await testEmail(a);
        expect(third.statusCode).to.equal(429);
        expect((third.result as any).message).to.equal('Too many test emails for this store. Please try again in an hour.');
        expect((await t.server.app.services.mail.list()).filter((m) => m.subject.startsWith('Test email')).length).to.equal(before + 1);
        expect((await testEmail(b)).statusCode, 'another store has its own count').to.equal(200);
    });

    it('refuses limits outside their range at start, naming the variable', async () => {
        const { loadConfig } = await import('../../config');
        expect(() => loadConfig({ OFFLINE_MESSAGES_PER_STORE_HOUR: '0', JWT_SECRET: t.config.jwtSecret })).to.throw(/OFFLINE_MESSAGES_PER_STORE_HOUR/);
        expect(() => loadConfig({ TEST_EMAILS_PER_STORE_HOUR: 'many', JWT_SECRET: t.config.jwtSecret })).to.throw(/TEST_EMAILS_PER_STORE_HOUR/);
        expect(loadConfig({ JWT_SECRET: t.config.jwtSecret, DATA_DIR: t.config.dataDir }).chat).to.include({ offlineMessagesPerStoreHour: 30, testEmailsPerStoreHour: 5 });
    });
});
