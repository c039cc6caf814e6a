import * as Fs from 'fs';
import * as Path from 'path';
import { performance } from 'perf_hooks';
import * as Crypto from 'crypto';
import * as Os from 'os';
import { writeSection } from './results';
import { loadConfig } from '../config';
import { createServer, migratorFor } from '../core/server';
import { plugins } from '../plugins';
import { KnowledgeIndex, ABSTAIN_BELOW, AnswerSource } from '../plugins/ai/services/retrieval';
import { intentOf } from '../plugins/ai/services/intents';
import { DEMO_KNOWLEDGE } from '../plugins/ai/demo-data';
import { DEFAULT_QUESTIONS } from '../core/shared/default-questions';

/**
 * The built-in agent's evaluation (issue 13): share of answerable questions answered from the right entry,
 * share of unanswerable ones abstained on, intents recognised, and the answer time at 1,000 knowledge entries.
 * `npm run bench:ai` prints the figures and writes them to bench/RESULTS.md; test/unit/ai-retrieval.test.ts
 * asserts the shares.
 */

export interface EvalSet {
    answerable: Array<{ q: string; expect: string | string[] }>;
    unanswerable: string[];
    intents: Array<{ q: string; intent: string }>;
}

export interface EvalResult {
    answerable: number;
    answeredRight: number;
    unanswerable: number;
    abstained: number;
    intents: number;
    intentsRight: number;
    failures: string[];
}

export function loadEvalSet(): EvalSet {
    const candidates = [Path.join(__dirname, '../../test/fixtures/ai-eval.json'), Path.join(__dirname, '../test/fixtures/ai-eval.json')];
    const file = candidates.find((f) => Fs.existsSync(f));
    if (!file) {
        throw new Error('test/fixtures/ai-eval.json not found');
    }
    return JSON.parse(Fs.readFileSync(file, 'utf8')) as EvalSet;
}

/** The demo store's answer sources, as the agent indexes them (active knowledge entries and questions). */
export function demoSources(): AnswerSource[] {
    return [
        ...DEMO_KNOWLEDGE.map((k, i) => ({ key: `knowledge:${i + 1}`, kind: 'knowledge' as const, id: i + 1, title: k.title, text: k.content, answer: k.content })),
        ...DEFAULT_QUESTIONS.map((q, i) => ({ key: `question:${i + 1}`, kind: 'question' as const, id: i + 1, title: q.question, text: q.answer, answer: q.answer }))
    ];
}

export function evaluate(index: KnowledgeIndex, set: EvalSet, threshold = ABSTAIN_BELOW): EvalResult {
    const result: EvalResult = { answerable: 0, answeredRight: 0, unanswerable: 0, abstained: 0, intents: 0, intentsRight: 0, failures: [] };
    for (const { q, expect } of set.answerable) {
        result.answerable++;
        const r = index.query(q);
        const want = Array.isArray(expect) ? expect : [expect];
        const got = r.confidence >= threshold ? r.hits[0]?.source.title : null;
        if (!intentOf(q) && got && want.includes(got)) {
            result.answeredRight++;
        }
        else {
            result.failures.push(`answerable "${q}": got ${got ?? 'abstain'} (${r.confidence.toFixed(2)}; top ${r.hits[0]?.source.title ?? '-'}), want ${want.join(' | ')}${intentOf(q) ? ` [intent ${intentOf(q)}]` : ''}`);
        }
    }
    for (const q of set.unanswerable) {
        result.unanswerable++;
        const r = index.query(q);
        if (intentOf(q) || r.confidence < threshold) {
            result.abstained++;
        }
        else {
            result.failures.push(`unanswerable "${q}": answered ${r.hits[0]?.source.title} (${r.confidence.toFixed(2)})`);
        }
    }
    for (const { q, intent } of set.intents) {
        result.intents++;
        if (intentOf(q) === intent) {
            result.intentsRight++;
        }
        else {
            result.failures.push(`intent "${q}": got ${intentOf(q)}, want ${intent}`);
        }
    }
    return result;
}

/** The demo sources plus synthetic entries up to `total`: products and policies in a store's words. */
export function paddedSources(total: number): AnswerSource[] {
    const sources = demoSources();
    const products = ['jacket', 'sneaker', 'boot', 'scarf', 'hoodie', 'jean', 'sweater', 'cap', 'sock', 'backpack', 'belt', 'glove', 'sandal', 'dress', 'shirt'];
    const traits = ['waterproof', 'recycled', 'leather', 'wool', 'cotton', 'lightweight', 'insulated', 'slim', 'relaxed', 'organic'];
    const topics = ['care instructions', 'sizing', 'materials', 'warranty', 'availability', 'colors'];
    for (let i = sources.length; i < total; i++) {
        const product = products[i % products.length];
        const trait = traits[Math.floor(i / products.length) % traits.length];
        const topic = topics[Math.floor(i / (products.length * traits.length)) % topics.length];
        const title = `${trait} ${product} ${topic} #${i}`;
        const text = `Our ${trait} ${product} line: ${topic}. Model ${1000 + i} comes in ${3 + i % 5} colors and sizes XS-XXL; machine wash cold, hang dry. Style code ${product.slice(0, 3).toUpperCase()}-${i}.`;
        sources.push({ key: `knowledge:${i + 1}`, kind: 'knowledge', id: i + 1, title, text, answer: text });
    }
    return sources;
}

function percentile(values: number[], p: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)];
}

function pct(part: number, whole: number): string {
    return `${(part / whole * 100).toFixed(1)} %`;
}

/**
 * The whole call at 1,000 entries: POST /api/ai/chat through hapi (widget key, validation, rate limit), the
 * index fingerprint query, the provider and the stored history row, on a fresh embedded SQLite database.
 */
async function endToEnd(questions: string[], sources: AnswerSource[]): Promise<number[]> {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-ai-'));
    const config = loadConfig({
        NODE_ENV: 'production', LOG_LEVEL: 'silent', JWT_SECRET: Crypto.randomBytes(32).toString('hex'), DATA_DIR: dataDir,
        SEED_DEMO_ON_EMPTY: 'false', DATABASE_URL: `sqlite:${Path.join(dataDir, 'bench.sqlite')}`
    });
    const server = await createServer(config, plugins, { logRequests: false });
    try {
        await migratorFor(server).latest();
        await server.initialize();
        const org = await server.app.services.tenants.createOrganization({ name: 'Bench Store', domain: 'localhost', subdomain: 'benchai' });
        const bot = await server.app.services.tenants.createBotInstance({ organizationId: org.id, name: 'bench widget' });
        await server.app.services.questions.addDefaults(org.id);
        const csv = ['title,content', ...sources.filter((x) => x.kind === 'knowledge').map((x) => `"${x.title.replace(/"/g, '""')}","${x.answer.replace(/"/g, '""')}"`)].join('\n');
        await server.app.services.ai.importKnowledge(org.id, 'csv', csv);
        const times: number[] = [];
        for (let round = 0; round < 6; round++) {
            for (const [i, q] of questions.entries()) {
                const t0 = performance.now();
                const res = await server.inject({ method: 'POST', url: '/api/ai/chat', headers: { 'x-widget-key': bot.publicKey }, payload: { sessionId: `bench_${round}_${i}`, message: q }, remoteAddress: `10.0.0.${round + 1}` });
                if (res.statusCode !== 200) {
                    throw new Error(`${res.statusCode} ${res.payload}`);
                }
                if (round > 0) {
                    times.push(performance.now() - t0);
                }
            }
        }
        return times;
    }
    finally {
        await server.stop();
        Fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

async function main(): Promise<void> {
    const set = loadEvalSet();
    const r = evaluate(new KnowledgeIndex(demoSources()), set);
    // Answer time of the built-in provider's retrieval at 1,000 entries: every question of the set, 20 times.
    const sources = paddedSources(1000);
    const buildStart = performance.now();
    const big = new KnowledgeIndex(sources);
    const buildMs = performance.now() - buildStart;
    const questions = [...set.answerable.map((a) => a.q), ...set.unanswerable, ...set.intents.map((i) => i.q)];
    const times: number[] = [];
    for (let round = 0; round < 21; round++) {
        for (const q of questions) {
            const t0 = performance.now();
            big.query(q);
            if (round > 0) {
                times.push(performance.now() - t0);
            }
        }
    }
    const atScale = evaluate(big, set);
    const e2e = await endToEnd(questions, sources);
    const lines = [
        `## AI agent, built-in provider (bench/ai-eval.ts, ${new Date().toISOString().slice(0, 10)})`,
        '',
        `Evaluation set test/fixtures/ai-eval.json over the demo store (${demoSources().length} sources); abstain threshold ${ABSTAIN_BELOW}.`,
        '',
        '| figure | result | goal |',
        '| --- | --- | --- |',
        `| answered from the right entry | ${pct(r.answeredRight, r.answerable)} (${r.answeredRight}/${r.answerable}) | ≥ 85 % |`,
        `| abstained on unanswerable | ${pct(r.abstained, r.unanswerable)} (${r.abstained}/${r.unanswerable}) | ≥ 90 % |`,
        `| tier-2 / human intents recognised | ${pct(r.intentsRight, r.intents)} (${r.intentsRight}/${r.intents}) | |`,
        `| same, with 1,000 entries indexed | ${pct(atScale.answeredRight, atScale.answerable)} right, ${pct(atScale.abstained, atScale.unanswerable)} abstained | |`,
        `| answer time at 1,000 entries | p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms (${times.length} questions) | p95 ≤ 30 ms |`,
        `| POST /api/ai/chat at 1,000 entries (hapi inject, SQLite: auth, fingerprint query, answer, history row) | p50 ${percentile(e2e, 50).toFixed(2)} ms, p95 ${percentile(e2e, 95).toFixed(2)} ms (${e2e.length} calls) | |`,
        `| index build at 1,000 entries | ${buildMs.toFixed(0)} ms (once per change of the store's knowledge) | |`
    ];
    console.log(lines.join('\n'));
    if (r.failures.length) {
        console.log('\nMisses:\n' + r.failures.join('\n'));
    }
    writeSection('ai-eval', lines.join('\n'));
}

if (require.main === module) {
    main().catch((err) => {
        console.error(err);
        process.exit(1);
    });
}
