/**
 * Realtime benchmark (DESIGN §8): concurrent WebSocket connections held, and p99 customer→agent delivery
 * at a given message rate, on one node and across two nodes (two server processes sharing PostgreSQL and
 * Redis). Writes its figures to bench/RESULTS.md between <!-- realtime:start --> and <!-- realtime:end -->.
 *
 *   npm run build:server && npm run bench:realtime -- --connections 2000 --rate 200 --duration 10
 *
 * Uses DATABASE_URL (PostgreSQL) and REDIS_URL when set; otherwise one node on a temporary SQLite file
 * (the two-node run needs both and is skipped without them). Bounded: at most 12,000 connections,
 * 1,000 msg/s and 60 s of sending per run.
 *
 * The fan-out workload (issue 24): `--nodes N` with N from 1 to 4 runs N servers and `--stores S` stores (default 8),
 * each store's agent on its own node and its customers on the next one (all on the one node when N is 1), and
 * reports per node its CPU, the pub/sub messages it received and what its publishes did (see PubSubStats), beside
 * delivery p50/p99 and what was not delivered. Written to the section realtime-nodes:
 *
 *   npm run bench:realtime -- --nodes 4 --stores 8 --connections 10000 --rate 1000 --duration 20
 */
import * as ChildProcess from 'child_process';
import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Net from 'net';
import * as Os from 'os';
import * as Path from 'path';
import { RESULTS_FILE, writeSection } from './results';
import { watchLoopDelay } from './loop-delay';
import { benchDatabase } from './database';
import { loadConfig } from '../config';
import { createServer, migratorFor } from '../core/server';
import { deleteKeysWithPrefix } from '../core/db/redis-keys';
import { signUserToken } from '../core/auth/tokens';
import { signCustomerToken } from '../core/auth/customer-token';
import { plugins } from '../plugins';

const Nes = require('@hapi/nes/lib/client');
Nes.Client.WebSocket = require('ws');

const ROOT = Path.resolve(__dirname, '..', '..');
const BIN = Path.join(ROOT, 'bin', 'loyalty-chat');
const RESULTS = RESULTS_FILE;
const LIMITS = { connections: 12000, rate: 1000, duration: 60 };

interface Options { connections: number; rate: number; duration: number; nodes: 'one' | 'two' | 'both'; nodeCount: number | null; stores: number; write: boolean; append: boolean; trace: string | null; warmup: number }

function parseArgs(argv: string[]): Options {
    const get = (name: string, fallback: string) => {
        const i = argv.indexOf(`--${name}`);
        return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
    };
    const num = (name: string, fallback: number, max: number) => {
        const value = Number(get(name, String(fallback)));
        if (!Number.isInteger(value) || value < 1 || value > max) {
            throw new Error(`--${name} must be a whole number from 1 to ${max}`);
        }
        return value;
    };
    const nodes = get('nodes', 'both');
    if (!['one', 'two', 'both', '1', '2', '3', '4'].includes(nodes)) {
        throw new Error('--nodes must be one, two or both (one agent), or 1 to 4 (the fan-out workload)');
    }
    const nodeCount = /^[1-4]$/.test(nodes) ? Number(nodes) : null;
    return {
        connections: num('connections', 2000, LIMITS.connections),
        rate: num('rate', 200, LIMITS.rate),
        duration: num('duration', 10, LIMITS.duration),
        warmup: argv.includes('--warmup') && get('warmup', '') === '0' ? 0 : num('warmup', 3, LIMITS.duration),
        nodes: (nodeCount ? 'one' : nodes) as Options['nodes'],
        nodeCount,
        stores: num('stores', 8, 64),
        write: !argv.includes('--no-write'),
        append: argv.includes('--append'),
        // --trace FILE: one line per delivered message, "ms since sending began,latency ms", to see when slow ones happen
        trace: argv.includes('--trace') ? get('trace', '') || null : null
    };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const srv = Net.createServer();
        srv.listen(0, '127.0.0.1', () => {
            const port = (srv.address() as Net.AddressInfo).port;
            srv.close(() => resolve(port));
        });
        srv.on('error', reject);
    });
}

interface Node { url: string; child: ChildProcess.ChildProcess; probeDir: string }

/** A process and its descendants (`serve` restarts itself with a V8 flag, see bin/loyalty-chat). */
function processTree(pid: number | undefined): number[] {
    if (!pid) {
        return [];
    }
    try {
        const children = Fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
        return [pid, ...children.flatMap(processTree)];
    }
    catch {
        return [pid];
    }
}

/**
 * The event-loop delay of a server since the last call (bench/server-probe.ts, preloaded into every process of
 * the node): the slowest of its processes, which is the server itself (the parent only waits).
 */
interface ProbeFigures { p99: number; max: number; cpuMs: number; received: number; published: number; timedOut: number; notSent: number; resyncs: number; inFlightMax: number; slowestMs: number }

async function serverLoopDelay(node: Node): Promise<ProbeFigures> {
    const pids = processTree(node.child.pid);
    for (const file of Fs.readdirSync(node.probeDir)) {
        Fs.rmSync(Path.join(node.probeDir, file));
    }
    for (const pid of pids) {
        try {
            process.kill(pid, 'SIGUSR2');
        }
        catch { /* gone */ }
    }
    const until = Date.now() + 2000;
    while (Fs.readdirSync(node.probeDir).length < pids.length && Date.now() < until) {
        await sleep(20);
    }
    const figures = Fs.readdirSync(node.probeDir).map((f) => JSON.parse(Fs.readFileSync(Path.join(node.probeDir, f), 'utf8')) as {
        p99: number; max: number; cpuMs?: number;
        fanOut?: Array<{ received: number; pubsub: { published: number; timedOut: number; notSent: number; resyncs: number; inFlightMax: number; slowestMs: number } }>;
    });
    const fanOut = figures.flatMap((f) => f.fanOut ?? []);
    const sum = (pick: (x: typeof fanOut[number]) => number) => fanOut.reduce((a, x) => a + pick(x), 0);
    return figures.length
        ? {
            p99: Math.max(...figures.map((f) => f.p99)), max: Math.max(...figures.map((f) => f.max)),
            cpuMs: figures.reduce((a, f) => a + (f.cpuMs ?? 0), 0),
            received: sum((x) => x.received), published: sum((x) => x.pubsub.published), timedOut: sum((x) => x.pubsub.timedOut),
            notSent: sum((x) => x.pubsub.notSent), resyncs: sum((x) => x.pubsub.resyncs),
            inFlightMax: Math.max(0, ...fanOut.map((x) => x.pubsub.inFlightMax)), slowestMs: Math.max(0, ...fanOut.map((x) => x.pubsub.slowestMs))
        }
        : { p99: NaN, max: NaN, cpuMs: NaN, received: NaN, published: NaN, timedOut: NaN, notSent: NaN, resyncs: NaN, inFlightMax: NaN, slowestMs: NaN };
}

async function startNode(env: Record<string, string>): Promise<Node> {
    const port = await freePort();
    // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the servers
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const probeDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-probe-'));
    const args = [...nodeArgs, '--require', Path.join(__dirname, 'server-probe.js'), BIN, 'serve', '--port', String(port), '--host', '127.0.0.1'];
    // e.g. BENCH_SERVER_CPUS=0 (with `taskset -c 1 npm run bench:realtime …`) keeps the servers and the load generator apart
    const pin = process.env.BENCH_SERVER_CPUS;
    const child = ChildProcess.spawn(pin ? 'taskset' : process.execPath, pin ? ['-c', pin, process.execPath, ...args] : args, {
        env: {
            PATH: process.env.PATH ?? '', ...env, NODE_ID: `bench-${port}`, BENCH_PROBE_DIR: probeDir,
            // e.g. PGOPTIONS="-c synchronous_commit=off" to see how much of the latency is the disk's fsync
            ...(process.env.PGOPTIONS ? { PGOPTIONS: process.env.PGOPTIONS } : {})
        },
        // BENCH_NODE_STDOUT=1 shows the servers' stdout (e.g. with BENCH_NODE_ARGS=--trace-gc)
        stdio: ['ignore', process.env.BENCH_NODE_STDOUT ? 'inherit' : 'ignore', 'inherit']
    });
    const url = `http://127.0.0.1:${port}`;
    const until = Date.now() + 30000;
    for (;;) {
        try {
            const res = await fetch(`${url}/health`);
            if (res.ok) {
                return { url, child, probeDir };
            }
        }
        catch { /* not up yet */ }
        if (Date.now() > until || child.exitCode !== null) {
            child.kill('SIGKILL');
            throw new Error('server did not start');
        }
        await sleep(200);
    }
}

async function stopNode(node: Node): Promise<void> {
    await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
            node.child.kill('SIGKILL');
            resolve();
        }, 10000);
        node.child.once('exit', () => {
            clearTimeout(timer);
            resolve();
        });
        node.child.kill('SIGINT');
    });
    Fs.rmSync(node.probeDir, { recursive: true, force: true });
}

function percentile(sorted: number[], p: number): number {
    if (!sorted.length) {
        return NaN;
    }
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface RunResult {
    label: string;
    nodes: number;
    database: string;
    requested: number;
    held: number;
    connectSeconds: number;
    rate: number;
    achievedRate: number;
    sent: number;
    delivered: number;
    p50: number;
    p95: number;
    p99: number;
    max: number;
    /** A bare INSERT … COMMIT on its own connection every 20 ms during the run: the database's (and disk's) own floor. */
    commitP99: number;
    commitMax: number;
    serverRssMb: number[];
    loadAvg: string;
    /** The load generator's own event-loop delay during the counted run: its share of every latency above. */
    generatorLagP99: number;
    generatorLagMax: number;
    /** Each server's own event-loop delay during the counted run (bench/server-probe.ts): the part spent blocked inside it. */
    serverLag: Array<{ p99: number; max: number }>;
    /** Each server's publishes during the counted run: answered late by Redis (slow) / never sent (lost) / resyncs told. */
    pubsub: Array<{ timedOut: number; notSent: number; resyncs: number; slowestMs: number }>;
    /** CPU time the hypervisor took from this VM during the counted run (steal), in % of all CPU time. */
    stealPercent: number;
}

/** Aggregate CPU ticks from /proc/stat: all of them, and those stolen by the hypervisor. */
function cpuTicks(): { total: number; steal: number } {
    try {
        const fields = Fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
        return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
    }
    catch {
        return { total: NaN, steal: NaN };
    }
}

/** Prepares a database (migrated, one tenant with an admin and `count` accepted chats) and returns the env for servers. */
interface Store { orgId: number; adminToken: string; sessions: Array<{ id: string; token: string }> }

async function prepare(count: number, storeCount = 1): Promise<{ env: Record<string, string>; orgId: number; adminToken: string; sessions: Array<{ id: string; token: string }>; stores: Store[]; cleanup(): Promise<void>; database: string; pgUrl: string | null }> {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-'));
    const id = Crypto.randomBytes(4).toString('hex');
    const env: Record<string, string> = {
        NODE_ENV: 'production', LOG_LEVEL: 'warn', JWT_SECRET: Crypto.randomBytes(32).toString('hex'), DATA_DIR: dataDir,
        SEED_DEMO_ON_EMPTY: 'false', REDIS_PREFIX: `lcbench${id}`,
        // Every customer socket of the load generator comes from 127.0.0.1: the per-address cap must hold them all.
        WS_MAX_CONNECTIONS_PER_IP: String(count + 100)
    };
    const database = await benchDatabase(`bench_${id}`, dataDir);
    Object.assign(env, database.env);
    const { pgUrl, drop: dropSchema } = database;
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    const server = await createServer(config, plugins, { logRequests: false });
    await migratorFor(server).latest();
    const tenants = server.app.services.tenants;
    const stores: Store[] = [];
    const t = Date.now();
    for (let s = 0; s < storeCount; s++) {
        const tag = s ? `${id}s${s}` : id;
        const org = await tenants.createOrganization({ name: `Bench Store ${s + 1}`, domain: `bench${s || ''}.test`, subdomain: `bench${tag}` });
        const bot = await tenants.createBotInstance({ organizationId: org.id, name: 'bench widget' });
        const admin = await server.app.services.users.create({ email: `agent@bench${tag}.test`, password: 'bench-password-123', role: 'admin', organizationId: org.id });
        const adminToken = signUserToken(config.jwtSecret, { id: admin.id, role: 'admin', organizationId: org.id, tokenVersion: 0 });
        const sessions: Array<{ id: string; token: string }> = [];
        const rows = [];
        // The chats are spread over the stores: store s holds chats s, s + S, s + 2S…
        for (let i = s; i < count; i += storeCount) {
            const sid = `bench_${i}`;
            sessions.push({ id: sid, token: signCustomerToken(config.jwtSecret, { organizationId: org.id, sessionId: sid }) });
            rows.push({
                organization_id: org.id, bot_instance_id: bot.id, session_id: sid, phone_number: 'Unknown', status: 'agent_connected',
                agent_user_id: admin.id, last_seq: 0, is_starred: false, is_archived: false, created_at: t, accepted_at: t, updated_at: t
            });
        }
        await server.app.db.batchInsert('chat_sessions', rows, 200);
        stores.push({ orgId: org.id, adminToken, sessions });
    }
    await server.stop();
    return {
        env, orgId: stores[0].orgId, adminToken: stores[0].adminToken, sessions: stores[0].sessions, stores, database: pgUrl ? 'PostgreSQL' : 'SQLite', pgUrl,
        async cleanup() {
            await dropSchema();
            if (process.env.REDIS_URL) {
                await deleteKeysWithPrefix(process.env.REDIS_URL, `lcbench${id}`);
            }
            Fs.rmSync(dataDir, { recursive: true, force: true });
        }
    };
}

/** Times a one-row INSERT (autocommit, so one WAL flush) every 20 ms on its own connection until stopped. */
async function startCommitProbe(url: string, schema: string): Promise<{ stop(): Promise<{ p99: number; max: number }> }> {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url });
    await client.connect();
    await client.query(`create table "${schema}".bench_commit_probe (id serial primary key, at bigint not null)`);
    const times: number[] = [];
    let running = true;
    const loop = (async () => {
        while (running) {
            const t0 = performance.now();
            await client.query(`insert into "${schema}".bench_commit_probe (at) values ($1)`, [Date.now()]);
            times.push(performance.now() - t0);
            await sleep(20);
        }
    })();
    return {
        async stop() {
            running = false;
            await loop;
            await client.end();
            const sorted = times.sort((x, y) => x - y);
            return { p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
        }
    };
}

/** Resident memory of a server: the process and its children (`serve` restarts itself with a V8 flag, see bin/loyalty-chat). */
function rssOf(pid: number | undefined): number {
    const mb = processTree(pid).map((p) => {
        try {
            return Math.round(Number(/VmRSS:\s+(\d+)/.exec(Fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024);
        }
        catch {
            return NaN;
        }
    });
    // The server itself gone: no figure; a child gone meanwhile counts 0.
    return mb.length && !Number.isNaN(mb[0]) ? mb.reduce((sum, m) => sum + (m || 0), 0) : NaN;
}

/**
 * Sends customer messages at `rate` per second, round-robin over `clients` (the next call goes on where the last
 * stopped), ids from `id`; with `record`, each id's send time goes into `sentAt` (the delivery side takes it out).
 * Resolves with the number sent once `seconds` worth have gone.
 */
function pacedSender(clients: Array<{ client: any; session: string }>, rate: number, sentAt: Map<string, number>) {
    let next = 0;
    return (seconds: number, id: (n: number) => string, record: boolean) => new Promise<number>((resolve) => {
        const total = rate * seconds;
        const start = performance.now();
        let count = 0;
        const timer = setInterval(() => {
            const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
            while (count < due && clients.length) {
                const c = clients[next % clients.length];
                next += 1;
                const clientMessageId = id(count);
                if (record) {
                    sentAt.set(clientMessageId, performance.now());
                }
                count += 1;
                c.client.request({ method: 'POST', path: `/api/chat/session/${c.session}/messages`, payload: { message: `bench message ${clientMessageId}`, clientMessageId } })
                    .catch(() => {});
            }
            if (count >= total) {
                clearInterval(timer);
                resolve(count);
            }
        }, 10);
    });
}

async function run(options: Options, twoNodes: boolean): Promise<RunResult> {
    // PGOPTIONS="-c synchronous_commit=off" takes the disk's fsync out of every commit: a diagnostic, not the product.
    const async = /synchronous_commit\s*=\s*off/.test(process.env.PGOPTIONS ?? '') ? ', synchronous_commit off (diagnostic)' : '';
    const label = (twoNodes ? 'two nodes (customers on B, agent on A)' : 'one node') + async;
    process.stderr.write(`\n[realtime] ${label}: preparing ${options.connections} chats…\n`);
    const prep = await prepare(options.connections);
    const nodeA = await startNode(prep.env);
    const nodeB = twoNodes ? await startNode(prep.env) : nodeA;
    const clients: any[] = [];
    try {
        const sentAt = new Map<string, number>();
        const latencies: number[] = [];
        const trace: string[] = [];
        let sendStart = 0;
        const agent = new Nes.Client(nodeA.url.replace('http', 'ws') + '/ws');
        agent.onError = () => {};
        await agent.connect({ auth: { headers: { authorization: `Bearer ${prep.adminToken}` } }, reconnect: false });
        await agent.subscribe(`/agents/${prep.orgId}`, (m: any) => {
            if (m.type === 'chat_message' && m.sender === 'customer') {
                const t0 = sentAt.get(m.clientMessageId);
                if (t0 !== undefined) {
                    latencies.push(performance.now() - t0);
                    if (options.trace) {
                        trace.push(`${Math.round(t0 - sendStart)},${(performance.now() - t0).toFixed(1)}`);
                    }
                    sentAt.delete(m.clientMessageId);
                }
            }
        });

        // Connect the customers, 200 at a time.
        const started = performance.now();
        const wsUrl = nodeB.url.replace('http', 'ws') + '/ws';
        let failed = 0;
        for (let i = 0; i < prep.sessions.length; i += 200) {
            await Promise.all(prep.sessions.slice(i, i + 200).map(async (s) => {
                const client = new Nes.Client(wsUrl);
                client.onError = () => {};
                try {
                    await client.connect({ auth: { headers: { authorization: `Bearer ${s.token}` } }, reconnect: false, timeout: 20000 });
                    await client.subscribe(`/chat/sessions/${s.id}`, () => {});
                    clients.push({ client, session: s.id });
                }
                catch {
                    failed += 1;
                }
            }));
        }
        const connectSeconds = (performance.now() - started) / 1000;
        process.stderr.write(`[realtime] connected ${clients.length}/${prep.sessions.length} in ${connectSeconds.toFixed(1)} s (${failed} failed)\n`);

        // Send at the given rate, round-robin over the customers: first a warm-up (not counted: JIT, pools,
        // the garbage of 10,000 connects), then the measured run.
        const sendFor = pacedSender(clients, options.rate, sentAt);
        if (options.warmup) {
            await sendFor(options.warmup, (n) => `w${n}`, false);
            await sleep(500);
        }
        const probe = prep.pgUrl ? await startCommitProbe(prep.pgUrl, prep.env.DATABASE_SCHEMA) : null;
        const nodes = twoNodes ? [nodeA, nodeB] : [nodeA];
        const before = await Promise.all(nodes.map(serverLoopDelay)); // starts each server's count here
        const lag = watchLoopDelay();
        const ticksBefore = cpuTicks();
        sendStart = performance.now();
        const sent = await sendFor(options.duration, (n) => `b${n}`, true);
        const sendSeconds = (performance.now() - sendStart) / 1000;
        const drainUntil = Date.now() + 5000;
        while (sentAt.size && Date.now() < drainUntil) {
            await sleep(50);
        }
        lag.stop();
        const generatorLag = lag.read();
        const ticksAfter = cpuTicks();
        const serverLag = await Promise.all(nodes.map(serverLoopDelay));
        const commits = probe ? await probe.stop() : null;
        const held = clients.filter((c) => c.client._ws && c.client._ws.readyState === 1).length;
        const sorted = latencies.slice().sort((x, y) => x - y);
        const round = (v: number) => Math.round(v * 10) / 10;
        const result: RunResult = {
            label, nodes: twoNodes ? 2 : 1, database: prep.database, requested: options.connections, held, connectSeconds: round(connectSeconds),
            rate: options.rate, achievedRate: Math.round(sent / sendSeconds), sent, delivered: latencies.length,
            p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? NaN),
            commitP99: commits ? round(commits.p99) : NaN, commitMax: commits ? round(commits.max) : NaN,
            serverRssMb: twoNodes ? [rssOf(nodeA.child.pid), rssOf(nodeB.child.pid)] : [rssOf(nodeA.child.pid)],
            loadAvg: Os.loadavg()[0].toFixed(1),
            generatorLagP99: round(generatorLag.p99), generatorLagMax: round(generatorLag.max),
            serverLag: serverLag.map((l) => ({ p99: round(l.p99), max: round(l.max) })),
            pubsub: serverLag.map((l, i) => ({ timedOut: l.timedOut - before[i].timedOut, notSent: l.notSent - before[i].notSent, resyncs: l.resyncs - before[i].resyncs, slowestMs: l.slowestMs })),
            stealPercent: round(((ticksAfter.steal - ticksBefore.steal) / (ticksAfter.total - ticksBefore.total)) * 100)
        };
        process.stderr.write(`[realtime] ${JSON.stringify(result)}\n`);
        if (options.trace) {
            Fs.writeFileSync(`${options.trace}.${twoNodes ? 'two' : 'one'}.csv`, trace.join('\n') + '\n');
        }
        await agent.disconnect();
        return result;
    }
    finally {
        await Promise.all(clients.map((c) => c.client.disconnect().catch(() => {})));
        await stopNode(nodeA);
        if (nodeB !== nodeA) {
            await stopNode(nodeB);
        }
        await prep.cleanup();
    }
}

function writeResults(results: RunResult[], options: Options, notes: string[]): void {
    const cpu = Os.cpus();
    const re = /<!-- realtime:start -->[\s\S]*?<!-- realtime:end -->/;
    const previous = Fs.existsSync(RESULTS) ? Fs.readFileSync(RESULTS, 'utf8') : '';
    // --append keeps the rows (and notes) of earlier runs, e.g. a 2,000- and a 10,000-connection run.
    const kept = options.append ? (re.exec(previous)?.[0] ?? '').split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| run ') && !l.startsWith('| ---')) : [];
    const keptNotes = options.append ? (re.exec(previous)?.[0] ?? '').split('\n').filter((l) => l.startsWith('- ')) : [];
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const lines = [
        '<!-- realtime:start -->',
        '## Realtime (bench/realtime.ts)',
        '',
        `On ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, Node ${process.version}, with the load generator (all customer and agent sockets) on the same`
            + ' machine, whose cores are shared with other work: the load average column says how busy it was.',
        'Command: `npm run build:server && npm run bench:realtime -- --connections N --rate R --duration S [--warmup S] [--nodes one|two|both] [--append]`.',
        'Each customer is a real nes client (authenticated, subscribed to its session); one agent socket receives every message.',
        'Delivery = customer `request` sent → agent push received (stored in the database first, then published), counted after a'
            + ' warm-up at the same rate (default 3 s).',
        'DB commit = a one-row INSERT on its own connection every 20 ms during the counted run: what the database and its disk'
            + ' (one fsync per commit) take before any of our code runs.',
        'Generator lag = the load generator\'s own event-loop delay (p99 / max) during the counted run: the part of a delivery time'
            + ' spent waiting in the process that holds all the client sockets, not in the servers. CPU steal = the share of CPU time'
            + ' the hypervisor gave to other guests during the counted run. Server lag = each server process\'s own event-loop delay (p99 / max)'
            + ' during the counted run (bench/server-probe.ts): time a message waited while that server was busy (GC, other work).'
            + ' A run with high generator lag or steal measured the machine, not the product.'
            + ' Pub/sub slow / lost / resyncs = per server during the counted run, its publishes Redis answered after 500 ms (delivered'
            + ' on that node at once, on the others when Redis answered), those that never reached Redis (the other nodes missed them),'
            + ' and the resyncs its sockets were told to do; slowest = the slowest publish Redis answered since the server started.',
        'Budgets (DESIGN §8): 10,000 connections on one 2-core process; p99 ≤ 50 ms at 500 msg/s on one node, ≤ 100 ms across two.',
        '',
        '| run | when (UTC) | database | connections held / asked | connect time | rate asked → sent | delivered / sent | p50 | p95 | p99 | max | DB commit p99 / max | server lag p99 / max | generator lag p99 / max | CPU steal | server RSS | load avg | pub/sub slow / lost / resyncs (slowest) |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        ...kept,
        ...results.map((r) => `| ${r.label} | ${stamp} | ${r.database} | ${r.held} / ${r.requested} | ${r.connectSeconds} s | ${r.rate} → ${r.achievedRate} msg/s | ${r.delivered} / ${r.sent} | ${r.p50} ms | ${r.p95} ms | ${r.p99} ms | ${r.max} ms | ${Number.isNaN(r.commitP99) ? '—' : `${r.commitP99} / ${r.commitMax} ms`} | ${r.serverLag.map((l) => `${l.p99} / ${l.max} ms`).join(' + ')} | ${r.generatorLagP99} / ${r.generatorLagMax} ms | ${r.stealPercent} % | ${r.serverRssMb.map((m) => `${m} MB`).join(' + ')} | ${r.loadAvg} | ${(r.pubsub ?? []).map((p) => `${p.timedOut} / ${p.notSent} / ${p.resyncs} (${p.slowestMs} ms)`).join(' + ')} |`),
        ...([...new Set([...keptNotes, ...notes.map((n) => `- ${n}`)])].length ? ['', ...new Set([...keptNotes, ...notes.map((n) => `- ${n}`)])] : []),
        '<!-- realtime:end -->'
    ];
    writeSection('realtime', lines.slice(1, -1).join('\n'));
}

interface FanOutResult {
    nodes: number;
    stores: number;
    database: string;
    held: number;
    requested: number;
    rate: number;
    achievedRate: number;
    sent: number;
    delivered: number;
    p50: number;
    p99: number;
    max: number;
    loadAvg: string;
    perNode: Array<{ cpuPercent: number; received: number; published: number; timedOut: number; notSent: number; resyncs: number; lagP99: number }>;
    /** What each node would have received with one broadcast channel (before issue 24): every publish of the cluster. */
    broadcastPerNode: number;
}

/**
 * The fan-out workload: N servers, S stores; store s's agent on node s mod N, its customers on node (s + 1) mod N.
 * Every customer message is stored, then pushed to its store's agents and to its session (two publishes).
 */
async function runFanOut(options: Options, n: number): Promise<FanOutResult> {
    process.stderr.write(`\n[realtime] fan-out: ${n} node(s), ${options.stores} stores: preparing ${options.connections} chats…\n`);
    const prep = await prepare(options.connections, options.stores);
    const nodes: Node[] = [];
    const clients: Array<{ client: any; session: string }> = [];
    const agents: any[] = [];
    try {
        for (let i = 0; i < n; i++) {
            nodes.push(await startNode(prep.env));
        }
        const ws = (node: Node) => node.url.replace('http', 'ws') + '/ws';
        const sentAt = new Map<string, number>();
        const latencies: number[] = [];
        for (const [s, store] of prep.stores.entries()) {
            const agent = new Nes.Client(ws(nodes[s % n]));
            agent.onError = () => {};
            await agent.connect({ auth: { headers: { authorization: `Bearer ${store.adminToken}` } }, reconnect: false });
            await agent.subscribe(`/agents/${store.orgId}`, (m: any) => {
                if (m.type === 'chat_message' && m.sender === 'customer') {
                    const t0 = sentAt.get(m.clientMessageId);
                    if (t0 !== undefined) {
                        latencies.push(performance.now() - t0);
                        sentAt.delete(m.clientMessageId);
                    }
                }
            });
            agents.push(agent);
        }
        const all = prep.stores.flatMap((store, s) => store.sessions.map((session) => ({ session, url: ws(nodes[(s + (n > 1 ? 1 : 0)) % n]) })));
        for (let i = 0; i < all.length; i += 200) {
            await Promise.all(all.slice(i, i + 200).map(async ({ session, url }) => {
                const client = new Nes.Client(url);
                client.onError = () => {};
                try {
                    await client.connect({ auth: { headers: { authorization: `Bearer ${session.token}` } }, reconnect: false, timeout: 20000 });
                    await client.subscribe(`/chat/sessions/${session.id}`, () => {});
                    clients.push({ client, session: session.id });
                }
                catch { /* counted by held */ }
            }));
        }
        // Interleave the stores (round-robin over the customers of every store in turn).
        clients.sort((a, b) => Number(a.session.slice(6)) - Number(b.session.slice(6)));
        process.stderr.write(`[realtime] connected ${clients.length}/${all.length}\n`);
        const sendFor = pacedSender(clients, options.rate, sentAt);
        if (options.warmup) {
            await sendFor(options.warmup, (n) => `w${n}`, false);
            await sleep(500);
        }
        const before = await Promise.all(nodes.map(serverLoopDelay));
        const t0 = performance.now();
        const sent = await sendFor(options.duration, (n) => `b${n}`, true);
        const sendSeconds = (performance.now() - t0) / 1000;
        const drainUntil = Date.now() + 5000;
        while (sentAt.size && Date.now() < drainUntil) {
            await sleep(50);
        }
        const wall = performance.now() - t0;
        const after = await Promise.all(nodes.map(serverLoopDelay));
        const sorted = latencies.slice().sort((x, y) => x - y);
        const round = (v: number) => Math.round(v * 10) / 10;
        const perNode = after.map((a, i) => ({
            cpuPercent: Math.round(((a.cpuMs - before[i].cpuMs) / wall) * 100),
            received: a.received - before[i].received,
            published: a.published - before[i].published,
            timedOut: a.timedOut - before[i].timedOut,
            notSent: a.notSent - before[i].notSent,
            resyncs: a.resyncs - before[i].resyncs,
            lagP99: round(a.p99)
        }));
        const result: FanOutResult = {
            nodes: n, stores: options.stores, database: prep.database, requested: options.connections,
            held: clients.filter((c) => c.client._ws && c.client._ws.readyState === 1).length,
            rate: options.rate, achievedRate: Math.round(sent / sendSeconds), sent, delivered: latencies.length,
            p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? NaN),
            loadAvg: Os.loadavg()[0].toFixed(1), perNode,
            broadcastPerNode: perNode.reduce((a, x) => a + x.published, 0)
        };
        process.stderr.write(`[realtime] ${JSON.stringify(result)}\n`);
        return result;
    }
    finally {
        await Promise.all([...clients.map((c) => c.client), ...agents].map((c) => c.disconnect().catch(() => {})));
        await Promise.all(nodes.map(stopNode));
        await prep.cleanup();
    }
}

function writeFanOutResults(results: FanOutResult[], append: boolean): void {
    const re = /<!-- realtime-nodes:start -->[\s\S]*?<!-- realtime-nodes:end -->/;
    const previous = Fs.existsSync(RESULTS) ? Fs.readFileSync(RESULTS, 'utf8') : '';
    const kept = append ? (re.exec(previous)?.[0] ?? '').split('\n').filter((l) => /^\| \d/.test(l)) : [];
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const cpu = Os.cpus();
    writeSection('realtime-nodes', [
        '## Realtime across nodes: the fan-out workload (bench/realtime.ts --nodes N)',
        '',
        `On ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, Node ${process.version}; the servers, the load generator, PostgreSQL and Redis share these cores`
            + ' (the load average column says how busy the machine was).',
        'Command: `npm run build:server && npm run bench:realtime -- --nodes N --stores S --connections C --rate R --duration D [--append]`.',
        'S stores; store s\'s agent on node s mod N, its customers on node (s + 1) mod N. Each customer message is stored, then published'
            + ' twice (to its store\'s agents and to its session). Received = pub/sub messages a node received during the counted run;'
            + ' broadcast = what each node received with the one broadcast channel before issue 24 (every publish of the cluster).'
            + ' Budget (DESIGN §11): at 4 nodes each node receives ≤ 1/2 of broadcast; nothing undelivered.',
        'Per node: CPU % of one core / received / slow publishes / lost publishes / resyncs.',
        '',
        '| nodes | stores | when (UTC) | database | connections held / asked | rate asked → sent | delivered / sent | p50 | p99 | max | per node | received per node ÷ broadcast | load avg |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        ...kept,
        ...results.map((r) => `| ${r.nodes} | ${r.stores} | ${stamp} | ${r.database} | ${r.held} / ${r.requested} | ${r.rate} → ${r.achievedRate} msg/s | ${r.delivered} / ${r.sent} | ${r.p50} ms | ${r.p99} ms | ${r.max} ms | `
            + `${r.perNode.map((p) => `${p.cpuPercent} % / ${p.received} / ${p.timedOut} / ${p.notSent} / ${p.resyncs}`).join(' · ')} | `
            + `${r.perNode.map((p) => r.broadcastPerNode ? (p.received / r.broadcastPerNode).toFixed(2) : '—').join(' · ')} | ${r.loadAvg} |`)
    ].join('\n'));
}

async function main(): Promise<void> {
    const options = parseArgs(process.argv.slice(2));
    const canTwo = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') && !!process.env.REDIS_URL;
    if (options.nodeCount) {
        if (options.nodeCount > 1 && !canTwo) {
            throw new Error('--nodes 2 to 4 need DATABASE_URL=postgres://… and REDIS_URL');
        }
        const result = await runFanOut(options, options.nodeCount);
        if (options.write) {
            writeFanOutResults([result], options.append);
            process.stderr.write(`[realtime] wrote ${Path.relative(process.cwd(), RESULTS)}\n`);
        }
        return;
    }
    const results: RunResult[] = [];
    const notes: string[] = [];
    if (options.nodes !== 'two') {
        results.push(await run(options, false));
    }
    if (options.nodes !== 'one') {
        if (canTwo) {
            results.push(await run(options, true));
        }
        else {
            notes.push('Two-node run skipped: it needs DATABASE_URL=postgres://… and REDIS_URL.');
        }
    }
    for (const n of notes) {
        process.stderr.write(`[realtime] ${n}\n`);
    }
    if (options.write) {
        writeResults(results, options, notes);
        process.stderr.write(`[realtime] wrote ${Path.relative(process.cwd(), RESULTS)}\n`);
    }
}

main().then(() => process.exit(0), (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
});
