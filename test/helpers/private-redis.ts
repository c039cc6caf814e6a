import { ChildProcess, spawn } from 'child_process';
import * as Net from 'net';
import { sleep } from './wait';

/**
 * A redis-server of one test file's own, on a free port, that the test can kill, restart on the same port,
 * or freeze (SIGSTOP: the port stays open and nothing answers, like a hung server). No persistence: a
 * restarted server is empty, like a Redis that lost its memory.
 */
export interface PrivateRedis {
    readonly port: number;
    readonly url: string;
    /** SIGKILL, and wait until the port refuses connections. */
    kill(): Promise<void>;
    /** Starts redis-server again on the same port and waits until it answers PING. */
    restart(): Promise<void>;
    /** SIGSTOP: connections stay open, nothing is answered. */
    pause(): void;
    /** SIGCONT after pause(). */
    resume(): void;
    /** Running and answering again whatever the test did (resumed or restarted): for `after`, so servers can stop. */
    ensureUp(): Promise<void>;
    /** Kills the server whatever its state; safe to call twice (for `after`). */
    stop(): Promise<void>;
}

async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const srv = Net.createServer();
        srv.unref();
        srv.on('error', reject);
        srv.listen(0, '127.0.0.1', () => {
            const { port } = srv.address() as Net.AddressInfo;
            srv.close(() => resolve(port));
        });
    });
}

/** True when a PING on a fresh connection answers +PONG within ms. */
function pings(port: number, ms = 300): Promise<boolean> {
    return new Promise((resolve) => {
        const socket = Net.connect(port, '127.0.0.1');
        let data = '';
        const done = (ok: boolean) => {
            clearTimeout(timer);
            socket.destroy();
            resolve(ok);
        };
        const timer = setTimeout(() => done(false), ms);
        socket.on('connect', () => socket.write('PING\r\n'));
        socket.on('data', (chunk) => {
            data += chunk.toString();
            if (data.includes('+PONG')) {
                done(true);
            }
        });
        socket.on('error', () => done(false));
    });
}

const running = new Set<ChildProcess>();
process.on('exit', () => running.forEach((child) => child.kill('SIGKILL')));

export async function startPrivateRedis(): Promise<PrivateRedis> {
    const port = await freePort();
    let child: ChildProcess | null = null;
    let paused = false;

    async function launch(): Promise<void> {
        const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
        child = proc;
        running.add(proc);
        proc.on('exit', () => running.delete(proc));
        const until = Date.now() + 5000;
        while (!(await pings(port))) {
            if (Date.now() > until || proc.exitCode !== null) {
                throw new Error(`redis-server did not start on port ${port}`);
            }
            await sleep(30);
        }
    }

    async function kill(): Promise<void> {
        const proc = child;
        child = null;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) {
            return;
        }
        const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
        proc.kill('SIGKILL');
        await exited;
    }

    await launch();
    return {
        port,
        url: `redis://127.0.0.1:${port}`,
        kill,
        restart: launch,
        pause() {
            paused = true;
            child?.kill('SIGSTOP');
        },
        resume() {
            paused = false;
            child?.kill('SIGCONT');
        },
        async ensureUp() {
            if (paused) {
                paused = false;
                child?.kill('SIGCONT');
            }
            if (!child || child.exitCode !== null || child.signalCode !== null) {
                await launch();
            }
        },
        stop: kill
    };
}
