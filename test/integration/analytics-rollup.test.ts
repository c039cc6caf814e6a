import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { AnalyticsReports } from '../../plugins/analytics/services/reports';
import { dayKey, dayRange } from '../../plugins/analytics/lib/time';
import { isFailure, isSuccess } from '../../plugins/analytics/lib/rollup';

const DAY = 86400000;
const ACTIONS = ['widget_loaded', 'widget_opened', 'question_clicked', 'live_chat_requested', 'verification_sent', 'verification_failed', 'points_retrieved', 'code_verification_failed', 'order_history_viewed'];

/** A small deterministic random generator, so a failure can be reproduced. */
function random(seed: number): () => number {
    let s = seed;
    return () => {
        s = (s * 1103515245 + 12345) % 2147483648;
        return s / 2147483648;
    };
}

describe('analytics rollups answer what the raw events answer', function () {
    this.timeout(60000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let reports: AnalyticsReports;
    const zone = 'America/New_York';
    const now = Date.now();

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'rollup', 'rollup.test');
        reports = new AnalyticsReports(server.app.db);
        const rnd = random(42);
        const analytics = server.app.services.analytics;
        for (let i = 0; i < 1500; i++) {
            const action = ACTIONS[Math.floor(rnd() * ACTIONS.length)];
            const successRoll = rnd();
            await analytics.track({
                organizationId: a.organization.id,
                action,
                success: successRoll < 0.7 ? true : successRoll < 0.85 ? false : null,
                phoneNumber: rnd() < 0.6 ? `+1555555${String(Math.floor(rnd() * 40)).padStart(4, '0')}` : null,
                pointsRetrieved: action === 'points_retrieved' ? Math.floor(rnd() * 2000) : null,
                questionId: action === 'question_clicked' ? 1 + Math.floor(rnd() * 5) : null,
                domain: ['rollup.test', 'www.rollup.test', null][Math.floor(rnd() * 3)],
                createdAt: now - Math.floor(rnd() * 60 * DAY)
            });
        }
        await server.app.jobs.drain();
    });
    after(async () => t?.close());

    const scope = (q: { days?: number; startDate?: string; endDate?: string }) => ({ organizationId: a.organization.id, timeZone: zone, range: dayRange(q, zone, now) });

    it('gives the same summary from rollups as from the raw events, over several ranges', async () => {
        for (const q of [{ days: 1 }, { days: 7 }, { days: 30 }, { days: 90 }, { startDate: dayKey(now - 20 * DAY, zone), endDate: dayKey(now - 10 * DAY, zone) }]) {
            const s = scope(q);
            const fromRollup = await reports.summary(s);
            const fromRaw = await reports.summaryFromEvents(s);
            expect(fromRollup, JSON.stringify(q)).to.deep.include(fromRaw);
        }
    });

    it('lists the same failed verifications as the raw events (count from the daily rollup, quiet phones from the phone rollup)', async () => {
        let attemptsSeen = 0;
        for (const q of [{ days: 1 }, { days: 7 }, { days: 30 }, { days: 90 }, { startDate: dayKey(now - 20 * DAY, zone), endDate: dayKey(now - 10 * DAY, zone) }]) {
            const s = scope(q);
            const raw: Array<{ action: string; success: unknown; phone_number: string | null; created_at: number }> = await server.app.db('analytics_events')
                .where('organization_id', a.organization.id).whereBetween('created_at', [s.range.from, s.range.to]).select('action', 'success', 'phone_number', 'created_at');
            const flagOf = (v: unknown) => (v === null ? null : !!v);
            const failures = raw.filter((e) => e.action === 'loyalty_verify_attempt' || isFailure({ action: e.action, success: flagOf(e.success) }));
            const shown = new Set(raw.filter((e) => e.phone_number && isSuccess({ action: e.action, success: flagOf(e.success) })).map((e) => e.phone_number));
            const sends = new Map<string, number>();
            for (const e of raw.filter((x) => x.action === 'verification_sent' && x.phone_number && !shown.has(x.phone_number))) {
                sends.set(e.phone_number!, Math.max(sends.get(e.phone_number!) ?? 0, Number(e.created_at)));
            }
            attemptsSeen += sends.size;
            const listed = await reports.failedVerifications(s, { page: 1, limit: 100_000 });
            expect(listed.pagination.total, JSON.stringify(q)).to.equal(failures.length + sends.size);
            expect(listed.data.filter((r) => r.failureType !== 'no_success_after_attempt'), JSON.stringify(q)).to.have.length(failures.length);
            expect(listed.data.filter((r) => r.failureType === 'no_success_after_attempt').map((r) => [r.phoneNumber, r.timestamp]).sort(), JSON.stringify(q))
                .to.deep.equal([...sends].map(([phone, at]) => [phone, new Date(at).toISOString()]).sort());
        }
        expect(attemptsSeen, 'some ranges have phones sent a code and never shown points (the check can fail)').to.be.greaterThan(0);
    });

    it('gives the same daily and hourly rows as counting the raw events by local day and hour', async () => {
        const s = scope({ days: 30 });
        const raw: Array<{ action: string; success: unknown; created_at: number }> = await server.app.db('analytics_events')
            .where('organization_id', a.organization.id).whereBetween('created_at', [s.range.from, s.range.to]).select('action', 'success', 'created_at');
        const daily = await reports.daily(s);
        const hourly = await reports.hourly(s);
        const fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' });
        for (const row of daily) {
            const mine = raw.filter((e) => dayKey(Number(e.created_at), zone) === row.date);
            expect(row.widget_opened, row.date).to.equal(mine.filter((e) => e.action === 'widget_opened').length);
            expect(row.points_viewed, row.date).to.equal(mine.filter((e) => isSuccess({ action: e.action, success: e.success === null ? null : !!e.success })).length);
            expect(row.loyalty, row.date).to.equal(mine.filter((e) => e.action === 'verification_sent' || e.action === 'verification_failed').length);
        }
        for (const row of hourly) {
            const mine = raw.filter((e) => Number(fmt.format(new Date(Number(e.created_at)))) % 24 === row.hour);
            expect(row.widget_loaded, String(row.hour)).to.equal(mine.filter((e) => e.action === 'widget_loaded').length);
        }
    });

    it('gives each phone the counts of its raw events', async () => {
        const s = scope({ days: 30 });
        const page = await reports.phones(s, { page: 1, limit: 200 }, dayKey(now, zone));
        const raw: Array<{ phone_number: string; action: string; success: unknown }> = await server.app.db('analytics_events')
            .where('organization_id', a.organization.id).whereBetween('created_at', [s.range.from, s.range.to]).whereNotNull('phone_number');
        expect(page.pagination.total).to.equal(new Set(raw.map((r) => r.phone_number)).size);
        for (const row of page.data) {
            const mine = raw.filter((r) => r.phone_number === row.phoneNumber).map((r) => ({ action: r.action, success: r.success === null ? null : !!r.success }));
            expect(row.totalInteractions).to.equal(mine.length);
            expect(row.successfulVerifications).to.equal(mine.filter(isSuccess).length);
            expect(row.failedVerifications).to.equal(mine.filter(isFailure).length);
        }
        const past = await reports.phones(scope({ startDate: dayKey(now - 40 * DAY, zone), endDate: dayKey(now - 35 * DAY, zone) }), { page: 1, limit: 200 }, dayKey(now, zone));
        const pastRaw = await server.app.db('analytics_events').where('organization_id', a.organization.id).whereNotNull('phone_number')
            .whereBetween('created_at', [dayRange({ startDate: dayKey(now - 40 * DAY, zone), endDate: dayKey(now - 35 * DAY, zone) }, zone, now).from, dayRange({ startDate: dayKey(now - 40 * DAY, zone), endDate: dayKey(now - 35 * DAY, zone) }, zone, now).to])
            .countDistinct({ n: 'phone_number' }).first() as { n: number };
        expect(past.pagination.total).to.equal(Number(pastRaw.n));
    });

    it('rebuilds the same rollups from the raw events, keeping cached customer lookups', async () => {
        const snapshot = async () => ({
            hourly: await server.app.db('analytics_hourly').orderBy(['organization_id', 'hour', 'domain', 'action']),
            daily: await server.app.db('analytics_daily').orderBy(['organization_id', 'day', 'domain', 'action']),
            phoneDaily: await server.app.db('analytics_phone_daily').orderBy(['organization_id', 'day', 'phone_number']),
            phones: await server.app.db('analytics_phones').orderBy(['organization_id', 'phone_number']),
            questions: await server.app.db('analytics_question_daily').orderBy(['organization_id', 'day', 'question_id'])
        });
        const [some] = await server.app.db('analytics_phones').limit(1);
        await server.app.db('analytics_phones').where(some).update({ lookup: '{"found":false}', lookup_at: 1 });
        const before = await snapshot();
        await server.app.db('analytics_daily').where('organization_id', a.organization.id).update({ events: 0 });
        const n = await server.app.services.analytics.rebuild(a.organization.id);
        expect(n).to.equal(1500);
        const after = await snapshot();
        expect(JSON.stringify(after)).to.equal(JSON.stringify(before));
    });

    it('prunes raw events past the retention in batches and keeps the rollups', async () => {
        const before = await reports.summary(scope({ days: 90 }));
        const old = Number((await server.app.db('analytics_events').where('created_at', '<', now - 45 * DAY).count({ n: '*' }).first() as any).n);
        expect(old).to.be.greaterThan(0);
        const deleted = await server.app.services.analytics.prune(45, now);
        expect(deleted).to.equal(old);
        expect(Number((await server.app.db('analytics_events').where('created_at', '<', now - 45 * DAY).count({ n: '*' }).first() as any).n)).to.equal(0);
        expect(await reports.summary(scope({ days: 90 }))).to.deep.equal(before);
    });
});
