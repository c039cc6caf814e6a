import { expect } from 'chai';
import { startWithStores, bearer, TestServer, Tenant } from '../helpers/server';
import { connectAgent, createSession, setAvailable, disconnectAll } from '../helpers/livechat-client';
import { instantOf, isoWithOffset } from '../../core/shared/support-hours';
import { HoursService } from '../../plugins/livechat/services/hours-service';

/** The local date of an instant in a zone ('YYYY-MM-DD'). */
const localDate = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
const DAY = 86_400_000;
const allWeek = (open = '00:00', close = '24:00') => [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, open, close }));

describe('live chat: support hours (GET|PUT /api/chat/business-hours) and availability outside them', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    const clients: any[] = [];

    before(async () => {
        ({ t, stores: [a, b] } = await startWithStores(['hoursa', 'hoursb']));
        // Store A is in Kolkata (UTC+5:30): the schedule is read in the store's zone, not the server's.
        await t.server.app.db('organizations').where('id', a.organization.id).update({ time_zone: 'Asia/Kolkata' });
    });
    afterEach(() => disconnectAll(clients));
    after(async () => {
        await t?.close();
    });

    const get = (tenant: Tenant) => t.server.inject({ method: 'GET', url: '/api/chat/business-hours', headers: bearer(tenant.admin.token) });
    const put = (tenant: Tenant, payload: unknown, token = tenant.admin.token) =>
        t.server.inject({ method: 'PUT', url: '/api/chat/business-hours', headers: bearer(token), payload: payload as object });
    const availability = async (tenant: Tenant, sessionId = 'widget_hours_check') => {
        const res = await t.server.inject({ method: 'POST', url: '/api/chat/check-availability', headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId } });
        expect(res.statusCode, res.payload).to.equal(200);
        return res.result as { available: boolean; reason: string; opensAt?: string | null; whenClosed?: string; message?: string };
    };
    /** A schedule closed all of today (the store's date) and open every other day around the clock. */
    const closedToday = (tenant: Tenant, zone: string, whenClosed = 'offline_form') =>
        put(tenant, { weekly: allWeek(), exceptions: [{ date: localDate(Date.now(), zone), closed: true }], whenClosed });
    const tomorrowMidnight = (zone: string) => {
        const tomorrow = localDate(Date.now() + DAY, zone);
        return isoWithOffset(instantOf(tomorrow, 0, zone), zone);
    };

    it('has no schedule at first: always open, and availability answers as before with a reason', async () => {
        const res = await get(a);
        expect(res.statusCode).to.equal(200);
        expect(res.result).to.deep.include({ weekly: [], exceptions: [], whenClosed: 'offline_form', timeZone: 'Asia/Kolkata', configured: false });
        expect((res.result as any).status).to.deep.equal({ open: true, opensAt: null, closesAt: null });
        expect(await availability(a)).to.deep.equal({ available: false, reason: 'no_agent', message: 'No agents are available right now' });
        clients.push((await connectAgent(t.url, a)).client);
        await setAvailable(t.server, a, true);
        expect(await availability(a)).to.deep.equal({ available: true, reason: 'open' });
    });

    it('stores a schedule, reads it back sorted, and says whether it is open now in the store\'s zone', async () => {
        const res = await put(a, {
            weekly: [{ day: 5, open: '13:00', close: '17:00' }, { day: 1, open: '09:00', close: '17:00' }, { day: 5, open: '09:00', close: '12:00' }, { day: 6, open: '22:00', close: '02:00' }],
            exceptions: [{ date: '2026-12-25', closed: true }, { date: '2026-12-24', open: '10:00', close: '14:00' }],
            whenClosed: 'ai_only'
        });
        expect(res.statusCode, res.payload).to.equal(200);
        const saved = await get(a);
        expect(saved.result).to.deep.include({
            weekly: [{ day: 1, open: '09:00', close: '17:00' }, { day: 5, open: '09:00', close: '12:00' }, { day: 5, open: '13:00', close: '17:00' }, { day: 6, open: '22:00', close: '02:00' }],
            exceptions: [{ date: '2026-12-24', open: '10:00', close: '14:00' }, { date: '2026-12-25', closed: true }],
            whenClosed: 'ai_only', timeZone: 'Asia/Kolkata', configured: true
        });
        const status = (saved.result as any).status as { open: boolean; opensAt: string | null; closesAt: string | null };
        // Whatever the hour, the answer is in the store's offset (+05:30).
        expect(status.open ? status.closesAt : status.opensAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+05:30$/);
        // Another store's schedule is its own.
        expect((await get(b)).result).to.deep.include({ weekly: [], configured: false, timeZone: 'America/New_York' });
    });

    it('answers 400 with a clear message for bad input, and keeps the schedule it had', async () => {
        const before = (await get(a)).result as any;
        const cases: Array<[unknown, RegExp]> = [
            [{ weekly: [{ day: 7, open: '09:00', close: '17:00' }] }, /"weekly\[0\]\.day" must be 0 \(Sunday\) to 6 \(Saturday\)/],
            [{ weekly: [{ day: 1, open: '9:00', close: '17:00' }] }, /"weekly\[0\]\.open" must be a time of day such as 09:00/],
            [{ weekly: [{ day: 1, open: '09:00', close: '25:00' }] }, /"weekly\[0\]\.close" must be a time of day such as 17:30 \(or 24:00\)/],
            [{ weekly: [{ day: 1, open: '24:00', close: '17:00' }] }, /"weekly\[0\]\.open" must be a time of day/],
            [{ weekly: [{ day: 1, open: '09:00' }] }, /"weekly\[0\]\.close" is required/],
            [{ weekly: [] , exceptions: [{ date: '2026-02-30', closed: true }] }, /"exceptions\[0\]\.date" must be a calendar date YYYY-MM-DD/],
            [{ weekly: [], exceptions: [{ date: '2026-12-25', closed: false }] }, /"exceptions\[0\]\.closed" must be true/],
            [{ weekly: [], exceptions: [{ date: '2026-12-25' }] }, /"exceptions\[0\]" needs closed: true, or open and close times/],
            [{ weekly: [], exceptions: [{ date: '2026-12-25', open: '10:00' }] }, /"exceptions\[0\]" needs both open and close/],
            [{ weekly: [], exceptions: [{ date: '2026-12-25', closed: true, open: '10:00', close: '12:00' }] }, /"exceptions\[0\]" is either closed: true, or open and close times, not both/],
            [{ weekly: [{ day: 1, open: '09:00', close: '12:00' }, { day: 1, open: '11:00', close: '14:00' }] }, /Monday: the ranges 09:00–12:00 and 11:00–14:00 overlap/],
            [{ weekly: [{ day: 2, open: '09:00', close: '09:00' }] }, /Tuesday: the range 09:00–09:00 opens and closes at the same time/],
            [{ weekly: [], exceptions: [{ date: '2026-12-25', closed: true }, { date: '2026-12-25', open: '10:00', close: '12:00' }] }, /2026-12-25 is listed more than once/],
            [{ weekly: [], whenClosed: 'later' }, /"whenClosed" must be one of \[offline_form, ai_only, hide\]/],
            [{ weekly: [], organizationId: b.organization.id }, /"organizationId" is not allowed/],
            [{ exceptions: [] }, /"weekly" is required/],
            [{ weekly: Array.from({ length: 71 }, () => ({ day: 1, open: '09:00', close: '10:00' })) }, /"weekly" must contain less than or equal to 70 items/],
            [null, /"value" must be of type object|Invalid request payload/]
        ];
        for (const [payload, message] of cases) {
            const res = await put(a, payload);
            expect(res.statusCode, `${JSON.stringify(payload).slice(0, 120)} → ${res.payload}`).to.equal(400);
            expect((res.result as any).message, JSON.stringify(payload).slice(0, 120)).to.match(message);
        }
        expect((await get(a)).result).to.deep.include({ weekly: before.weekly, exceptions: before.exceptions, whenClosed: before.whenClosed });
    });

    it('is for the store\'s admins only: org users, the widget key and nobody get nothing and change nothing', async () => {
        const payload = { weekly: allWeek('10:00', '11:00'), exceptions: [], whenClosed: 'hide' };
        expect((await put(a, payload, a.orgUser.token)).statusCode).to.be.oneOf([401, 403]);
        expect((await t.server.inject({ method: 'GET', url: '/api/chat/business-hours', headers: bearer(a.orgUser.token) })).statusCode).to.be.oneOf([401, 403]);
        expect((await t.server.inject({ method: 'GET', url: '/api/chat/business-hours', headers: { 'x-widget-key': a.bot.publicKey } })).statusCode).to.equal(401);
        expect((await t.server.inject({ method: 'PUT', url: '/api/chat/business-hours', payload })).statusCode).to.equal(401);
        expect(((await get(a)).result as any).whenClosed).to.equal('ai_only');
        // B's admin changes B's schedule, never A's (tenancy: the organization comes from the token).
        expect((await put(b, payload)).statusCode).to.equal(200);
        expect(((await get(a)).result as any).whenClosed).to.equal('ai_only');
        expect(((await get(b)).result as any).whenClosed).to.equal('hide');
        expect((await put(b, { weekly: [], exceptions: [], whenClosed: 'offline_form' })).statusCode).to.equal(200);
    });

    it('closed now: not available even with an agent online, with the next opening and what the widget does meanwhile', async () => {
        clients.push((await connectAgent(t.url, a)).client);
        await setAvailable(t.server, a, true);
        expect((await closedToday(a, 'Asia/Kolkata', 'hide')).statusCode).to.equal(200);
        const closed = await availability(a);
        expect(closed).to.deep.equal({ available: false, reason: 'closed', opensAt: tomorrowMidnight('Asia/Kolkata'), whenClosed: 'hide', message: 'Live support is closed right now' });
        expect(closed.opensAt).to.match(/T00:00:00\+05:30$/);
        // The status of GET says the same.
        expect(((await get(a)).result as any).status).to.deep.equal({ open: false, opensAt: closed.opensAt, closesAt: null });
        // Store B (no schedule) is not affected.
        expect((await availability(b)).reason).to.equal('no_agent');
        // Open again (no weekly ranges, no exceptions): available, as before.
        await put(a, { weekly: [], exceptions: [], whenClosed: 'hide' });
        expect(await availability(a)).to.deep.equal({ available: true, reason: 'open' });
    });

    it('refuses a new chat while closed, but a chat already waiting at closing time stays in the queue and is answered', async () => {
        clients.push((await connectAgent(t.url, a)).client);
        await setAvailable(t.server, a, true);
        await put(a, { weekly: [], exceptions: [], whenClosed: 'offline_form' });
        await createSession(t.server, a, 'widget_hours_waiting', 'Before closing');
        await closedToday(a, 'Asia/Kolkata');

        const late = await t.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId: 'widget_hours_late', customerMessage: 'After closing' } });
        expect(late.statusCode, late.payload).to.equal(409);
        expect(late.result).to.deep.include({ code: 'livechat.closed', message: 'Live support is closed right now', args: { opensAt: tomorrowMidnight('Asia/Kolkata') } });
        expect(await t.server.app.services.livechat.hasSession(a.organization.id, 'widget_hours_late')).to.equal(false);

        // The customer who was waiting reloads the page: the same chat, still waiting.
        const again = await t.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId: 'widget_hours_waiting' } });
        expect(again.statusCode, again.payload).to.equal(200);
        const waiting = await t.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(a.admin.token) });
        expect((waiting.result as any[]).map((s) => s.sessionId)).to.include('widget_hours_waiting');
        const accepted = await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_hours_waiting/accept', headers: bearer(a.admin.token) });
        expect(accepted.statusCode, accepted.payload).to.equal(200);
        const reply = await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_hours_waiting/messages', headers: bearer(a.admin.token), payload: { message: 'Still here for you' } });
        expect(reply.statusCode, reply.payload).to.equal(201);
        await put(a, { weekly: [], exceptions: [], whenClosed: 'offline_form' });
    });

    it('opens and closes on time as the clock moves, and follows a schedule saved on another node at once', async () => {
        let clock = Date.parse('2026-11-30T03:29:00Z');           // Monday 30 November, 08:59 in Kolkata
        const hours = new HoursService({ db: t.server.app.db, tenants: t.server.app.services.tenants, now: () => clock });
        await put(a, { weekly: [{ day: 1, open: '09:00', close: '17:00' }], exceptions: [], whenClosed: 'offline_form' });
        expect(await hours.availability(a.organization.id)).to.deep.equal({ open: false, opensAt: '2026-11-30T09:00:00+05:30', whenClosed: 'offline_form' });
        clock += 60_000;                                          // 09:00
        expect((await hours.availability(a.organization.id)).open).to.equal(true);
        clock = Date.parse('2026-11-30T11:29:00Z');               // 16:59
        expect((await hours.availability(a.organization.id)).open).to.equal(true);
        clock += 60_000;                                          // 17:00
        expect(await hours.availability(a.organization.id)).to.deep.equal({ open: false, opensAt: '2026-12-07T09:00:00+05:30', whenClosed: 'offline_form' });
        // Saved through the API (this service instance is like another node's): read at the next question.
        await put(a, { weekly: [{ day: 1, open: '09:00', close: '18:00' }], exceptions: [], whenClosed: 'hide' });
        expect(await hours.availability(a.organization.id)).to.deep.equal({ open: true, opensAt: null, whenClosed: 'hide' });
        await put(a, { weekly: [], exceptions: [], whenClosed: 'offline_form' });
        expect((await hours.availability(a.organization.id)).open).to.equal(true);
    });

    it('tells the AI agent nobody is available while closed, so it offers no hand-off', async () => {
        const agent = await connectAgent(t.url, a);
        clients.push(agent.client);
        await setAvailable(t.server, a, true);
        await t.server.app.services.questions.addDefaults(a.organization.id);
        const ask = (sessionId: string) => t.server.inject({ method: 'POST', url: '/api/ai/chat', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId, message: 'I want to talk to a human' } });
        await closedToday(a, 'Asia/Kolkata', 'ai_only');
        const closed = JSON.parse((await ask('widget_hours_ai_1')).payload);
        expect(closed.fallbackAction).to.equal('questions');
        expect(closed.answer).to.match(/currently unavailable/);
        await put(a, { weekly: [], exceptions: [], whenClosed: 'ai_only' });
        const open = JSON.parse((await ask('widget_hours_ai_2')).payload);
        expect(open.fallbackAction).to.equal('live_chat');
        await agent.box.waitFor((m) => m.type === 'ai_transfer_request' && m.sessionId === 'widget_hours_ai_2');
        expect(agent.box.messages.some((m) => m.sessionId === 'widget_hours_ai_1'), 'no hand-off while closed').to.equal(false);
    });
});
