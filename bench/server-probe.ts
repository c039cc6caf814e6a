/**
 * Preloaded into the benchmark's server processes only (`node --require dist/bench/server-probe.js …`), never
 * into the product. On SIGUSR2 it writes the event-loop delay measured since the previous SIGUSR2 to
 * $BENCH_PROBE_DIR/<pid>.json and starts again, so bench/realtime.ts can tell a stall inside a server
 * (its loop blocked: GC, a long task) from one outside it (database, Redis, the load generator). With it go the
 * process's CPU time so far and its realtime fan-out counters so far (core/realtime/socket-server.ts, when this
 * process runs a server), which the bench subtracts between two reads.
 */
import * as Fs from 'fs';
import * as Path from 'path';
import { watchLoopDelay } from './loop-delay';

const dir = process.env.BENCH_PROBE_DIR;
if (dir) {
    const delay = watchLoopDelay();
    process.on('SIGUSR2', () => {
        let fanOut: unknown[] = [];
        try {
            // The same module the server loaded (dist/core/…): nothing is loaded here that the server did not load.
            const path = require.resolve('../core/realtime/socket-server');
            fanOut = require.cache[path] ? require(path).fanOutStatsOfProcess() : [];
        }
        catch { /* not a server process */ }
        const cpu = process.cpuUsage();
        Fs.writeFileSync(Path.join(dir, `${process.pid}.json`), JSON.stringify({ ...delay.read(), cpuMs: (cpu.user + cpu.system) / 1000, fanOut }));
        delay.reset();
    });
}
