/**
 * Root hooks (every mocha run loads this file, .mocharc.json `require`): after each test file (mocha runs root
 * hooks once per file in parallel mode, once per run otherwise), nothing the file opened may still keep the
 * process alive — a server not stopped, a socket, a timer, a child process. Without `--exit`, a leak in a
 * serial run would hang the run; in parallel mode the worker would be killed and hide it. Here it fails the
 * file instead, naming what is left.
 */
import { appendFileSync } from 'fs';

const WAIT_MS = 3000;

function counts(resources: string[]): Map<string, number> {
    const map = new Map<string, number>();
    for (const r of resources) {
        map.set(r, (map.get(r) ?? 0) + 1);
    }
    return map;
}

/** The resources of `now` beyond those of `before` (a multiset difference). */
function beyond(before: string[], now: string[]): string[] {
    const base = counts(before);
    const extra: string[] = [];
    for (const r of now) {
        const left = base.get(r) ?? 0;
        if (left > 0) {
            base.set(r, left - 1);
        }
        else {
            extra.push(r);
        }
    }
    return extra;
}

let baseline: string[] = [];
let started = 0;

/** With TEST_TIMINGS=<file>, each test file's wall time (seconds, tab, file) is appended there (test/run.sh
 *  prints the slowest: where CI's minutes go). */
function recordTime(files: string): void {
    const out = process.env.TEST_TIMINGS;
    if (out && files) {
        appendFileSync(out, `${((Date.now() - started) / 1000).toFixed(1)}\t${files}\n`);
    }
}

export const mochaHooks = {
    beforeAll(): void {
        baseline = process.getActiveResourcesInfo();
        started = Date.now();
    },
    async afterAll(this: Mocha.Context): Promise<void> {
        this.timeout(WAIT_MS + 5000);
        // This hook returns a promise, so mocha runs a timeout timer for it: one Timeout more than the baseline.
        const allowed = [...baseline, 'Timeout'];
        const end = Date.now() + WAIT_MS;
        let extra = beyond(allowed, process.getActiveResourcesInfo());
        while (extra.length && Date.now() < end) {
            await new Promise((resolve) => setImmediate(resolve));
            await new Promise((resolve) => setTimeout(resolve, 20).unref());
            extra = beyond(allowed, process.getActiveResourcesInfo());
        }
        const files = [...new Set((this.test?.parent?.suites ?? []).map((s) => s.file).filter(Boolean))].join(', ');
        recordTime(files);
        if (extra.length) {
            throw new Error(`handles left open after the tests of ${files || 'this run'} (${WAIT_MS} ms after the last hook): ${extra.join(', ')}`);
        }
    }
};
