/**
 * Analytics benchmark (DESIGN §9, issue 12): one organization with 1,000,000 events over 90 days (and four other
 * organizations with as many) on PostgreSQL; each dashboard read for 30 days, from the rollups, p50/p95 over
 * repeated server.inject calls, beside the same figures computed from the raw events; and ingest through the
 * job queue (Bull on Redis when REDIS_URL is set) with the rollups. Writes bench/RESULTS.md between
 * <!-- analytics:start --> and <!-- analytics:end -->.
 *
 *   npm run build:server && DATABASE_URL=postgres://… REDIS_URL=redis://… npm run bench:analytics -- --events 1000000 --others 4
 *
 * Without DATABASE_URL it runs on a temporary SQLite file (figures for a laptop, not the budget). The data goes
 * into a fresh PostgreSQL schema that is dropped afterwards. Bounded: at most 2,000,000 events per organization.
 */
import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { loadConfig } from '../config';
import { createServer, migratorFor } from '../core/server';
import { deleteKeysWithPrefix } from '../core/db/redis-keys';
import { signUserToken } from '../core/auth/tokens';
import { plugins } from '../plugins';
import { generateEvents, seeded } from '../plugins/analytics/lib/generate';
import { AnalyticsService } from '../plugins/analytics/services/analytics-service';
import { writeSection } from './results';
import { benchDatabase } from './database';

interface Options { events: number; others: number; runs: number; ingest: number; write: boolean }

function parseArgs(argv: string[]): Options {
    const get = (name: string, fallback: number) => {
        const i = argv.indexOf(`--${name}`);
        const n = i >= 0 ? Number(argv[i + 1]) : fallback;
        if (!Number.isSafeInteger(n) || n < 0) {
            throw new Error(`--${name} must be a whole number`);
        }
        return n;
    };
    return {
        events: Math.min(get('events', 1_000_000), 2_000_000),
        others: Math.min(get('others', 4), 8),
        runs: Math.min(Math.max(get('runs', 40), 5), 500),
        ingest: Math.min(get('ingest', 40_000), 500_000),
        write: !argv.includes('--no-write')
    };
}

function percentile(sorted: number[], p: number): number {
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
    for (let i = 0; i < 3; i++) {
        await fn();
    }
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
        const t = process.hrtime.bigint();
        await fn();
        samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    samples.sort((a, b) => a - b);
    return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function main(): Promise<void> {
    const o = parseArgs(process.argv.slice(2));
    const id = Crypto.randomBytes(3).toString('hex');
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-analytics-'));
    const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: 'test', JWT_SECRET: Crypto.randomBytes(32).toString('base64'), REDIS_PREFIX: `bench${id}` };
    const database = await benchDatabase(`bench_analytics_${id}`, dataDir);
    Object.assign(env, database.env);
    const { pgUrl, drop: dropSchema } = database;
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    const server = await createServer(config, plugins, { logRequests: false });
    const db = server.app.db;
    try {
        await migratorFor(server).latest();
        await server.initialize();
        const analytics = server.app.services.analytics;
        const tenants = server.app.services.tenants;
        const orgs: Array<{ id: number; domain: string }> = [];
        for (let i = 0; i <= o.others; i++) {
            orgs.push(await tenants.createOrganization({ name: `Bench Store ${i}`, domain: `store${i}.bench.test`, subdomain: `bench${id}s${i}` }));
        }
        const org = orgs[0];
        await server.app.services.questions.addDefaults(org.id);
        const admin = await server.app.services.users.create({ email: `admin@bench${id}.test`, password: 'bench-password-123', role: 'admin', organizationId: org.id });
        const token = signUserToken(config.jwtSecret, { id: admin.id, role: 'admin', organizationId: org.id, tokenVersion: 0 });

        // ---- data: the measured organization first, then the others ----
        const loadStarted = Date.now();
        let last = 0;
        // The store's members (with orders), so the generated points and order views are theirs (issue 23).
        await server.app.services.loyalty.seedDemoCustomers(org.id, Array.from({ length: 200 }, (_, i) => ({
            phone: `+1212555${String(1000 + i).padStart(4, '0')}`, name: `Member ${i}`, email: `member${i}@bench.test`, loyaltyId: `B-${i}`,
            points: (i * 37) % 3000, orders: Array.from({ length: 1 + (i % 3) }, (_o, k) => ({ productName: `Product ${k}`, quantity: 1, price: 9.99, daysAgo: k * 7 }))
        })));
        await generateEvents(analytics, {
            organizationId: org.id, events: o.events, days: 90, seed: 11, members: await server.app.services.loyalty.listMembers(org.id),
            domains: [org.domain, `www.${org.domain}`, `shop.${org.domain}`, `m.${org.domain}`],
            onProgress: (n) => {
                if (n - last >= 100_000) {
                    last = n;
                    process.stderr.write(`  ${n} events\n`);
                }
            }
        });
        // The other organizations hold as many: copies of the measured one's events and rollups (a copy is much
        // faster than generating them again, and their rows sit in the same tables and indexes).
        const eventColumns = 'bot_instance_id, session_id, action, phone_number, success, error_message, points_retrieved, question_id, domain, created_at, phone_valid';
        const copies: Array<[string, string]> = [
            ['analytics_events', eventColumns],
            ['analytics_hourly', 'hour, domain, action, events, successes, failures'],
            ['analytics_daily', 'day, domain, action, events, successes, failures'],
            ['analytics_phone_daily', 'day, phone_number, events, successes, failures, last_points, last_points_at, last_activity'],
            ['analytics_phones', 'phone_number, first_seen, last_activity, lookup, lookup_at'],
            ['analytics_question_daily', 'day, question_id, events']
        ];
        for (const other of orgs.slice(1)) {
            for (const [table, columns] of copies) {
                await db.raw(`insert into ${table} (organization_id, ${columns}) select ?, ${columns} from ${table} where organization_id = ?`, [other.id, org.id]);
            }
            process.stderr.write(`  copied into organization ${other.id}\n`);
        }
        const loadSeconds = (Date.now() - loadStarted) / 1000;
        const totalEvents = Number((await db('analytics_events').count({ n: '*' }).first() as { n: number }).n);
        if (pgUrl) {
            await db.raw('analyze');
        }

        // ---- reads: 30 days from the rollups (server.inject: routing, auth, validation, query, JSON) ----
        const get = (url: string) => async () => {
            const res = await server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
            if (res.statusCode !== 200) {
                throw new Error(`${url}: ${res.statusCode} ${res.payload.slice(0, 200)}`);
            }
        };
        const endpoints: Array<[string, string]> = [
            ['summary', '/api/analytics/summary?days=30'],
            ['hourly', '/api/analytics/hourly?days=30'],
            ['daily', '/api/analytics/daily-interactions?days=30'],
            ['domains', '/api/analytics/domains?days=30'],
            ['questions', '/api/analytics/questions?days=30'],
            ['phones page 1', '/api/analytics/phones?days=30&page=1&limit=20']
        ];
        const extra: Array<[string, string]> = [
            ['baseline: an authenticated call with no query of its own (GET /api/admin/verify)', '/api/admin/verify'],
            ['phones page 1, a past range', `/api/analytics/phones?startDate=${new Date(Date.now() - 60 * 86400000).toISOString().slice(0, 10)}&endDate=${new Date(Date.now() - 31 * 86400000).toISOString().slice(0, 10)}&page=1&limit=20`],
            ['timeline', '/api/analytics/timeline?days=30'],
            ['failed verifications page 1', '/api/analytics/failed-verifications?days=30&page=1&limit=100'],
            ['order history page 1', '/api/analytics/order-history?days=30&page=1&limit=20'],
            ['org totals (/api/org/analytics)', '']
        ];
        const scope = { from: Date.now() - 30 * 86400000, to: Date.now() };
        const orgId = org.id;
        const raw = db('analytics_events').where('organization_id', orgId).whereBetween('created_at', [scope.from, scope.to]);
        const rawQueries: Record<string, () => Promise<unknown>> = {
            'summary': () => raw.clone().groupBy('action', 'success', 'domain').select('action', 'success', 'domain').count({ n: '*' }),
            'hourly': () => raw.clone().select(db.raw(pgUrl ? "extract(hour from to_timestamp(created_at / 1000.0) at time zone 'America/New_York') as h" : "strftime('%H', created_at / 1000, 'unixepoch') as h"), 'action').count({ n: '*' }).groupBy('h', 'action'),
            'daily': () => raw.clone().select(db.raw(pgUrl ? "to_char(to_timestamp(created_at / 1000.0) at time zone 'America/New_York', 'YYYY-MM-DD') as d" : "date(created_at / 1000, 'unixepoch') as d"), 'action').count({ n: '*' }).groupBy('d', 'action'),
            'domains': () => raw.clone().whereNotNull('domain').groupBy('domain', 'action').select('domain', 'action').count({ n: '*' }),
            'questions': () => raw.clone().where('action', 'question_clicked').groupBy('question_id').select('question_id').count({ n: '*' }),
            'phones page 1': async () => {
                await raw.clone().whereNotNull('phone_number').countDistinct({ n: 'phone_number' });
                return raw.clone().whereNotNull('phone_number').groupBy('phone_number').select('phone_number').count({ n: '*' }).max({ last: 'created_at' })
                    .orderBy('last', 'desc').limit(20);
            }
        };
        const rows: string[] = [];
        const results: Record<string, { p50: number; p95: number }> = {};
        for (const [name, url] of endpoints) {
            const rollup = await time(o.runs, get(url));
            const rawTime = await time(Math.max(5, Math.round(o.runs / 8)), rawQueries[name]);
            results[name] = rollup;
            rows.push(`| ${name} | \`${url}\` | ${rollup.p50.toFixed(1)} | **${rollup.p95.toFixed(1)}** | ${rollup.p95 <= 50 ? 'within' : '**OVER**'} | ${rawTime.p50.toFixed(1)} / ${rawTime.p95.toFixed(1)} |`);
            process.stderr.write(`  ${name}: p50 ${rollup.p50.toFixed(1)} ms, p95 ${rollup.p95.toFixed(1)} ms (raw p95 ${rawTime.p95.toFixed(1)} ms)\n`);
        }
        const orgUser = await server.app.services.users.create({ email: `org@bench${id}.test`, password: 'bench-password-123', role: 'org_user', organizationId: org.id });
        const orgToken = signUserToken(config.jwtSecret, { id: orgUser.id, role: 'org_user', organizationId: org.id, tokenVersion: 0 });
        const extraRows: string[] = [];
        for (const [name, url] of extra) {
            const fn = url ? get(url) : async () => {
                const res = await server.inject({ method: 'GET', url: '/api/org/analytics?days=30', headers: { authorization: `Bearer ${orgToken}` } });
                if (res.statusCode !== 200) {
                    throw new Error(res.payload);
                }
            };
            const r = await time(Math.max(5, Math.round(o.runs / 4)), fn);
            extraRows.push(`| ${name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`);
            process.stderr.write(`  ${name}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms\n`);
        }

        // ---- ingest through the queue: track() as the route calls it, until every event is stored ----
        const before = Number((await db('analytics_events').count({ n: '*' }).first() as { n: number }).n);
        const rnd = seeded(99);
        const actions = ['widget_loaded', 'widget_opened', 'question_clicked', 'verification_sent', 'points_retrieved', 'live_chat_requested'];
        const ingestStarted = Date.now();
        for (let i = 0; i < o.ingest; i += 500) {
            await Promise.all(Array.from({ length: Math.min(500, o.ingest - i) }, () => analytics.track({
                organizationId: orgs[Math.floor(rnd() * orgs.length)].id, action: actions[Math.floor(rnd() * actions.length)],
                sessionId: `widget_${Date.now()}_${Math.floor(rnd() * 1e6)}`, domain: org.domain,
                phoneNumber: rnd() < 0.3 ? `+1212555${String(Math.floor(rnd() * 10000)).padStart(4, '0')}` : null,
                success: true, pointsRetrieved: null, questionId: null
            })));
        }
        const queued = Date.now();
        for (;;) {
            const n = Number((await db('analytics_events').count({ n: '*' }).first() as { n: number }).n);
            if (n - before >= o.ingest) {
                break;
            }
            await new Promise((r) => setTimeout(r, 50));
        }
        const ingestSeconds = (Date.now() - ingestStarted) / 1000;
        const ingestRate = o.ingest / ingestSeconds;
        process.stderr.write(`  ingest: ${o.ingest} events in ${ingestSeconds.toFixed(1)} s = ${Math.round(ingestRate)} events/s (queued in ${((queued - ingestStarted) / 1000).toFixed(1)} s)\n`);

        const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
        const md = `## Analytics reads and ingest (${when} UTC)

By \`npm run bench:analytics\` (bench/analytics.ts) on ${pgUrl ? 'PostgreSQL' : 'SQLite'}${process.env.REDIS_URL ? ' + Redis (Bull)' : ' (in-process jobs)'}: ${o.events.toLocaleString('en-US')} events over 90 days
for the measured organization, written through the ingest path with their rollups by \`analytics generate\`'s generator,
and ${o.others} other organizations holding copies of them (${totalEvents.toLocaleString('en-US')} events in all; loaded in ${loadSeconds.toFixed(0)} s). Each read: ${o.runs} calls through \`server.inject\`
(routing, auth, validation, query, JSON) after 3 warm-up calls, 30 days. The raw column runs the same figures as one
GROUP BY over analytics_events (what the rollups replace). Machine: ${Os.cpus().length} cores, load average ${Os.loadavg()[0].toFixed(1)}.

| read (30 days) | call | p50 ms | p95 ms | budget 50 ms | raw events p50 / p95 ms |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Other reads (rollups or indexed raw rows; no budget):

| read | p50 ms | p95 ms |
| --- | --- | --- |
${extraRows.join('\n')}

Ingest through the job queue, rollups included: ${o.ingest.toLocaleString('en-US')} events tracked as the route does (bursts of 500
concurrent calls, spread over the ${orgs.length} organizations), all stored after
${ingestSeconds.toFixed(1)} s: **${Math.round(ingestRate).toLocaleString('en-US')} events/s** (budget ≥ 2,000: ${ingestRate >= 2000 ? 'within' : '**OVER**'}).`;
        process.stdout.write(md + '\n');
        if (o.write) {
            writeSection('analytics', md);
        }
        void results;
        void AnalyticsService;
    }
    finally {
        await server.stop();
        await dropSchema();
        if (process.env.REDIS_URL) {
            await deleteKeysWithPrefix(process.env.REDIS_URL, `bench${id}`).catch(() => 0);
        }
        Fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

main().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
});
