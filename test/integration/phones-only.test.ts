import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import analyticsPhonesOnly from '../../plugins/analytics/migrations/20261201010000-analytics-phones-only';
import loyaltyPhonesOnly from '../../plugins/loyalty/migrations/20261201010001-loyalty-phones-only';
import livechatPhonesOnly from '../../plugins/livechat/migrations/20261201010002-livechat-phones-only';
import aiPhonesOnly from '../../plugins/ai/migrations/20261201010003-ai-phones-only';
import { freeTextInPhoneColumns, phoneColumns } from '../helpers/phones';

/**
 * Issue 23, "only phone numbers are phone numbers" (DESIGN §8): what the widget calls store as a phone is E.164 or
 * nothing, and the migrations clean what an earlier version stored — the event kept, the bogus phone dropped, the
 * per-phone rollups corrected — on SQLite and (with DATABASE_URL) PostgreSQL.
 */
describe('only phone numbers are phone numbers (issue 23)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    const origin = 'https://phones.localtest';
    const post = (url: string, payload: object) => server.inject({
        method: 'POST', url, payload, headers: { 'x-widget-key': a.bot.publicKey, origin }, remoteAddress: '10.23.0.1'
    });

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'phones', 'phones.localtest');
    });
    after(async () => t?.close());

    it('tracks free text sent as a phone without a phone: the event is kept, Failed Attempts and Phones show no text', async () => {
        for (const phoneNumber of ['never mind what are', 'can I pay with apple', "I didn't get a code", '555-01', '(555) 555-0100']) {
            const res = await post('/api/analytics/track', { sessionId: 'widget_p_1', action: 'verification_failed', phoneNumber, success: false });
            expect(res.statusCode, res.payload).to.equal(202);
        }
        expect((await post('/api/analytics/track', { sessionId: 'widget_p_1', action: 'points_retrieved', phoneNumber: 'call me maybe' })).statusCode,
            'other actions refuse a phone that is not one').to.equal(400);
        await server.app.jobs.drain();
        const rows = await server.app.db('analytics_events').where('session_id', 'widget_p_1').orderBy('id');
        expect(rows.map((r) => r.phone_number)).to.deep.equal([null, null, null, null, '+15555550100']);
        const auth = { authorization: `Bearer ${a.admin.token}` };
        const failed = await server.inject({ method: 'GET', url: '/api/analytics/failed-verifications?days=30', headers: auth });
        expect(failed.statusCode).to.equal(200);
        const listed = (failed.result as { data: Array<{ phoneNumber: string | null }> }).data.map((r) => r.phoneNumber);
        expect(listed.filter((p) => p !== null)).to.deep.equal(['+15555550100']);
        const phones = await server.inject({ method: 'GET', url: '/api/analytics/phones?days=30', headers: auth });
        expect((phones.result as { data: Array<{ phoneNumber: string }> }).data.map((r) => r.phoneNumber)).to.deep.equal(['+15555550100']);
    });

    it('stores a live chat\'s and a left message\'s phone as E.164 or Unknown, never the text', async () => {
        const chat = await post('/api/chat/create-session', { sessionId: 'widget_p_2', phoneNumber: 'never mind', customerMessage: 'hello' });
        expect(chat.statusCode, chat.payload).to.be.oneOf([200, 201]);
        const typed = await post('/api/chat/create-session', { sessionId: 'widget_p_3', phoneNumber: '(555) 555-0100', customerMessage: 'hello' });
        expect(typed.statusCode, typed.payload).to.be.oneOf([200, 201]);
        const left = await post('/api/chat/offline-message', { sessionId: 'widget_p_4', email: 'jo@example.test', message: 'hi', phoneNumber: 'my phone' });
        expect(left.statusCode, left.payload).to.equal(201);
        const phones = Object.fromEntries((await server.app.db('chat_sessions').whereIn('widget_session_id', ['widget_p_2', 'widget_p_3', 'widget_p_4'])
            .select('widget_session_id', 'phone_number')).map((r) => [r.widget_session_id, r.phone_number]));
        expect(phones).to.deep.equal({ widget_p_2: 'Unknown', widget_p_3: '+15555550100', widget_p_4: 'Unknown' });
    });

    it('knows every phone column of the schema', async () => {
        expect((await phoneColumns(server.app.db)).map(([table, column]) => `${table}.${column}`)).to.deep.equal([
            'ai_chat_history.phone_number', 'analytics_events.phone_number', 'analytics_phone_daily.phone_number', 'analytics_phones.phone_number',
            'chat_sessions.phone_number', 'loyalty_customers.phone', 'sms_outbox.to_phone', 'verification_codes.phone', 'widget_sessions.verified_phone'
        ]);
    });

    it('cleans what an earlier version stored, in every table, keeping the rows that are not only a phone', async () => {
        const db = server.app.db;
        const org = a.organization.id;
        const t0 = Date.now() - 3600_000;
        // As the earlier widget and track route stored them: failed verifications keeping the text typed in the phone
        // step (phone_valid false), an older row of a number as typed, and per-phone rollups of both.
        await db('analytics_events').insert([
            { organization_id: org, session_id: 'widget_old_1', action: 'verification_failed', phone_number: 'never mind what are', phone_valid: false, success: false, domain: 'phones.localtest', created_at: t0 },
            { organization_id: org, session_id: 'widget_old_1', action: 'verification_failed', phone_number: 'can I pay with apple', phone_valid: false, success: false, domain: 'phones.localtest', created_at: t0 + 1 },
            { organization_id: org, session_id: 'widget_old_2', action: 'code_verification_failed', phone_number: "I didn't get a code", phone_valid: null, success: false, domain: 'phones.localtest', created_at: t0 + 2 },
            { organization_id: org, session_id: 'widget_old_3', action: 'points_retrieved', phone_number: '5555550188', phone_valid: null, success: true, points_retrieved: 40, domain: 'phones.localtest', created_at: t0 + 3 },
            { organization_id: org, session_id: 'widget_old_3', action: 'points_retrieved', phone_number: '+15555550188', phone_valid: true, success: true, points_retrieved: 30, domain: 'phones.localtest', created_at: t0 + 4 }
        ]);
        const day = '2026-01-15';
        await db('analytics_phone_daily').insert([
            { organization_id: org, day, phone_number: "I didn't get a code", events: 1, successes: 0, failures: 1, last_points: null, last_points_at: null, last_activity: t0 + 2 },
            { organization_id: org, day, phone_number: '5555550188', events: 2, successes: 1, failures: 1, last_points: 40, last_points_at: t0 + 3, last_activity: t0 + 3 },
            { organization_id: org, day, phone_number: '+15555550188', events: 1, successes: 1, failures: 0, last_points: 30, last_points_at: t0 + 1, last_activity: t0 + 4 },
            { organization_id: org, day: '2026-01-14', phone_number: '(555) 555-0177', events: 1, successes: 0, failures: 1, last_points: null, last_points_at: null, last_activity: t0 - 86400_000 }
        ]);
        await db('analytics_phones').insert([
            { organization_id: org, phone_number: "I didn't get a code", first_seen: t0 + 2, last_activity: t0 + 2 },
            { organization_id: org, phone_number: '5555550188', first_seen: t0 - 5000, last_activity: t0 + 3, lookup: '{"found":true}', lookup_at: t0 },
            { organization_id: org, phone_number: '+15555550188', first_seen: t0, last_activity: t0 + 4 },
            { organization_id: org, phone_number: '(555) 555-0177', first_seen: t0 - 86400_000, last_activity: t0 - 86400_000 }
        ]);
        await db('chat_sessions').insert({ organization_id: org, session_id: 'widget_old_4', widget_session_id: 'widget_old_4', phone_number: 'can I pay with apple',
            status: 'completed', customer_message: 'can I pay with apple', last_seq: 0, is_starred: false, is_archived: false, created_at: t0, updated_at: t0 });
        await db('chat_sessions').insert({ organization_id: org, session_id: 'widget_old_5', widget_session_id: 'widget_old_5', phone_number: '555.555.0188',
            status: 'completed', customer_message: 'hi', last_seq: 0, is_starred: false, is_archived: false, created_at: t0, updated_at: t0 });
        await db('ai_chat_history').insert({ organization_id: org, session_id: 'widget_old_1', phone_number: 'never mind what are', user_question: 'never mind what are',
            ai_response: 'a', is_resolved: false, created_at: t0 });
        await db('verification_codes').insert([
            { organization_id: org, phone: "I didn't get a code", code_hash: 'x'.repeat(64), session_id: 'widget_old_2', attempts: 1, expires_at: t0, created_at: t0 },
            { organization_id: org, phone: '+15555550188', code_hash: 'y'.repeat(64), session_id: 'widget_old_3', attempts: 0, expires_at: t0, created_at: t0 }
        ]);
        await db('widget_sessions').insert({ organization_id: org, session_id: 'widget_old_2', verified_phone: 'nope', verified_at: t0, created_at: t0, last_seen_at: t0 });
        await db('sms_outbox').insert({ organization_id: org, to_phone: 'never mind', body: 'x', provider: 'outbox', status: 'stored', created_at: t0 });
        await db('loyalty_customers').insert({ organization_id: org, phone: '555 555 0199', name: 'Typed Member', points: 5, created_at: t0, updated_at: t0 });
        const eventCount = Number((await db('analytics_events').count({ n: '*' }).first())?.n);
        expect((await freeTextInPhoneColumns(db)).length, 'planted').to.be.greaterThan(8);

        for (const migration of [analyticsPhonesOnly, loyaltyPhonesOnly, livechatPhonesOnly, aiPhonesOnly]) {
            await migration.up(db);
        }

        expect(await freeTextInPhoneColumns(db)).to.deep.equal([]);
        expect(Number((await db('analytics_events').count({ n: '*' }).first())?.n), 'every event is kept').to.equal(eventCount);
        const old = await db('analytics_events').whereIn('session_id', ['widget_old_1', 'widget_old_2', 'widget_old_3']).orderBy('id').select('action', 'phone_number', 'phone_valid');
        expect(old.map((e) => [e.action, e.phone_number, e.phone_valid === null ? null : !!e.phone_valid])).to.deep.equal([
            ['verification_failed', null, null],
            ['verification_failed', null, null],
            ['code_verification_failed', null, null],
            ['points_retrieved', '+15555550188', true],
            ['points_retrieved', '+15555550188', true]
        ]);
        // The per-phone rollups: the text's row gone, the typed number's added into its E.164 row.
        const daily = await db('analytics_phone_daily').where('organization_id', org).whereIn('day', [day, '2026-01-14']).orderBy(['day', 'phone_number']);
        expect(daily.map((r) => [r.day, r.phone_number, Number(r.events), Number(r.successes), Number(r.failures), Number(r.last_points), Number(r.last_points_at), Number(r.last_activity)]))
            .to.deep.equal([
                ['2026-01-14', '+15555550177', 1, 0, 1, 0, 0, t0 - 86400_000],
                [day, '+15555550188', 3, 2, 1, 40, t0 + 3, t0 + 4]
            ]);
        const all = await db('analytics_phones').where('organization_id', org).whereIn('phone_number', ['+15555550188', '+15555550177']).orderBy('phone_number');
        expect(all.map((r) => [r.phone_number, Number(r.first_seen), Number(r.last_activity), r.lookup])).to.deep.equal([
            ['+15555550177', t0 - 86400_000, t0 - 86400_000, null],
            ['+15555550188', t0 - 5000, t0 + 4, '{"found":true}']
        ]);
        const chats = Object.fromEntries((await db('chat_sessions').whereIn('session_id', ['widget_old_4', 'widget_old_5'])).map((r) => [r.session_id, r.phone_number]));
        expect(chats).to.deep.equal({ widget_old_4: 'Unknown', widget_old_5: '+15555550188' });
        const history = await db('ai_chat_history').where('session_id', 'widget_old_1').first();
        expect([history.phone_number, history.user_question]).to.deep.equal([null, 'never mind what are']);
        expect((await db('verification_codes').where('organization_id', org)).map((r) => r.phone)).to.deep.equal(['+15555550188']);
        expect((await db('widget_sessions').where('session_id', 'widget_old_2').first()).verified_phone).to.equal(null);
        expect(await db('sms_outbox').where('to_phone', 'never mind').first()).to.equal(undefined);
        expect((await db('loyalty_customers').where('name', 'Typed Member').first()).phone).to.equal('+15555550199');

        // The dashboard reads the corrected data: Failed Attempts and Phones without the text.
        const auth = { authorization: `Bearer ${a.admin.token}` };
        const failed = await server.inject({ method: 'GET', url: '/api/analytics/failed-verifications?days=30', headers: auth });
        const listed = (failed.result as { data: Array<{ phoneNumber: string | null }> }).data.map((r) => r.phoneNumber).filter((p) => p !== null);
        expect(listed.every((p) => /^\+\d+$/.test(p!)), listed.join()).to.equal(true);

        // Run twice, nothing changes (a migration may be re-run on a restored backup).
        for (const migration of [analyticsPhonesOnly, loyaltyPhonesOnly, livechatPhonesOnly, aiPhonesOnly]) {
            await migration.up(db);
        }
        expect(await freeTextInPhoneColumns(db)).to.deep.equal([]);
        expect(Number((await db('analytics_phone_daily').where({ organization_id: org, day, phone_number: '+15555550188' }).first()).events)).to.equal(3);
    });
});
