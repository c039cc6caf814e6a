import * as Fs from 'fs';
import * as Path from 'path';
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

if (require.main === module) {
    const set = loadEvalSet();
    const r = evaluate(new KnowledgeIndex(demoSources()), set);
    console.log(JSON.stringify({ ...r, failures: undefined }, null, 1));
    console.log(r.failures.join('\n'));
}
