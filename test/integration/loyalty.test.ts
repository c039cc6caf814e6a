import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import type Boom from '@hapi/boom';
import { importCustomers, lastCode } from '../helpers/loyalty';
import { parseCustomersCsv } from '../../plugins/loyalty';

describe('loyalty points by SMS code (POST /api/loyalty/verify and /view)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    let ipCounter = 0;
    /** Each test gets its own client address so the per-IP limits do not leak between tests. */
    let ip: string;

    const verify = (identifier: unknown, key = a.bot.publicKey, extra: Record<string, string> = {}) => server.inject({
        method: 'POST', url: '/api/loyalty/verify', payload: { identifier }, headers: { 'x-widget-key': key, ...extra }, remoteAddress: ip
    });
    const view = (identifier: string, code: string, key = a.bot.publicKey, sessionId?: string) => server.inject({
        method: 'POST', url: '/api/loyalty/view', payload: { identifier, code, ...(sessionId ? { sessionId } : {}) }, headers: { 'x-widget-key': key }, remoteAddress: ip
    });
    const phoneN = (i: number) => `+15555550${300 + i}`;
    const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'alpha', 'alpha.test');
        b = await createTenant(server, 'bravo', 'bravo.test');
        const phones: Array<[string, string, string, string, number]> = [];
        for (let i = 0; i < 12; i++) {
            phones.push([phoneN(i), `Customer ${i}`, `c${i}@example.com`, `L-${i}`, 100 + i]);
        }
        await importCustomers(server, a.organization.id, [['+15555550100', 'Alex Rivera', 'alex@example.com', 'LC-1001', 1250], ...phones]);
        await importCustomers(server, b.organization.id, [['+15555550100', 'Other Store Alex', 'alex@other.test', 'B-1', 7]]);
    });
    after(async () => t?.close());
    beforeEach(() => {
        ip = `10.0.0.${++ipCounter}`;
    });

    
    it('sends a 6-digit code by SMS and shows the points for the right code', async () => {
        const sent = await verify('(555) 555-0100');
        expect(sent.statusCode, sent.payload).to.equal(200);
        expect(sent.result).to.deep.equal({ ok: true, success: true, message: 'A verification code has been sent to your phone.' });
        const [sms] = await server.app.services.loyalty.listOutbox({ phone: '+15555550100', limit: 1 });
        expect(sms.body).to.match(/^Your Store alpha verification code is \d{6}\. It expires in 10 minutes\.$/);
        const shown = await view('+15555550100', await lastCode(server, '+15555550100'));
        expect(shown.statusCode, shown.payload).to.equal(200);
        expect(shown.result).to.include({ success: true, points: 1250 });
    });

    it('stores the code hashed, never in clear', async () => {
        await verify(phoneN(1));
        const code = await lastCode(server, phoneN(1));
        const row = await server.app.db('verification_codes').where({ phone: phoneN(1) }).orderBy('id', 'desc').first();
        expect(row.code_hash).to.not.contain(code);
        expect(row.code_hash).to.match(/^[0-9a-f]{64}$/);
    });

    it('answers 200 {ok:false, reason:"not_found"} for a phone that is not a member, and 400 for a malformed one', async () => {
        const unknown = await verify('+15555559999');
        expect(unknown.statusCode).to.equal(200);
        expect(JSON.parse(unknown.payload)).to.deep.equal({ ok: false, reason: 'not_found', code: 'loyalty.not_found', message: 'Phone number not found in our loyalty program' });
        const malformed = await verify('12');
        expect(malformed.statusCode).to.equal(400);
        expect(JSON.parse(malformed.payload)).to.include({ message: 'Please enter a valid phone number', code: 'loyalty.invalid_phone' });
        const missing = await server.inject({ method: 'POST', url: '/api/loyalty/verify', payload: {}, headers: { 'x-widget-key': a.bot.publicKey }, remoteAddress: ip });
        expect(missing.statusCode).to.equal(400);
        const badCode = await view('+15555550100', '12ab');
        expect(badCode.statusCode).to.equal(400);
        expect(JSON.parse(badCode.payload)).to.include({ message: 'The code must be 6 digits', code: 'loyalty.code_format' });
    });

    it('refuses an expired code', async () => {
        await verify(phoneN(2));
        const code = await lastCode(server, phoneN(2));
        await server.app.db('verification_codes').where({ phone: phoneN(2) }).update({ expires_at: Date.now() - 1 });
        const res = await view(phoneN(2), code);
        expect(res.statusCode).to.equal(400);
        expect(JSON.parse(res.payload)).to.include({ message: 'This code has expired. Please request a new code.', code: 'loyalty.code_expired' });
    });

    it('accepts a code only once', async () => {
        await verify(phoneN(3));
        const code = await lastCode(server, phoneN(3));
        expect((await view(phoneN(3), code)).statusCode).to.equal(200);
        const again = await view(phoneN(3), code);
        expect(again.statusCode).to.equal(400);
        expect(JSON.parse(again.payload)).to.include({ message: 'This code has already been used. Please request a new code.', code: 'loyalty.code_used' });
    });

    it('refuses the 6th check of a code, even with the right code', async () => {
        await verify(phoneN(4));
        const code = await lastCode(server, phoneN(4));
        for (let i = 0; i < 5; i++) {
            const res = await view(phoneN(4), wrong(code));
            expect(res.statusCode).to.equal(200);
            expect(JSON.parse(res.payload)).to.deep.equal({ ok: false, reason: 'invalid_code', code: 'loyalty.invalid_code', message: 'Invalid verification code' });
        }
        const sixth = await view(phoneN(4), code);
        expect(sixth.statusCode).to.equal(429);
        expect(sixth.headers['retry-after']).to.match(/^\d+$/);
    });

    it('counts checks atomically: ten simultaneous guesses get five answers and five refusals', async () => {
        await verify(phoneN(8));
        const code = await lastCode(server, phoneN(8));
        const results = await Promise.all(Array.from({ length: 10 }, () => view(phoneN(8), wrong(code))));
        const statuses = results.map((r) => r.statusCode).sort();
        expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    });

    it('refuses the 6th send to one phone within 10 minutes', async () => {
        for (let i = 0; i < 5; i++) {
            ip = `10.1.0.${i}`;     // different clients: the per-phone limit, not the per-IP one
            expect((await verify(phoneN(5))).statusCode).to.equal(200);
        }
        ip = '10.1.0.9';
        const sixth = await verify(phoneN(5));
        expect(sixth.statusCode).to.equal(429);
        expect(JSON.parse(sixth.payload)).to.include({
            message: 'Too many codes were requested for this phone number. Please try again in a few minutes.', code: 'loyalty.too_many_codes'
        });
        const outbox = await server.app.services.loyalty.listOutbox({ phone: phoneN(5) });
        expect(outbox).to.have.length(5);
    });

    it('sends at most five codes to a phone even when ten requests arrive at once', async () => {
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => server.inject({
            method: 'POST', url: '/api/loyalty/verify', payload: { identifier: phoneN(9) }, headers: { 'x-widget-key': a.bot.publicKey }, remoteAddress: `10.2.0.${i}`
        })));
        expect(results.filter((r) => r.statusCode === 200)).to.have.length(5);
        expect(results.filter((r) => r.statusCode === 429)).to.have.length(5);
        expect(await server.app.services.loyalty.listOutbox({ phone: phoneN(9) })).to.have.length(5);
    });

    it('keeps the failed checks when a new code is sent', async () => {
        await verify(phoneN(6));
        const first = await lastCode(server, phoneN(6));
        for (let i = 0; i < 3; i++) {
            expect(JSON.parse((await view(phoneN(6), wrong(first))).payload).reason).to.equal('invalid_code');
        }
        await verify(phoneN(6));
        const second = await lastCode(server, phoneN(6));
        for (let i = 0; i < 2; i++) {
            expect(JSON.parse((await view(phoneN(6), wrong(second))).payload).reason).to.equal('invalid_code');
        }
        // 3 + 2 failures: the resend did not give five fresh checks.
        expect((await view(phoneN(6), second)).statusCode).to.equal(429);
    });

    it('limits the requests of one client address with a 429 the widget can show', async () => {
        let last;
        for (let i = 0; i < 21; i++) {
            last = await verify('+15555559999');
            if (i < 20) {
                expect(last.statusCode).to.equal(200);
                expect(JSON.parse(last.payload).reason).to.equal('not_found');
            }
        }
        expect(last!.statusCode).to.equal(429);
        expect(JSON.parse(last!.payload)).to.include({ message: 'Too many attempts from your connection. Please try again in a few minutes.', code: 'loyalty.too_many_attempts' });
    });

    it('scopes codes and customers to the organization of the widget key', async () => {
        await verify('+15555550100');
        const codeOfA = await lastCode(server, '+15555550100');
        // B's widget cannot check A's code…
        const crossed = await view('+15555550100', codeOfA, b.bot.publicKey);
        expect(crossed.statusCode).to.equal(400);
        expect(JSON.parse(crossed.payload).message).to.equal('No verification code was requested for this phone number. Please request a new code.');
        // …and sees its own customer's points, not A's.
        await verify('+15555550100', b.bot.publicKey);
        const codeOfB = await lastCode(server, '+15555550100');
        const own = await view('+15555550100', codeOfB, b.bot.publicKey);
        expect(own.result).to.include({ points: 7 });
        const [sms] = await server.app.services.loyalty.listOutbox({ phone: '+15555550100', limit: 1 });
        expect(sms.body).to.contain('Store bravo');
    });

    it('rejects a missing or unknown widget key and a foreign page origin', async () => {
        const none = await server.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { identifier: '+15555550100' }, remoteAddress: ip });
        expect(none.statusCode).to.equal(401);
        expect((await verify('+15555550100', 'pk_nope')).statusCode).to.equal(401);
        const foreign = await verify('+15555550100', a.bot.publicKey, { origin: 'https://evil.example' });
        expect(foreign.statusCode).to.equal(403);
        const own = await verify('+15555550100', a.bot.publicKey, { origin: 'https://www.alpha.test' });
        expect(own.statusCode).to.equal(200);
        expect(own.headers['access-control-allow-origin']).to.equal('https://www.alpha.test');
    });

    it('marks the widget session as verified for the phone after a successful view', async () => {
        await verify(phoneN(7));
        expect((await view(phoneN(7), await lastCode(server, phoneN(7)), a.bot.publicKey, 'widget_1_abc')).statusCode).to.equal(200);
        expect(await server.app.services.loyalty.verifiedPhone(a.organization.id, 'widget_1_abc')).to.equal(phoneN(7));
        expect(await server.app.services.loyalty.verifiedPhone(b.organization.id, 'widget_1_abc')).to.equal(null);
    });

    it('looks up a customer and their recent orders for analytics and the AI agent', async () => {
        const found = await server.app.services.loyalty.lookupCustomer(a.organization.id, '555-555-0100');
        expect(found).to.deep.equal({ found: true, email: 'alex@example.com', name: 'Alex Rivera', alpineId: 'LC-1001' });
        const missing = await server.app.services.loyalty.lookupCustomer(a.organization.id, '+15555559999');
        expect(missing.found).to.equal(false);
        const history = await server.app.services.loyalty.orderHistory(a.organization.id, '+15555550100');
        expect(history).to.include({ found: true, customerName: 'Alex Rivera', totalOrders: 0 });
    });

    it('imports customers from CSV, updating an existing phone, and rejects a bad file naming its line, storing none of it', async () => {
        const loyalty = server.app.services.loyalty;
        const rows = parseCustomersCsv('phone,name,email,loyaltyId,points\n+15555550100,Alex R.,alex@example.com,LC-1001,1300\n"555-555-0199","Doe, Jane",,J-9,5\n');
        expect(rows[1]).to.deep.equal({ phone: '+15555550199', name: 'Doe, Jane', email: null, loyaltyId: 'J-9', points: 5 });
        const res = await loyalty.importCustomers(a.organization.id, rows);
        expect(res).to.deep.equal({ created: 1, updated: 1 });
        expect((await loyalty.lookupCustomer(a.organization.id, '+15555550199')).name).to.equal('Doe, Jane');
        expect((await loyalty.lookupCustomer(a.organization.id, '+15555550100')).name).to.equal('Alex R.');

        const bad = (csv: string) => {
            try {
                parseCustomersCsv(csv);
            }
            catch (err) {
                return err as Boom.Boom;
            }
            throw new Error(`accepted ${csv}`);
        };
        const header = 'phone,name,email,loyaltyId,points\n';
        for (const [csv, message] of [
            [`${header}+15555550198,Ok,,X,1\n+15555550197,Bad,,Y,lots\n`, 'Line 3: points must be a whole number, found "lots"'],
            [`${header}not-a-phone,X,,L,1\n`, 'Line 2: "not-a-phone" is not a valid phone number'],
            [`${header}+1 555 0100,X,,L,1\n`, 'Line 2: "+1 555 0100" is not a valid phone number'],
            [`${header}+15555550196,X,no-at-sign,L,1\n`, 'Line 2: "no-at-sign" is not an email address'],
            [`${header}+15555550196,X,,L\n`, 'Line 2: expected 5 fields, found 4'],
            ['phone,name\n+15555550196,X\n', 'The CSV header must be "phone,name,email,loyaltyId,points", found "phone,name"'],
            ['\n', 'The CSV file is empty']
        ]) {
            const err = bad(csv);
            expect(err.output.statusCode, csv).to.equal(400);
            expect(err.message, csv).to.equal(message);
        }

        // A row the database refuses rolls the whole import back.
        const refused = await loyalty.importCustomers(a.organization.id, [
            { phone: '+15555550198', name: 'Ok', email: null, loyaltyId: 'X', points: 1 },
            { phone: null as unknown as string, name: 'No phone', email: null, loyaltyId: 'Y', points: 1 }
        ]).then(() => null, (err: Error) => err);
        expect(refused, 'the import of a row without a phone').to.not.equal(null);
        expect((await loyalty.lookupCustomer(a.organization.id, '+15555550198')).found).to.equal(false);
    });

    it('reads a built-in customer\'s orders newest first, at most the number asked for', async () => {
        const shop = await createTenant(server, 'orders');
        await server.app.services.loyalty.seedDemoCustomers(shop.organization.id, [
            { phone: '+15555550100', name: 'Alex', email: 'alex@example.com', loyaltyId: 'O-1', points: 10, orders: [
                { productName: 'Old', quantity: 1, price: 1, daysAgo: 30 },
                { productName: 'Newest', quantity: 2, price: 12.5, daysAgo: 1 },
                { productName: 'Middle', quantity: 1, price: 3, daysAgo: 10 }
            ] },
            { phone: '+15555550101', name: 'Sam', email: 'sam@example.com', loyaltyId: 'O-2', points: 0, orders: [{ productName: 'Not Alex\'s', quantity: 1, price: 1, daysAgo: 0 }] }
        ]);
        const history = await server.app.services.loyalty.orderHistory(shop.organization.id, '555-555-0100', 2);
        expect(history).to.include({ found: true, customerName: 'Alex', totalOrders: 2 });
        expect(history.orders.map((o) => [o.productName, o.quantity, o.price])).to.deep.equal([['Newest', 2, 12.5], ['Middle', 1, 3]]);
        expect(history.orders[0].orderRef).to.equal('O-1-2');
        expect(Date.parse(history.orders[0].orderDate)).to.be.above(Date.parse(history.orders[1].orderDate));
        expect((await server.app.services.loyalty.orderHistory(a.organization.id, '555-555-0100')).orders).to.deep.equal([]);
    });
});
