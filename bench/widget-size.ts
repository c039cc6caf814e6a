/**
 * The widget's size budget (DESIGN §10, §11): the script on the merchant page (the loader) ≤ 4 KB gzip;
 * everything the widget loads after opening, React and one language (English, in the panel) included, ≤ 60 KB gzip;
 * each further language's chunk (`lang-<lang>`) ≤ 8 KB gzip, shown also as the total after opening in that language;
 * each feature chunk (`feature-<name>`: fetched when the feature is first used, e.g. the live chat) ≤ 8 KB gzip.
 * Reads the built files in dist/public/widget, prints the figures and writes them into bench/RESULTS.md between the
 * widget-size markers.
 * Run: npm run build && npm run bench:widget
 */
import * as Fs from 'fs';
import * as Path from 'path';
import * as Zlib from 'zlib';
import { kb, RESULTS_FILE, writeSection } from './results';

const ROOT = Path.resolve(__dirname, '..', '..');
const WIDGET_DIR = Path.join(ROOT, 'dist', 'public', 'widget');
export const BUDGET = { loaderKb: 4, afterOpenKb: 60, languageKb: 8, featureKb: 8 };

function gzipSize(file: string): number {
    return Zlib.gzipSync(Fs.readFileSync(file), { level: 9 }).length;
}

export interface WidgetSizes {
    loader: { files: string[]; gzipBytes: number };
    /** In English (the panel carries it). */
    afterOpen: { files: string[]; gzipBytes: number };
    /** Each other language: its chunk, and everything after opening in it (the panel still carries English). */
    languages: Array<{ lang: string; files: string[]; gzipBytes: number; afterOpenGzipBytes: number }>;
    /** Each feature chunk, fetched when that feature is first used (not part of opening). */
    features: Array<{ name: string; files: string[]; gzipBytes: number }>;
}

export function measure(dir = WIDGET_DIR): WidgetSizes {
    const manifestFile = Path.join(dir, 'manifest.json');
    if (!Fs.existsSync(manifestFile)) {
        throw new Error(`${manifestFile} is missing: run npm run build first`);
    }
    const manifest = JSON.parse(Fs.readFileSync(manifestFile, 'utf8')) as Record<string, string[]>;
    const loaderFiles = manifest.loader ?? [];
    const isLanguage = (name: string) => name.startsWith('lang-');
    const isFeature = (name: string) => name.startsWith('feature-');
    const lazyFiles = Object.entries(manifest).filter(([name]) => name !== 'loader' && !isLanguage(name) && !isFeature(name)).flatMap(([, files]) => files);
    const sum = (files: string[]) => files.reduce((total, f) => total + gzipSize(Path.join(dir, f)), 0);
    // What /widget-{subdomain}.js serves: a settings line (as plugins/widget writes it) followed by the loader.
    const settings = {
        key: 'pk_' + 'x'.repeat(24), storeName: 'A Typical Store Name', apiOrigin: 'https://chat.example.com', subdomain: 'typical-store',
        domains: ['typical-store.com', 'shop.typical-store.com'], aiEnabled: true
    };
    const served = `window.__loyaltyChatWidget=${JSON.stringify(settings)};\n` + loaderFiles.map((f) => Fs.readFileSync(Path.join(dir, f), 'utf8')).join('\n');
    const loaderServed = Zlib.gzipSync(Buffer.from(served), { level: 9 }).length;
    const afterOpen = loaderServed + sum(lazyFiles);
    return {
        loader: { files: loaderFiles, gzipBytes: loaderServed },
        afterOpen: { files: [...loaderFiles, ...lazyFiles], gzipBytes: afterOpen },
        languages: Object.entries(manifest).filter(([name]) => isLanguage(name)).map(([name, files]) => ({
            lang: name.slice('lang-'.length), files, gzipBytes: sum(files), afterOpenGzipBytes: afterOpen + sum(files)
        })),
        features: Object.entries(manifest).filter(([name]) => isFeature(name)).map(([name, files]) => ({
            name: name.slice('feature-'.length), files, gzipBytes: sum(files)
        }))
    };
}

export function writeResults(sizes: WidgetSizes): void {
    const ok = (bytes: number, budgetKb: number) => (bytes <= budgetKb * 1024 ? 'within budget' : '**OVER BUDGET**');
    const section = [
        '## Widget size (gzip)',
        '',
        `Measured ${new Date().toISOString()} by \`npm run bench:widget\` from \`dist/public/widget\`.`,
        '',
        '| what | files | gzip | budget | |',
        '| --- | --- | --- | --- | --- |',
        `| script on the merchant page | ${sizes.loader.files.join(', ')} (+ settings line) | ${kb(sizes.loader.gzipBytes)} | ${BUDGET.loaderKb} KB | ${ok(sizes.loader.gzipBytes, BUDGET.loaderKb)} |`,
        `| everything after opening, in English | ${sizes.afterOpen.files.join(', ')} | ${kb(sizes.afterOpen.gzipBytes)} | ${BUDGET.afterOpenKb} KB | ${ok(sizes.afterOpen.gzipBytes, BUDGET.afterOpenKb)} |`,
        ...sizes.languages.flatMap((l) => [
            `| language chunk \`${l.lang}\` | ${l.files.join(', ')} | ${kb(l.gzipBytes)} | ${BUDGET.languageKb} KB | ${ok(l.gzipBytes, BUDGET.languageKb)} |`,
            `| everything after opening, in \`${l.lang}\` | the English row's files + ${l.files.join(', ')} | ${kb(l.afterOpenGzipBytes)} | ${BUDGET.afterOpenKb} KB + ${BUDGET.languageKb} KB (DESIGN §10: a language beyond the first is a chunk of its own) | ${ok(l.afterOpenGzipBytes, BUDGET.afterOpenKb + BUDGET.languageKb)} |`
        ]),
        ...sizes.features.map((f) => `| feature chunk \`${f.name}\` (fetched when first used) | ${f.files.join(', ')} | ${kb(f.gzipBytes)} | ${BUDGET.featureKb} KB | ${ok(f.gzipBytes, BUDGET.featureKb)} |`)
    ].join('\n');
    writeSection('widget-size', section);
}

if (require.main === module) {
    const sizes = measure();
    process.stdout.write(`widget script on the merchant page: ${kb(sizes.loader.gzipBytes)} gzip (${sizes.loader.gzipBytes} B) (budget ${BUDGET.loaderKb} KB)\n`);
    process.stdout.write(`widget after opening (English):     ${kb(sizes.afterOpen.gzipBytes)} gzip (${sizes.afterOpen.gzipBytes} B) (budget ${BUDGET.afterOpenKb} KB)\n`);
    for (const l of sizes.languages) {
        process.stdout.write(`language chunk ${l.lang.padEnd(20)}${kb(l.gzipBytes)} gzip (budget ${BUDGET.languageKb} KB); after opening in ${l.lang}: ${kb(l.afterOpenGzipBytes)}\n`);
    }
    for (const f of sizes.features) {
        process.stdout.write(`feature chunk ${f.name.padEnd(21)}${kb(f.gzipBytes)} gzip (budget ${BUDGET.featureKb} KB), fetched when first used\n`);
    }
    writeResults(sizes);
    process.stdout.write(`written to ${Path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE}\n`);
    if (sizes.loader.gzipBytes > BUDGET.loaderKb * 1024 || sizes.afterOpen.gzipBytes > BUDGET.afterOpenKb * 1024
        || sizes.languages.some((l) => l.gzipBytes > BUDGET.languageKb * 1024) || sizes.features.some((f) => f.gzipBytes > BUDGET.featureKb * 1024)) {
        process.exitCode = 1;
    }
}
