import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { importCustomers } from '../helpers/loyalty';
import { signUserToken } from '../../core/auth/tokens';
import { dayKey, addDays } from '../../plugins/analytics/lib/time';

const NY = 'America/New_York';

/**
 * SPEC §7 'Analytics' end to end: events posted through the widget API (and, for past days, through the
 * analytics service with their times), read back from every endpoint with exact counts, per organization.
 */
describe('analytics dashboard API (/api/analytics/*)', function () {
    this.timeout(60000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    let superToken: string;
    const today = () => dayKey(Date.now(), NY);

    const track = (tenant: Tenant, payload: object, origin: string) => server.inject({
        method: 'POST', url: '/api/analytics/track', payload, headers: { 'x-widget-key': tenant.bot.publicKey, origin }
    });
    const get = async (url: string, token = a.admin.token) => {
        const res = await server.inject({ method: 'GET', url, headers: bearer(token) });
        return { status: res.statusCode, body: res.result as any, raw: res };
    };

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'dasha', 'shop-a.test');
        b = await createTenant(server, 'dashb', 'shop-b.test');
        await server.app.services.tenants.updateOrganization(a.organization.id, { extraDomains: ['www.shop-a.test'] } as any).catch(() => undefined);
        const root = await server.app.services.users.create({ email: 'root@dash.test', password: 'root-password-1', role: 'super_admin' });
        superToken = signUserToken(server.app.config.jwtSecret, { id: root.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
        await importCustomers(server, a.organization.id, [['+15555550100', 'Ada Lovelace', 'ada@example.com', 'AIQ-1', 1250]]);

        const oa = 'https://shop-a.test';
        const events: object[] = [
            { sessionId: 'widget_1_a', action: 'widget_loaded' },
            { sessionId: 'widget_1_a', action: 'widget_opened' },
            { sessionId: 'widget_1_a', action: 'verification_sent', phoneNumber: '(555) 555-0100', success: true },
            { sessionId: 'widget_1_a', action: 'code_verification_failed', phoneNumber: '(555) 555-0100', success: false, errorMessage: 'Invalid code' },
            { sessionId: 'widget_1_a', action: 'points_retrieved', phoneNumber: '(555) 555-0100', success: true, pointsRetrieved: 1250 },
            { sessionId: 'widget_2_a', action: 'widget_opened' },
            { sessionId: 'widget_2_a', action: 'verification_failed', phoneNumber: '12', success: false, errorMessage: 'not found' },
            { sessionId: 'widget_2_a', action: 'verification_sent', phoneNumber: '555-555-0199', success: true },
            { sessionId: 'widget_2_a', action: 'question_clicked', questionId: 0 },
            { sessionId: 'widget_2_a', action: 'live_chat_requested' }
        ];
        for (const e of events) {
            const res = await track(a, e, oa);
            expect(res.statusCode, res.payload).to.equal(202);
        }
        expect((await track(b, { sessionId: 'widget_1_b', action: 'widget_opened' }, 'https://shop-b.test')).statusCode).to.equal(202);
        await server.app.jobs.drain();
    });
    after(async () => t?.close());

    it('sums the organization\'s events of today in the summary, with both date forms, and none of another organization', async () => {
        // A live_chat_requested event is not a chat session (issue 23): no chat was created, so none is counted.
        const expected = {
            totalInteractions: 10, successfulVerifications: 1, failedVerifications: 2, pointsViewed: 1, totalChatSessions: 0,
            topDomains: [{ domain: 'shop-a.test', count: 10 }], successRate: 33.3, activeDomains: 1, loyaltyChecks: 3, liveChatSessions: 0
        };
        const byDays = await get('/api/analytics/summary?days=30');
        expect(byDays.status, JSON.stringify(byDays.body)).to.equal(200);
        expect(byDays.body).to.deep.include(expected);
        expect(byDays.body.range).to.deep.equal({ startDate: addDays(today(), -29), endDate: today(), timeZone: NY });
        const byDate = await get(`/api/analytics/summary?startDate=${today()}`);
        expect(byDate.body).to.deep.include(expected);
        expect(byDate.body.range).to.include({ startDate: today(), endDate: today() });
        const yesterday = await get(`/api/analytics/summary?startDate=${addDays(today(), -3)}&endDate=${addDays(today(), -1)}`);
        expect(yesterday.body.totalInteractions).to.equal(0);
        const other = await get('/api/analytics/summary', b.admin.token);
        expect(other.body).to.include({ totalInteractions: 1, successfulVerifications: 0 });
    });

    it('reads hourly, daily and timeline rows from the rollups in the organization\'s time zone', async () => {
        const hourly = await get('/api/analytics/hourly');
        expect(hourly.body).to.have.length(24);
        const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: NY, hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
        const sums = hourly.body.reduce((acc: any, r: any) => ({ loaded: acc.loaded + r.widget_loaded, opened: acc.opened + r.widget_opened, verified: acc.verified + r.verified, points: acc.points + r.points_viewed }), { loaded: 0, opened: 0, verified: 0, points: 0 });
        expect(sums).to.deep.equal({ loaded: 1, opened: 2, verified: 2, points: 1 });
        expect(hourly.body[hour].widget_opened + hourly.body[(hour + 23) % 24].widget_opened).to.equal(2);   // the hour may have turned since
        const daily = await get('/api/analytics/daily-interactions');
        expect(daily.body).to.have.length(7);
        expect(daily.body[6]).to.deep.equal({
            date: today(), widget_loaded: 1, widget_opened: 2, verified: 2, loyalty: 3, points_viewed: 1, order_history_viewed: 0, live_chat_requested: 1
        });
        const timeline = await get('/api/analytics/timeline?days=2');
        expect(timeline.body).to.deep.equal([{ date: addDays(today(), -1), total: 0 }, { date: today(), total: 10 }]);
    });

    it('lists domains and one domain\'s activity; a domain of no events is a 404', async () => {
        const domains = await get('/api/analytics/domains');
        expect(domains.body).to.have.length(1);
        expect(domains.body[0]).to.include({ domain: 'shop-a.test', totalInteractions: 10, successfulVerifications: 1, failedVerifications: 2, liveChatRequests: 1 });
        const detail = await get('/api/analytics/domain/shop-a.test');
        expect(detail.body.activity).to.have.length(10);
        expect(detail.body.activity[0]).to.include({ action: 'live_chat_requested', actionDescription: 'Live chat requested' });
        expect((await get('/api/analytics/domain/shop-b.test')).status).to.equal(404);
        expect((await get('/api/analytics/domain/not a domain')).status).to.equal(400);
    });

    it('lists phones with their figures and pages, newest activity first', async () => {
        const res = await get('/api/analytics/phones?days=30&page=1&limit=20');
        expect(res.status).to.equal(200);
        expect(res.body.pagination).to.deep.equal({ page: 1, limit: 20, total: 2, totalPages: 1, hasNext: false, hasPrev: false });
        const ada = res.body.data.find((r: any) => r.phoneNumber === '+15555550100');
        expect(ada).to.include({ totalInteractions: 3, successfulVerifications: 1, failedVerifications: 1, lastPointsShown: 1250, successRate: 50 });
        expect(res.body.data.map((r: any) => r.phoneNumber)).to.deep.equal(['+15555550199', '+15555550100']);
        const page2 = await get('/api/analytics/phones?page=2&limit=1');
        expect(page2.body.data.map((r: any) => r.phoneNumber)).to.deep.equal(['+15555550100']);
        expect(page2.body.pagination).to.include({ page: 2, total: 2, totalPages: 2, hasNext: false, hasPrev: true });
        const byDate = await get(`/api/analytics/phones?startDate=${today()}&endDate=${today()}&page=1&limit=20`);
        expect(byDate.body.data).to.deep.equal(res.body.data);
        const past = await get(`/api/analytics/phones?startDate=${addDays(today(), -5)}&endDate=${addDays(today(), -1)}`);
        expect(past.body.pagination.total).to.equal(0);
    });

    it('answers a phone\'s activity and details, the number in any typed form', async () => {
        const activity = await get('/api/analytics/phone/' + encodeURIComponent('(555) 555-0100'));
        expect(activity.body.map((r: any) => r.action)).to.deep.equal(['points_retrieved', 'code_verification_failed', 'verification_sent']);
        expect(activity.body[0]).to.include({ success: true, pointsRetrieved: 1250, domain: 'shop-a.test' });
        const details = await get('/api/analytics/phone-details/%2B15555550100?days=30');
        expect(details.body.summary).to.deep.equal({ totalInteractions: 3, pointsViewings: 1, latestPoints: 1250, averagePoints: 1250 });
        expect(details.body.actionBreakdown).to.deep.equal({ verification_sent: 1, code_verification_failed: 1, points_retrieved: 1 });
        expect(details.body.pointsHistory[0]).to.include({ points: 1250, domain: 'shop-a.test' });
        expect((await get('/api/analytics/phone-details/call-me')).status).to.equal(400);
    });

    it('lists failed verifications with the SPEC §4 failure types, a malformed number as no phone (issue 23)', async () => {
        const res = await get('/api/analytics/failed-verifications?days=30');
        expect(res.status).to.equal(200);
        const types = res.body.data.map((r: any) => `${r.failureType}:${r.phoneNumber}:${r.phoneValid}`).sort();
        expect(types).to.deep.equal([
            'no_success_after_attempt:+15555550199:true', 'verification_failed:+15555550100:true', 'verify_failed:null:true'
        ]);
        expect(res.body.pagination.total).to.equal(3);
        const none = await get('/api/analytics/failed-verifications', b.admin.token);
        expect(none.body.data).to.deep.equal([]);
    });

    it('counts pre-made question clicks with the question\'s text', async () => {
        const q = await server.app.services.questions.create(a.organization.id, { question: 'Store hours?', answer: 'Mon-Sat 9-8', isActive: true } as any);
        await server.app.services.analytics.track({ organizationId: a.organization.id, action: 'question_clicked', questionId: q.id, domain: 'shop-a.test' });
        await server.app.services.analytics.track({ organizationId: a.organization.id, action: 'question_clicked', questionId: q.id, domain: 'shop-a.test' });
        await server.app.jobs.drain();
        const res = await get('/api/analytics/questions');
        expect(res.body[0]).to.deep.equal({ questionId: q.id, question: 'Store hours?', answer: 'Mon-Sat 9-8', count: 2 });
        expect(res.body.find((r: any) => r.questionId === 0)).to.include({ count: 1 });
    });

    it('reads chat sessions, their messages, durations, trends and status from the live-chat tables', async () => {
        const chat = server.app.services.livechat;
        const org = a.organization.id;
        await chat.createSession({ organizationId: org, botInstanceId: a.bot.id, sessionId: 'widget_chat_1', phoneNumber: '+15555550100', customerMessage: 'Hello?', domain: 'shop-a.test' });
        await chat.accept(org, a.admin.id, 'widget_chat_1');
        await chat.sendMessage(org, 'widget_chat_1', { sender: 'agent', userId: a.admin.id }, { message: 'Hi, how can I help?' });
        await chat.sendMessage(org, 'widget_chat_1', { sender: 'customer', userId: null }, { message: 'My points' });
        await chat.end(org, 'widget_chat_1', 'agent');
        await chat.createSession({ organizationId: org, botInstanceId: a.bot.id, sessionId: 'widget_chat_2', phoneNumber: null, customerMessage: 'Anyone?', domain: 'shop-a.test' });

        const list = await get('/api/analytics/chat-sessions?days=30&page=1&limit=20');
        expect(list.body.pagination).to.include({ total: 2, page: 1 });
        const done = list.body.data.find((r: any) => r.sessionId === 'widget_chat_1');
        expect(done).to.include({ status: 'completed', messageCount: 3, customerMessages: 2, agentMessages: 1, isStarred: false, isArchived: false });
        expect(list.body.data.find((r: any) => r.sessionId === 'widget_chat_2')).to.include({ status: 'waiting', phoneNumber: 'Unknown' });
        const messages = await get('/api/analytics/chat-sessions/widget_chat_1/messages');
        expect(messages.body.messages.map((m: any) => `${m.sender}:${m.message}`)).to.deep.equal(['customer:Hello?', 'agent:Hi, how can I help?', 'customer:My points']);
        expect((await get('/api/analytics/chat-sessions/widget_chat_1/messages', b.admin.token)).status).to.equal(404);
        const trends = await get('/api/analytics/chat?days=7');
        expect(trends.body.summary).to.deep.equal({ totalSessions: 2, completedSessions: 1, failedToRespondSessions: 0 });
        expect(trends.body.dailyTrends[6]).to.deep.equal({ date: today(), sessions: 2, completed: 1 });
        const durations = await get('/api/analytics/chat-durations');
        expect(durations.body).to.include({ totalCompletedSessions: 1 });
        expect(durations.body.durationRanges['0-5 min']).to.equal(1);
        expect(durations.body.recentSessions[0]).to.include({ sessionId: 'widget_chat_1', status: 'completed' });
        const status = await get('/api/analytics/chat-status');
        expect(status.body).to.deep.equal({ activeSessions: 0, waitingSessions: 1 });
        const ws = await get('/api/analytics/websocket');
        expect(ws.body).to.deep.equal({ totalActiveChatConnections: 0, totalAgentConnections: 0, activeSessionIds: [], lastConnectionTime: null });
    });

    it('lists order history views with at most 5 orders of the provider per row', async () => {
        const org = a.organization.id;
        await server.app.services.analytics.track({ organizationId: org, action: 'order_history_viewed', phoneNumber: '+15555550100', success: true, domain: 'shop-a.test', sessionId: 'widget_o_1' });
        await server.app.services.analytics.track({ organizationId: org, action: 'order_history_viewed', phoneNumber: '+15555550177', success: false, errorMessage: 'Customer not found', domain: 'shop-a.test' });
        await server.app.jobs.drain();
        const res = await get('/api/analytics/order-history?page=1&limit=20&days=30');
        expect(res.body.summary).to.deep.equal({ totalViews: 2, successfulViews: 1, uniquePhones: 2, uniqueDomains: 1 });
        expect(res.body.pagination).to.deep.equal({ page: 1, totalPages: 1, totalCount: 2, limit: 20 });
        const ada = res.body.orderHistory.find((r: any) => r.phoneNumber === '+15555550100');
        expect(ada.orderDetails).to.include({ found: true, customerName: 'Ada Lovelace' });
        expect(ada.orderDetails.orders.length).to.be.at.most(5);
        const unknown = res.body.orderHistory.find((r: any) => r.phoneNumber === '+15555550177');
        expect(unknown).to.include({ success: false, errorMessage: 'Customer not found' });
        expect(unknown.orderDetails).to.include({ found: false });
        const daily = await get('/api/analytics/daily-interactions?days=1');
        expect(daily.body[0].order_history_viewed).to.equal(2);
    });

    it('looks a listed phone\'s customer up once and then answers from the cached column', async () => {
        const loyalty = server.app.services.loyalty;
        const original = loyalty.lookupCustomer;
        let calls = 0;
        loyalty.lookupCustomer = (...args: Parameters<typeof original>) => {
            calls += 1;
            return original.apply(loyalty, args);
        };
        try {
            const first = await get('/api/analytics/alpine-customer/%2B15555550100');
            expect(first.body).to.deep.equal({ found: true, email: 'ada@example.com', name: 'Ada Lovelace', alpineId: 'AIQ-1' });
            const second = await get('/api/analytics/alpine-customer/' + encodeURIComponent('555-555-0100'));
            expect(second.body).to.deep.equal(first.body);
            expect(calls).to.equal(1);
            const list = await get('/api/analytics/phones');
            expect(list.body.data.find((r: any) => r.phoneNumber === '+15555550100').lookup).to.deep.equal(first.body);
        }
        finally {
            loyalty.lookupCustomer = original;
        }
    });

    it('exports a table as CSV with the same filters', async () => {
        const res = await get('/api/analytics/export/phones?days=30');
        expect(res.status).to.equal(200);
        expect(res.raw.headers['content-type']).to.match(/^text\/csv/);
        expect(res.raw.headers['content-disposition']).to.match(/attachment; filename="analytics-phones-.*\.csv"/);
        const lines = res.raw.payload.trim().split('\r\n');
        // Times in the store's zone, named in the header (issue 23).
        expect(lines[0]).to.equal('phoneNumber,totalInteractions,successfulVerifications,failedVerifications,lastPointsShown,lastActivity (America/New_York),successRate,customerName,customerEmail');
        expect(lines).to.have.length((await get('/api/analytics/phones?days=30')).body.pagination.total + 1);
        // Phones are text beginning with '+': defused with an apostrophe like any formula (issue 25).
        expect(lines.find((l: string) => l.startsWith('\'+15555550100,'))).to.match(/^'\+15555550100,4,1,1,1250,[^,]+,50,Ada Lovelace,ada@example\.com$/);
        const empty = await get(`/api/analytics/export/phones?startDate=${addDays(today(), -9)}&endDate=${addDays(today(), -8)}`);
        expect(empty.raw.payload).to.equal('');
        const fails = await get('/api/analytics/export/failed-verifications');
        expect(fails.raw.payload.split('\r\n')[0]).to.equal('phoneNumber,action,failureType,domain,timestamp (America/New_York),phoneValid');
        expect((await get('/api/analytics/export/users')).status).to.equal(400);
        for (const table of ['summary', 'hourly', 'daily', 'domains', 'questions', 'chat-sessions', 'chat-durations', 'order-history']) {
            const csv = await get(`/api/analytics/export/${table}?days=7`);
            expect(csv.status, table).to.equal(200);
            expect(csv.raw.payload.split('\r\n').length, table).to.be.greaterThan(1);
        }
        const summaryCsv = (await get('/api/analytics/export/summary')).raw.payload.split('\r\n');
        expect(summaryCsv[0]).to.equal('totalInteractions,successfulVerifications,failedVerifications,pointsViewed,totalChatSessions,successRate,activeDomains,loyaltyChecks,liveChatSessions');
        const hourlyCsv = (await get('/api/analytics/export/hourly')).raw.payload.trim().split('\r\n');
        expect(hourlyCsv).to.have.length(25);
    });

    it('lets a super admin read any organization by organizationId, and requires it', async () => {
        expect((await get('/api/analytics/summary', superToken)).status).to.equal(400);
        const res = await get(`/api/analytics/summary?organizationId=${a.organization.id}`, superToken);
        expect(res.body.totalInteractions).to.be.at.least(10);
        expect((await get('/api/analytics/summary?organizationId=2147483000', superToken)).status).to.equal(404);
        expect((await get(`/api/analytics/summary?organizationId=${a.organization.id}`, b.admin.token)).status).to.equal(404);
        expect((await get('/api/analytics/summary', a.orgUser.token)).status).to.be.oneOf([401, 403]);
    });

    it('answers 400 for bad ranges and pages', async () => {
        for (const q of ['days=0', 'days=401', 'startDate=2026-13-40', 'startDate=yesterday', 'endDate=2026-01-01',
            'startDate=2026-02-01&endDate=2026-01-01', 'startDate=2020-01-01&endDate=2026-01-01', 'days=7&startDate=2026-01-01']) {
            const res = await get(`/api/analytics/summary?${q}`);
            expect(res.status, q).to.equal(400);
        }
        expect((await get('/api/analytics/phones?limit=1000')).status).to.equal(400);
        expect((await get('/api/analytics/phones?page=0')).status).to.equal(400);
    });

    it('gives the organization user its totals and daily rows (/api/org/analytics)', async () => {
        const res = await get('/api/org/analytics?days=7', a.orgUser.token);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ organizationId: a.organization.id, timeZone: NY });
        expect(res.body.daily).to.have.length(7);
        expect(res.body.daily[6].date).to.equal(today());
        expect(res.body.totalInteractions).to.equal((await get('/api/analytics/summary?days=7')).body.totalInteractions);
        expect(res.body.daily[6]).to.deep.equal((await get('/api/analytics/daily-interactions?days=7')).body[6]);
    });
});
