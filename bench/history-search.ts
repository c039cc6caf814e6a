import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { performance } from 'perf_hooks';
import Knex from 'knex';
import { loadConfig } from '../config';
import { createServer, migratorFor } from '../core/server';
import { signUserToken } from '../core/auth/tokens';
import { plugins } from '../plugins';
import { writeSection } from './results';

/**
 * The History view's reads (GET /api/chat/history, issue 14) over a store with many ended chats: `CHATS` chats
 * (default 20,000) of `MESSAGES` messages each (default 8), on SQLite in a temporary folder, or on PostgreSQL
 * when DATABASE_URL is set (a schema of its own, dropped afterwards). Prints median and p95 per query and writes
 * them to bench/RESULTS.md (section history-search).
 *
 *     npm run build:server && node dist/bench/history-search.js
 *     DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench CHATS=50000 node dist/bench/history-search.js
 */

const CHATS = Number(process.env.CHATS ?? 20_000);
const MESSAGES = Number(process.env.MESSAGES ?? 8);
const RUNS = Number(process.env.RUNS ?? 30);
const WORDS = ['order', 'shipping', 'return', 'points', 'coupon', 'size', 'color', 'refund', 'store', 'hours', 'delivery', 'exchange', 'gift', 'card', 'sale'];

function pct(values: number[], p: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
    const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-history-'));
    const schema = `bench_history_${Crypto.randomBytes(4).toString('hex')}`;
    if (postgres) {
        const admin = Knex({ client: 'pg', connection: process.env.DATABASE_URL });
        await admin.raw(`create schema "${schema}"`);
        await admin.destroy();
    }
    const config = loadConfig({
        NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', JWT_SECRET: Crypto.randomBytes(32).toString('hex'),
        SEED_DEMO_ON_EMPTY: 'false', DATA_DIR: dataDir,
        DATABASE_URL: postgres ? process.env.DATABASE_URL! : `sqlite:${Path.join(dataDir, 'bench.sqlite')}`,
        ...(postgres ? { DATABASE_SCHEMA: schema } : {})
    });
    const server = await createServer(config, plugins);
    await migratorFor(server).latest();
    await server.initialize();
    const lines: string[] = [];
    try {
        const org = await server.app.services.tenants.createOrganization({ name: 'Bench Store', domain: 'bench.test', subdomain: 'benchhistory' });
        const admin = await server.app.services.users.create({ email: 'admin@bench.test', password: 'correct-horse-battery', role: 'admin', organizationId: org.id });
        const token = signUserToken(config.jwtSecret, { id: admin.id, role: 'admin', organizationId: org.id, tokenVersion: 0 });
        const db = server.app.db;

        const seedStarted = performance.now();
        const t0 = Date.now() - CHATS * 60_000;
        for (let start = 0; start < CHATS; start += 400) {
            const batch = Array.from({ length: Math.min(400, CHATS - start) }, (_, j) => {
                const i = start + j;
                const created = t0 + i * 60_000;
                return {
                    organization_id: org.id, session_id: `bench_${i}`, widget_session_id: `bench_${i}`, phone_number: `+1555${String(i).padStart(7, '0')}`,
                    status: 'completed', customer_message: `Question ${i} about ${WORDS[i % WORDS.length]}`, last_seq: MESSAGES, agent_read_seq: MESSAGES,
                    is_starred: i % 50 === 0, is_archived: i % 7 === 0, ended_by: 'agent', end_reason: 'agent_ended',
                    created_at: created, accepted_at: created + 5_000, ended_at: created + 300_000, updated_at: created + 300_000
                };
            });
            await db.transaction(async (trx) => {
                const ids = (await trx('chat_sessions').insert(batch).returning('id')).map((r: { id: number } | number) => (typeof r === 'number' ? r : r.id));
                const messages = ids.flatMap((id: number, j: number) => Array.from({ length: MESSAGES }, (_, k) => ({
                    organization_id: org.id, chat_session_id: id, seq: k + 1, sender: k % 2 ? 'agent' : 'customer', sender_user_id: k % 2 ? admin.id : null,
                    message: `${k % 2 ? 'Agent' : 'Customer'} line ${k} of chat ${start + j}: ${WORDS[(start + j + k) % WORDS.length]} ${WORDS[(start + j * 3 + k) % WORDS.length]}${(start + j) % 997 === 0 && k === 3 ? ' zanzibar' : ''}`,
                    client_message_id: `m${k}`, created_at: batch[j].created_at + k * 1000
                })));
                for (let m = 0; m < messages.length; m += 400) {
                    await trx('chat_messages').insert(messages.slice(m, m + 400));
                }
            });
        }
        const seedSeconds = (performance.now() - seedStarted) / 1000;
        // Fresh statistics, as autovacuum keeps them on a live database (without them the planner nests a loop
        // over every chat for every matching message).
        await db.raw(postgres ? 'analyze chat_sessions, chat_messages' : 'analyze');

        const queries: Array<[string, string]> = [
            ['newest page, no filter', ''],
            ['search a rare word (zanzibar)', 'q=zanzibar'],
            ['search a common word (refund)', 'q=refund'],
            ['phone part', 'phone=0001234'],
            ['starred', 'starred=true'],
            ['last 7 days + search', `from=${new Date(Date.now() - 7 * 86_400_000).toISOString()}&q=refund`],
            ['page 40 of all', 'page=40']
        ];
        const dbName = postgres ? 'PostgreSQL' : 'SQLite';
        lines.push(`History search (GET /api/chat/history, issue 14) on ${dbName}: ${CHATS.toLocaleString('en-US')} ended chats × ${MESSAGES} messages`
            + ` (${(CHATS * MESSAGES).toLocaleString('en-US')} messages; seeded in ${seedSeconds.toFixed(1)} s), ${RUNS} runs each, through server.inject.`, '',
        '| query | total | median ms | p95 ms |', '| --- | ---: | ---: | ---: |');
        for (const [label, query] of queries) {
            const times: number[] = [];
            let total = 0;
            for (let r = 0; r < RUNS; r++) {
                const started = performance.now();
                const res = await server.inject({ method: 'GET', url: `/api/chat/history?archived=include&${query}`, headers: { authorization: `Bearer ${token}` } });
                times.push(performance.now() - started);
                if (res.statusCode !== 200) {
                    throw new Error(`${label}: ${res.statusCode} ${res.payload}`);
                }
                total = (res.result as { total: number }).total;
            }
            lines.push(`| ${label} | ${total.toLocaleString('en-US')} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} |`);
        }
        lines.push('', `Machine: ${Os.cpus().length} cores, Node ${process.version}, load average ${Os.loadavg()[0].toFixed(1)}. The search is full-text (issue 28: `
            + `${postgres ? "chat_messages.search_vector, GIN" : 'the FTS5 table chat_messages_fts'}), each word a prefix; it counts and ranks the newest 200 matching chats `
            + '(the total of a common word is 200, capped); the other indexes are chat_sessions (organization_id, ended_at) and (organization_id, phone_number).');
        process.stdout.write(lines.join('\n') + '\n');
        writeSection(`history-search-${dbName.toLowerCase()}`, `## History search (${dbName})\n\n${lines.join('\n')}`);
    }
    finally {
        await server.stop();
        if (postgres) {
            const adminDb = Knex({ client: 'pg', connection: process.env.DATABASE_URL });
            await adminDb.raw(`drop schema if exists "${schema}" cascade`);
            await adminDb.destroy();
        }
        Fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

main().catch((err) => {
    process.stderr.write(`${String(err.stack ?? err).slice(0, 500)}\n`);
    process.exit(1);
});
