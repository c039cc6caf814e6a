import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import puppeteer from 'puppeteer-core';
import { loadConfig } from '../config';
import { createServer, migratorFor } from '../core/server';
import { plugins } from '../plugins';
import { seedDemo } from '../bin/commands/seed';
import { RESULTS_FILE } from './results';

/**
 * Sign-in, click to dashboard (issue 23; budget ≤ 1 s on the project's 2-core machine): a real server (the product's
 * own password hashing, OWASP scrypt, not the tests' cheap one) on SQLite in a temporary folder with the demo store,
 * and Debian's chromium. Each of RUNS sign-ins (default 9) starts in a fresh browser context, as a first visit does:
 * the login page loaded, email and password typed, then the time from the click on Sign In until the dashboard is
 * rendered (its h1 and the Overview figures shown). Prints every time, the median, and what the API calls of the
 * median run took; appends one line to bench/RESULTS.md (section sign-in).
 *
 *     npm run build && npm run bench:signin          (RUNS=15, CHROMIUM_PATH=… to change)
 */

const RUNS = Number(process.env.RUNS ?? 9);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const EMAIL = 'admin@demo.local';
const PASSWORD = 'admin-demo-2024';

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Appends a row to the sign-in section of bench/RESULTS.md (creating the section with its header once). */
function appendResult(row: string): void {
    const start = '<!-- sign-in:start -->';
    const end = '<!-- sign-in:end -->';
    let text = Fs.existsSync(RESULTS_FILE) ? Fs.readFileSync(RESULTS_FILE, 'utf8') : '# Benchmark results\n';
    if (!text.includes(start)) {
        text = `${text.trimEnd()}\n\n${start}\n## Sign-in: click to dashboard (\`npm run bench:signin\`; budget ≤ 1 s)\n\n`
            + '| when (UTC) | commit | runs | median | min | max | login call (median) | load (1 min) |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n'
            + `${end}\n`;
    }
    text = text.replace(end, `${row}\n${end}`);
    Fs.writeFileSync(RESULTS_FILE, text);
}

function commit(): string {
    try {
        const head = Fs.readFileSync(Path.resolve(__dirname, '..', '..', '.git'), 'utf8');
        const dir = head.startsWith('gitdir:') ? head.slice(7).trim() : Path.resolve(__dirname, '..', '..', '.git');
        const ref = Fs.readFileSync(Path.join(dir, 'HEAD'), 'utf8').trim();
        if (!ref.startsWith('ref:')) {
            return ref.slice(0, 7);
        }
        const name = ref.slice(4).trim();
        const common = Fs.existsSync(Path.join(dir, 'commondir')) ? Path.resolve(dir, Fs.readFileSync(Path.join(dir, 'commondir'), 'utf8').trim()) : dir;
        for (const base of [dir, common]) {
            const file = Path.join(base, name);
            if (Fs.existsSync(file)) {
                return Fs.readFileSync(file, 'utf8').trim().slice(0, 7);
            }
        }
        const packed = Fs.readFileSync(Path.join(common, 'packed-refs'), 'utf8').split('\n').find((l) => l.endsWith(` ${name}`));
        return packed ? packed.slice(0, 7) : '?';
    }
    catch {
        return '?';
    }
}

async function main(): Promise<void> {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-signin-'));
    const config = loadConfig({
        NODE_ENV: 'development', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', JWT_SECRET: Crypto.randomBytes(32).toString('hex'),
        SEED_DEMO_ON_EMPTY: 'false', DATA_DIR: dataDir, DATABASE_URL: `sqlite:${Path.join(dataDir, 'bench.sqlite')}`
    });
    const server = await createServer(config, plugins);
    await migratorFor(server).latest();
    await seedDemo(server);
    await server.start();
    const base = `http://127.0.0.1:${server.info.port}`;
    const browser = await puppeteer.launch({
        executablePath: CHROMIUM, headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage']
    });
    const times: number[] = [];
    const calls: Array<Array<{ url: string; ms: number; at: number }>> = [];
    try {
        for (let run = 0; run < RUNS; run++) {
            const context = await browser.createBrowserContext();
            const page = await context.newPage();
            await page.setViewport({ width: 1280, height: 900 });
            await page.goto(`${base}/admin-login`, { waitUntil: 'networkidle0' });
            await page.type('#login-email', EMAIL);
            await page.type('#login-password', PASSWORD);
            const seen: Array<{ url: string; ms: number; at: number }> = [];
            const started = new Map<unknown, number>();
            let clickedAt = 0;
            page.on('request', (r) => started.set(r, Date.now()));
            page.on('requestfinished', (r) => {
                const t0 = started.get(r);
                if (t0 !== undefined && clickedAt) {
                    seen.push({ url: r.url().replace(base, ''), ms: Date.now() - t0, at: t0 - clickedAt });
                }
            });
            await page.evaluate(() => {
                const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent?.trim() === 'Sign In') as HTMLButtonElement;
                (window as unknown as { clickedAt: number }).clickedAt = performance.now();
                button.click();
            });
            clickedAt = Date.now();
            // Rendered: the dashboard's h1 and the Overview's four figures (not the '—' shown while they load).
            const handle = await page.waitForFunction(() => {
                const h1 = document.querySelector('h1');
                const values = Array.from(document.querySelectorAll('.lc-stats .lc-stat-value')).map((e) => e.textContent);
                return h1?.textContent === 'Admin Dashboard' && values.length === 4 && values.every((v) => v && v !== '—')
                    ? performance.now() - (window as unknown as { clickedAt: number }).clickedAt : false;
            }, { polling: 'raf', timeout: 30000 });
            const ms = Math.round(await handle.jsonValue() as number);
            times.push(ms);
            calls.push(seen);
            process.stdout.write(`run ${run + 1}: ${ms} ms\n`);
            await context.close();
        }
    }
    finally {
        await browser.close();
        await server.stop({ timeout: 2000 });
        Fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const med = median(times);
    const medianRun = calls[times.indexOf([...times].sort((a, b) => Math.abs(a - med) - Math.abs(b - med))[0])];
    const login = median(calls.map((c) => c.find((x) => x.url.startsWith('/api/admin/login'))?.ms ?? NaN).filter(Number.isFinite));
    const load = Os.loadavg()[0].toFixed(2);
    process.stdout.write(`\nmedian ${med} ms over ${RUNS} runs (min ${Math.min(...times)}, max ${Math.max(...times)}); login call median ${login} ms; load ${load}\n`);
    process.stdout.write('requests of the median run (start after click, duration):\n');
    for (const c of medianRun.sort((a, b) => a.at - b.at)) {
        process.stdout.write(`  +${String(c.at).padStart(4)} ms  ${String(c.ms).padStart(4)} ms  ${c.url}\n`);
    }
    appendResult(`| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${commit()} | ${RUNS} | **${med} ms** | ${Math.min(...times)} ms | ${Math.max(...times)} ms | ${login} ms | ${load} |`);
}

main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
});
