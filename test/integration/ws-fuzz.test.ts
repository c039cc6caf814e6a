import { expect } from 'chai';
import * as ChildProcess from 'child_process';
import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { BIN, runCli } from '../helpers/cli';
import { hello, openRaw, RawSocket } from '../helpers/raw-socket';
import { sleep } from '../helpers/wait';

/** A small seeded PRNG (mulberry32), so a failing run can be replayed with FUZZ_SEED. */
function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** Random JSON-ish values and nes-shaped frames with wrong types in every field. */
function fuzzer(random: () => number) {
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const weird = (): unknown => pick<() => unknown>([
        () => null, () => undefined, () => true, () => 0, () => -1, () => 1e308, () => 2 ** 31, () => NaN,
        () => '', () => 'x'.repeat(Math.floor(random() * 300)), () => 'a\u0000b', () => '/', () => '/api/super-admin/users',
        () => '__proto__', () => 'constructor', () => [], () => [null], () => [[]], () => ({}), () => ({ headers: null }),
        () => ({ headers: { authorization: 'Bearer x' } }), () => ({ __proto__: { admin: true } }), () => 'nes.auth',
        () => '/nes/auth', () => 'hello', () => 'request', () => ({ type: 'end_chat', sessionId: 'x' }), () => '%00'
    ])();
    const types = ['hello', 'reauth', 'request', 'message', 'sub', 'unsub', 'ping', 'pub', 'update', 'revoke', 'nope', '', null, 1, {}];
    const fields = ['id', 'type', 'version', 'auth', 'subs', 'method', 'path', 'payload', 'headers', 'message', 'sessionId', 'available'];
    return function frame(): string {
        const shape = random();
        if (shape < 0.08) {
            return pick(['null', 'true', '1', '"x"', '[]', '[null]', '{', '}', '', ' ', 'undefined', '\u0000', '{"type":', '+{"a":1}', '!{}']);
        }
        if (shape < 0.15) {
            return Crypto.randomBytes(Math.floor(random() * 64)).toString('latin1');
        }
        const out: Record<string, unknown> = { type: pick(types), id: pick<unknown>([1, 2, 'x', 0, null, {}, [], random() * 1e9]) };
        for (const key of fields) {
            if (random() < 0.4) {
                out[key] = weird();
            }
        }
        if (out.type === 'message' && random() < 0.6) {
            out.message = { type: pick(['end_chat', 'chat_message', 'agent_accept_chat', 'agent_availability', 'typing', 'ping', 'customer_connect', 'x']), sessionId: weird(), message: weird(), available: weird() };
        }
        if (out.type === 'request' && random() < 0.6) {
            out.method = pick(['GET', 'POST', 'PATCH', 'DELETE', 'AUTH', '*', 7]);
            out.path = pick(['/api/super-admin/users', '/api/chat/waiting', '/health', '/nes/auth', 'livechat.session.list', 'nope', '', '/api/chat/session/x/messages']);
        }
        if (out.type === 'hello' && random() < 0.5) {
            out.version = '2';
        }
        return JSON.stringify(out);
    };
}

/**
 * The real server process (bin/loyalty-chat serve) gets thousands of random and malformed frames on raw
 * sockets, before and after hello, as a customer and as an agent: no frame may stop it (DESIGN §6).
 */
describe('a server process under random and malformed socket frames', function () {
    this.timeout(240000);
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1e9);
    const framesPerPhase = Number(process.env.FUZZ_FRAMES ?? 2000);
    let dataDir: string;
    let server: ChildProcess.ChildProcess;
    let url = '';
    let log = '';
    let env: Record<string, string>;
    let adminToken = '';
    let customerToken = '';

    before(async () => {
        dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-fuzz-'));
        env = {
            NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: `sqlite:${Path.join(dataDir, 'fuzz.sqlite')}`,
            JWT_SECRET: Crypto.randomBytes(32).toString('hex'), SEED_DEMO_ON_EMPTY: 'false', LOG_LEVEL: 'warn',
            HOST: '127.0.0.1', PORT: '0', WS_MAX_FRAMES_PER_SECOND: '10000', WS_MAX_CONNECTIONS_PER_IP: '1000',
            // Run the server in this very process (no re-spawn for the semi-space flag): its pid is the server's.
            NODE_OPTIONS: '--max-semi-space-size=16'
        };
        for (const args of [
            ['org', 'create', '--name', 'Fuzz Store', '--domain', 'fuzz.test', '--subdomain', 'fuzz'],
            ['bot', 'create', '--org', 'fuzz', '--name', 'Fuzz widget'],
            ['user', 'create', '--email', 'agent@fuzz.test', '--password', 'fuzz-password-1', '--role', 'admin', '--org', 'fuzz']
        ]) {
            const run = await runCli(args, env);
            expect(run.code, run.stderr).to.equal(0);
        }
        server = ChildProcess.spawn(process.execPath, [BIN, 'serve'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        server.stdout!.on('data', (d) => (log += d));
        server.stderr!.on('data', (d) => (log += d));
        const end = Date.now() + 30000;
        while (!/running on (http:\/\/\S+)/.test(log)) {
            if (Date.now() > end || server.exitCode !== null) {
                throw new Error(`server did not start: ${log}`);
            }
            await sleep(100);
        }
        url = /running on (http:\/\/\S+)/.exec(log)![1].replace('localhost', '127.0.0.1');
        const login = await fetch(`${url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'agent@fuzz.test', password: 'fuzz-password-1' }) });
        adminToken = (await login.json() as { token: string }).token;
        const script = await (await fetch(`${url}/widget-fuzz.js`)).text();
        const key = /"key":"([^"]+)"/.exec(script)![1];
        const created = await fetch(`${url}/api/chat/create-session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-widget-key': key }, body: JSON.stringify({ sessionId: 'fuzz_chat', customerMessage: 'hi' }) });
        customerToken = (await created.json() as { token: string }).token;
    });
    after(async () => {
        if (server && server.exitCode === null) {
            const exited = new Promise((r) => server.once('exit', r));
            server.kill('SIGTERM');
            await exited;
        }
        Fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const wsUrl = () => url.replace(/^http/, 'ws') + '/ws';

    async function alive(): Promise<void> {
        expect(server.exitCode, `the server exited:\n${log}`).to.equal(null);
        process.kill(server.pid!, 0);
        const health = await fetch(`${url}/health`);
        expect(health.status).to.equal(200);
    }

    /** Sends frames on fresh or helloed sockets, opening a new one whenever the server closed the last. */
    async function blast(count: number, start: (raw: RawSocket) => Promise<void>): Promise<number> {
        const frame = fuzzer(prng(seed + count));
        let sent = 0;
        let raw = await openRaw(wsUrl());
        await start(raw);
        while (sent < count) {
            if (raw.isClosed()) {
                raw = await openRaw(wsUrl());
                await start(raw);
            }
            raw.sendText(frame());
            sent += 1;
            if (sent % 50 === 0) {
                await sleep(5);
            }
        }
        raw.ws.close();
        return sent;
    }

    it(`survives the two reproductions: a null frame before hello, and end_chat after a hello without auth (seed ${seed})`, async () => {
        const first = await openRaw(wsUrl());
        first.sendText('null');
        await sleep(200);       // a frame that could crash the server: give it the time to, then see it alive
        await alive();
        const second = await openRaw(wsUrl());
        await second.call({ type: 'hello', version: '2' });
        second.send({ type: 'message', id: 2, message: { type: 'end_chat', sessionId: 'x' } });
        await sleep(300);       // as above; and no answer may come that says it was handled
        await alive();
        expect(second.frames.some((f) => f.id === 2 && f.type === 'message' && !f.statusCode), 'the message was answered as if authenticated').to.equal(false);
    });

    it(`stays up and healthy after ${framesPerPhase} random frames before hello, and as many as a customer and as an agent`, async () => {
        const before = await blast(framesPerPhase, async () => undefined);
        await alive();
        const asCustomer = await blast(framesPerPhase, async (raw) => {
            await raw.call(hello(customerToken)).catch(() => undefined);
        });
        await alive();
        const asAgent = await blast(framesPerPhase, async (raw) => {
            await raw.call(hello(adminToken)).catch(() => undefined);
        });
        await alive();
        expect(before + asCustomer + asAgent).to.equal(3 * framesPerPhase);
        // The server still works for a well-behaved client.
        const agent = await openRaw(wsUrl());
        const answer = await agent.call(hello(adminToken));
        expect(answer.type).to.equal('hello');
        const waiting = await agent.call({ type: 'request', method: 'GET', path: '/api/chat/waiting' });
        expect(waiting.statusCode).to.equal(200);
        agent.ws.close();
    });
});
