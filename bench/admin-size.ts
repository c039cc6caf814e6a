import * as Fs from 'fs';
import * as Path from 'path';
import * as Zlib from 'zlib';
import { kb, writeSection } from './results';

/**
 * The admin app's initial JavaScript (the scripts index.html loads, before any lazy route chunk), gzip -9,
 * against the DESIGN §8 budget of 250 KB. Run after `npm run build`: `npm run bench:admin`.
 */
const BUDGET = 250 * 1024;
const dir = Path.resolve(__dirname, '..', 'public', 'admin');
const html = Fs.readFileSync(Path.join(dir, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script[^>]+src="?([^" >]+)"?/g)].map((m) => m[1]);
if (!scripts.length) {
    throw new Error('No scripts in dist/public/admin/index.html: run npm run build');
}
let raw = 0;
let gzip = 0;
for (const src of scripts) {
    const body = Fs.readFileSync(Path.join(dir, src.replace(/^\//, '')));
    raw += body.length;
    gzip += Zlib.gzipSync(body, { level: 9 }).length;
}
const lazy = Fs.readdirSync(Path.join(dir, 'assets')).filter((f) => f.endsWith('.js') && !scripts.some((s) => s.endsWith(f)));
const ok = gzip <= BUDGET;
const line = `admin initial JS: ${kb(gzip)} gzip (${kb(raw)} raw, ${scripts.length} script(s)); budget ${kb(BUDGET)}: ${ok ? 'within' : 'OVER'}; ${lazy.length} lazy chunks`;
console.log(line);
writeSection('admin-size', `## Admin app size (${new Date().toISOString().slice(0, 10)})\n\n${line}`);
process.exitCode = ok ? 0 : 1;
