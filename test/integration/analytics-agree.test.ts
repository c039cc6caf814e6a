import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { createSession } from '../helpers/livechat-client';
import { parseCsv } from '../../core/shared/csv';
import { zonedDateTime } from '../../core/shared/zoned-time';

/**
 * Issue 23, analytics that agree: one definition of a chat session (a live chat that was created: waiting, connected or
 * ended; not a live_chat_requested event, not a left message) for the Chat Sessions card, the Chat tab and its CSV; CSV
 * and transcript times in the store's zone, named.
 */
describe('analytics that agree (issue 23)', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    const zone = 'Asia/Tokyo';
    const get = async (url: string, tenant = a) => {
        const res = await server.inject({ url, headers: bearer(tenant.admin.token) });
        expect(res.statusCode, `${url}: ${res.payload}`).to.equal(200);
        return res;
    };

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'agreea');
        b = await createTenant(server, 'agreeb');
        // A store whose zone is not the server's nor the default (set before analytics reads and caches it).
        await server.app.db('organizations').where('id', a.organization.id).update({ time_zone: zone });

        // Mixed events: many live-chat requests (clicks, retries, requests that found nobody) and other actions …
        for (let i = 0; i < 9; i++) {
            await server.app.services.analytics.track({ organizationId: a.organization.id, action: 'live_chat_requested', sessionId: `widget_ev_${i}` });
            await server.app.services.analytics.track({ organizationId: a.organization.id, action: 'widget_opened', sessionId: `widget_ev_${i}` });
        }
        await server.app.jobs.drain();
        // … and three chats that were created: one waiting, one ended by the agent, one a second chat of a widget session.
        await createSession(server, a, 'widget_agree_1', 'Where is my order?');
        await createSession(server, a, 'widget_agree_2', 'Can I return this?');
        await server.app.services.livechat.end(a.organization.id, 'widget_agree_2', 'agent');
        await createSession(server, a, 'widget_agree_2', 'One more thing');
        // A left message (no agent available) is a conversation in the inbox, not a chat session.
        const left = await server.inject({
            method: 'POST', url: '/api/chat/offline-message', headers: { 'x-widget-key': a.bot.publicKey },
            payload: { sessionId: 'widget_agree_3', email: 'jo@example.com', message: 'Call me back please' }
        });
        expect(left.statusCode, left.payload).to.equal(201);
        // Another store's chat is never counted.
        await createSession(server, b, 'widget_agree_b', 'Hello');
    });
    after(async () => t?.close());

    it('counts the same chat sessions on the card, the Chat tab (its total and its list) and the CSV, for the same range', async () => {
        const summary = JSON.parse((await get('/api/analytics/summary?days=30')).payload);
        const chat = JSON.parse((await get('/api/analytics/chat?days=30')).payload);
        const list = JSON.parse((await get('/api/analytics/chat-sessions?days=30&limit=200')).payload);
        const csv = parseCsv((await get('/api/analytics/export/chat-sessions?days=30')).payload);
        expect(summary.totalChatSessions, 'the card').to.equal(3);
        expect(summary.liveChatSessions).to.equal(3);
        expect(chat.summary.totalSessions, 'the tab\'s figure').to.equal(3);
        expect(list.pagination.total, 'the tab\'s list').to.equal(3);
        expect(list.data).to.have.length(3);
        expect(csv.length - 1, 'the CSV\'s rows').to.equal(3);
        expect(list.data.map((r: { sessionId: string }) => r.sessionId).sort()).to.deep.equal(['widget_agree_1', 'widget_agree_2', 'widget_agree_2~2']);
        // The organization's totals (the org dashboard) say the same.
        const totals = await server.app.services.analytics.organizationTotals(a.organization.id, { from: Date.now() - 86400000, to: Date.now() });
        expect(totals.liveChatSessions).to.equal(3);
        // A range without chats: zero everywhere, the events of the range notwithstanding.
        const old = '?startDate=2020-01-01&endDate=2020-01-31';
        expect(JSON.parse((await get(`/api/analytics/summary${old}`)).payload).totalChatSessions).to.equal(0);
        expect(JSON.parse((await get(`/api/analytics/chat-sessions${old}`)).payload).pagination.total).to.equal(0);
        expect(JSON.parse((await get('/api/analytics/summary?days=30', b)).payload).totalChatSessions).to.equal(1);
    });

    it('writes CSV times in the store\'s zone, with the zone named in the header', async () => {
        const csv = parseCsv((await get('/api/analytics/export/chat-sessions?days=30')).payload).map((r) => r.fields);
        const header = csv[0];
        expect(header).to.include(`startedAt (${zone})`).and.include(`endedAt (${zone})`);
        expect(header).to.not.include('startedAt');
        const list = JSON.parse((await get('/api/analytics/chat-sessions?days=30&limit=200')).payload).data as Array<{ sessionId: string; startedAt: string; endedAt: string | null }>;
        const started = header.indexOf(`startedAt (${zone})`);
        const ended = header.indexOf(`endedAt (${zone})`);
        for (const row of csv.slice(1)) {
            const id = row[header.indexOf('sessionId')];
            const api = list.find((r) => r.sessionId === id)!;
            expect(row[started]).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
            expect(row[started]).to.equal(zonedDateTime(api.startedAt, zone));
            // Tokyo is UTC+9 all year: the local time is 9 hours after the UTC one.
            expect(Date.parse(row[started].replace(' ', 'T') + 'Z') - Date.parse(api.startedAt)).to.be.within(9 * 3600_000 - 1000, 9 * 3600_000);
            expect(row[ended]).to.equal(api.endedAt ? zonedDateTime(api.endedAt, zone) : '');
        }
        // Every export's instants carry the zone (failed verifications: their timestamp column).
        await server.app.services.analytics.track({ organizationId: a.organization.id, action: 'verification_failed', phoneNumber: '+15555550199', success: false });
        await server.app.jobs.drain();
        const failed = parseCsv((await get('/api/analytics/export/failed-verifications?days=30')).payload).map((r) => r.fields);
        expect(failed[0]).to.include(`timestamp (${zone})`);
        expect(failed[1][failed[0].indexOf(`timestamp (${zone})`)]).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it('mails transcripts with the store\'s local times and the zone named', async () => {
        await server.app.services.livechat.sendTranscript(a.organization.id, 'widget_agree_2');
        const mails = await server.app.db('email_outbox').where('organization_id', a.organization.id).where('subject', 'like', 'Chat transcript%').orderBy('id', 'desc').limit(1);
        expect(mails, 'a transcript in the mail outbox').to.have.length(1);
        const text = String(mails[0].body_text);
        const session = await server.app.services.livechat.getSession(a.organization.id, 'widget_agree_2', { messages: true });
        expect(text).to.contain(`Started: ${zonedDateTime(session.createdAt, zone)} ${zone}`);
        expect(text).to.contain(`Times below: ${zone}`);
        expect(text).to.contain(`[${zonedDateTime(session.messages![0].timestamp, zone)}] Customer: Can I return this?`);
        expect(text).to.not.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    });
});
