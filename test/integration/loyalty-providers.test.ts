import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { startFakeTwilio } from '../helpers/fake-twilio';
import { startFakeAlpineIq } from '../helpers/fake-alpineiq';

describe('the HTTP loyalty provider (Alpine IQ shaped) and the Twilio SMS sender', function () {
    let t: TestServer;
    let server: Server;
    let shop: Tenant;
    let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
    let alpine: Awaited<ReturnType<typeof startFakeAlpineIq>>;

    const verify = (identifier: string) => server.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { identifier }, headers: { 'x-widget-key': shop.bot.publicKey } });

    before(async () => {
        twilio = await startFakeTwilio();
        alpine = await startFakeAlpineIq({
            apiKey: 'aiq-key', uid: 'acct-1', members: [{
                phone: '+15555550100', firstName: 'Alex', lastName: 'Rivera', email: 'alex@example.com', contactId: 'AIQ-77', points: 880,
                orders: [{ id: '9', date: '2026-01-02T10:00:00.000Z', total: 89, items: [{ name: 'Rain Jacket', quantity: 1, price: 89 }] }]
            }]
        });
        t = await startTestServer({
            env: {
                SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'tw-secret', TWILIO_FROM: '+15550001111', TWILIO_BASE_URL: twilio.url,
                LOYALTY_PROVIDER: 'alpineiq', ALPINEIQ_API_KEY: 'aiq-key', ALPINEIQ_UID: 'acct-1', ALPINEIQ_BASE_URL: alpine.url, LOYALTY_CACHE_SECONDS: '0'
            }
        });
        server = t.server;
        shop = await createTenant(server, 'remote');
    });
    after(async () => {
        await t?.close();
        await twilio?.close();
        await alpine?.close();
    });

    it('texts the code through Twilio\'s Messages API and shows the provider\'s points for it', async () => {
        const res = await verify('555-555-0100');
        expect(res.statusCode, res.payload).to.equal(200);
        const sent = twilio.requests.at(-1)!;
        expect(sent.url).to.equal('/2010-04-01/Accounts/AC123/Messages.json');
        expect(sent.headers.authorization).to.equal('Basic ' + Buffer.from('AC123:tw-secret').toString('base64'));
        const form = new URLSearchParams(sent.body);
        expect(form.get('To')).to.equal('+15555550100');
        expect(form.get('From')).to.equal('+15550001111');
        const code = form.get('Body')!.match(/\d{6}/)![0];
        expect(form.get('Body')).to.equal(`Your Store remote verification code is ${code}. It expires in 10 minutes.`);
        const [stored] = await server.app.services.loyalty.listOutbox({ phone: '+15555550100', limit: 1 });
        expect(stored).to.include({ provider: 'twilio', status: 'sent' });
        const view = await server.inject({ method: 'POST', url: '/api/loyalty/view', payload: { identifier: '+15555550100', code }, headers: { 'x-widget-key': shop.bot.publicKey } });
        expect(view.result).to.include({ success: true, points: 880 });
        expect(alpine.requests.every((r) => r.headers['x-apikey'] === 'aiq-key')).to.equal(true);
    });

    it('answers 502 with a message the widget can show when Twilio refuses, and keeps no usable code', async () => {
        twilio.state.failWith = 400;
        const codes = async () => Number((await server.app.db('verification_codes').count({ n: '*' }).first() as any).n);
        const before = await codes();
        try {
            const res = await verify('+15555550100');
            expect(await codes()).to.equal(before);
            expect(res.statusCode).to.equal(502);
            expect(JSON.parse(res.payload).message).to.equal('We could not send the text message. Please try again later.');
            const [stored] = await server.app.services.loyalty.listOutbox({ phone: '+15555550100', limit: 1 });
            expect(stored.status).to.equal('failed');
        }
        finally {
            twilio.state.failWith = 0;
        }
    });

    it('answers "not found" for a phone the provider does not know, and 503 while it is down', async () => {
        const unknown = await verify('+15555550199');
        expect(unknown.statusCode).to.equal(200);
        expect(JSON.parse(unknown.payload)).to.include({ ok: false, reason: 'not_found' });
        alpine.state.down = true;
        try {
            const down = await verify('+15555550100');
            expect(down.statusCode).to.equal(503);
            expect(JSON.parse(down.payload).message).to.equal("Sorry, I'm having trouble connecting. Please try again.");
            const lookup = await server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550100');
            expect(lookup.found).to.equal(false);
            expect(lookup.error).to.contain('503');
        }
        finally {
            alpine.state.down = false;
        }
    });

    it('looks customers and their orders up through the provider', async () => {
        const lookup = await server.app.services.loyalty.lookupCustomer(shop.organization.id, '+15555550100');
        expect(lookup).to.deep.equal({ found: true, email: 'alex@example.com', name: 'Alex Rivera', alpineId: 'AIQ-77' });
        const history = await server.app.services.loyalty.orderHistory(shop.organization.id, '+15555550100');
        expect(history).to.deep.equal({
            found: true, customerName: 'Alex Rivera', totalOrders: 1,
            orders: [{ orderRef: '9', productName: 'Rain Jacket', quantity: 1, price: 89, orderDate: '2026-01-02T10:00:00.000Z' }]
        });
    });
});
