/**
 * Preloaded into the benchmark's server processes only (`node --require dist/bench/server-probe.js …`), never
 * into the product. On SIGUSR2 it writes the event-loop delay measured since the previous SIGUSR2 to
 * $BENCH_PROBE_DIR/<pid>.json and starts again, so bench/realtime.ts can tell a stall inside a server
 * (its loop blocked: GC, a long task) from one outside it (database, Redis, the load generator).
 */
import * as Fs from 'fs';
import * as Path from 'path';
import { monitorEventLoopDelay } from 'perf_hooks';

const RESOLUTION_MS = 10;
const dir = process.env.BENCH_PROBE_DIR;
if (dir) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    process.on('SIGUSR2', () => {
        // The histogram counts from the timer's due time plus its interval: an idle loop reads ~10 ms.
        const ms = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
        const figures = { p99: ms(histogram.percentile(99)), max: ms(histogram.max), count: histogram.count };
        Fs.writeFileSync(Path.join(dir, `${process.pid}.json`), JSON.stringify(figures));
        histogram.reset();
    });
}
