/**
 * Preloaded into the benchmark's server processes only (`node --require dist/bench/server-probe.js …`), never
 * into the product. On SIGUSR2 it writes the event-loop delay measured since the previous SIGUSR2 to
 * $BENCH_PROBE_DIR/<pid>.json and starts again, so bench/realtime.ts can tell a stall inside a server
 * (its loop blocked: GC, a long task) from one outside it (database, Redis, the load generator).
 */
import * as Fs from 'fs';
import * as Path from 'path';
import { watchLoopDelay } from './loop-delay';

const dir = process.env.BENCH_PROBE_DIR;
if (dir) {
    const delay = watchLoopDelay();
    process.on('SIGUSR2', () => {
        Fs.writeFileSync(Path.join(dir, `${process.pid}.json`), JSON.stringify(delay.read()));
        delay.reset();
    });
}
