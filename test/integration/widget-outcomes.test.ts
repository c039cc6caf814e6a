import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { importCustomers, lastCode } from '../helpers/loyalty';

/**
 * Issue 11: what the widget's calls answer for expected outcomes (200 with a result, no red console line on the
 * merchant's page), and where a tracked event's domain comes from.
 */
describe('the widget\'s expected outcomes and tracked domains (issue 11)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    const origin = 'https://shop.localtest';

    const post = (url: string, payload: object, headers: Record<string, string> = {}) => server.inject({
        method: 'POST', url, payload, headers: { 'x-widget-key': a.bot.publicKey, origin, ...headers }, remoteAddress: '10.9.0.1'
    });
    const events = (sessionId: string) => server.app.db('analytics_events').where('session_id', sessionId).orderBy('id');

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'outcomes', 'shop.localtest');
        await importCustomers(server, a.organization.id, [['+15555550100', 'Alex Rivera', 'alex@example.com', 'LC-1', 1250]]);
    });
    after(async () => t?.close());

    it('records the page host from the Origin header, never the domain the body claims', async () => {
        const res = await post('/api/analytics/track', { sessionId: 'widget_o_1', action: 'widget_opened', domain: 'evil.example' });
        expect(res.statusCode, res.payload).to.equal(202);
        const none = await post('/api/analytics/track', { sessionId: 'widget_o_1', action: 'widget_loaded', domain: 'evil.example' }, { origin: '' });
        expect(none.statusCode, none.payload).to.equal(202);
        await server.app.jobs.drain();
        const rows = await events('widget_o_1');
        expect(rows.map((r) => [r.action, r.domain])).to.deep.equal([['widget_opened', 'shop.localtest'], ['widget_loaded', null]]);
    });

    it('accepts verification_failed with a malformed phone and stores the event without it (only phone numbers are phones)', async () => {
        const res = await post('/api/analytics/track', {
            sessionId: 'widget_o_2', action: 'verification_failed', phoneNumber: '555-01', success: false, errorMessage: 'Please enter a valid phone number'
        });
        expect(res.statusCode, res.payload).to.equal(202);
        const good = await post('/api/analytics/track', { sessionId: 'widget_o_2', action: 'verification_failed', phoneNumber: '(555) 555-0100', success: false });
        expect(good.statusCode).to.equal(202);
        // Other actions still refuse a phone that is not one.
        const other = await post('/api/analytics/track', { sessionId: 'widget_o_2', action: 'points_retrieved', phoneNumber: 'call me maybe' });
        expect(other.statusCode).to.equal(400);
        await server.app.jobs.drain();
        const rows = await events('widget_o_2');
        expect(rows.map((r) => [r.action, r.phone_number, !!r.phone_valid])).to.deep.equal([
            ['verification_failed', null, false],
            ['verification_failed', '+15555550100', true]
        ]);
    });

    it('answers a phone that is not a member and a wrong code with 200 {ok:false, reason, message}', async () => {
        const unknown = await post('/api/loyalty/verify', { identifier: '+15555550177', sessionId: 'widget_o_3' });
        expect(unknown.statusCode).to.equal(200);
        expect(unknown.result).to.deep.equal({ ok: false, reason: 'not_found', code: 'loyalty.not_found', message: 'Phone number not found in our loyalty program' });
        const sent = await post('/api/loyalty/verify', { identifier: '+15555550100', sessionId: 'widget_o_3' });
        expect(sent.result).to.include({ ok: true });
        const code = await lastCode(server, '+15555550100');
        const wrong = await post('/api/loyalty/view', { identifier: '+15555550100', code: code === '000000' ? '111111' : '000000', sessionId: 'widget_o_3' });
        expect(wrong.statusCode).to.equal(200);
        expect(wrong.result).to.deep.equal({ ok: false, reason: 'invalid_code', code: 'loyalty.invalid_code', message: 'Invalid verification code' });
        const right = await post('/api/loyalty/view', { identifier: '+15555550100', code, sessionId: 'widget_o_3' });
        expect(right.statusCode).to.equal(200);
        expect(right.result).to.include({ ok: true, points: 1250 });
        // A malformed request is still a 400: that is a bug of the caller, not an outcome.
        const malformed = await post('/api/loyalty/view', { identifier: '+15555550100', code: 'abc' });
        expect(malformed.statusCode).to.equal(400);
    });

    it('answers check-availability with no agent as 200 {available:false}', async () => {
        const res = await post('/api/chat/check-availability', { sessionId: 'widget_o_4' });
        expect(res.statusCode).to.equal(200);
        expect(res.result).to.include({ available: false });
    });
});
