import MiniSearch from 'minisearch';
import { processTerm, terms, tokenize } from './text';

/** One thing the agent can answer from: a knowledge entry, a pre-made question, or the store's information. */
export interface AnswerSource {
    /** 'knowledge:12', 'question:3', 'store' */
    key: string;
    kind: 'knowledge' | 'question' | 'store';
    /** The knowledge entry's or question's id (0 for the store's information). */
    id: number;
    title: string;
    /** What is searched besides the title. */
    text: string;
    /** What the agent says when this source answers. */
    answer: string;
}

export interface RetrievalHit {
    source: AnswerSource;
    score: number;
    /** Share (0..1) of the question's weight (idf of its content terms) that this source matches. */
    confidence: number;
    /** The question's terms this source matches. */
    matched: string[];
}

export interface RetrievalResult {
    /** Best first, at most `limit`. */
    hits: RetrievalHit[];
    /** The best hit's confidence (0 without any hit). */
    confidence: number;
    /** The question's content terms after stop words, stemming and synonyms. */
    terms: string[];
}

/**
 * Confidence below which the built-in agent abstains and offers a fallback instead of guessing. Tuned on the
 * evaluation set (test/fixtures/ai-eval.json, bench/ai-eval.ts).
 */
export const ABSTAIN_BELOW = 0.4;

/** Terms that say little about which entry answers (they count half in the confidence). */
export const WEAK_TERMS = new Set(['store', 'item', 'point', 'member']);

/**
 * A BM25 index (minisearch) over one organization's answer sources, with a confidence that says how much of
 * the question the best source covers: the idf-weighted share of the question's terms it matches. A question
 * full of words the store never wrote ("Do you sell gift cards?") covers little and is abstained on.
 */
export class KnowledgeIndex {
    private readonly search: MiniSearch<AnswerSource>;
    private readonly df = new Map<string, number>();
    private readonly byKey = new Map<string, AnswerSource>();
    readonly size: number;

    constructor(sources: readonly AnswerSource[]) {
        this.search = new MiniSearch<AnswerSource>({
            idField: 'key',
            fields: ['title', 'text'],
            storeFields: [],
            tokenize: (text) => tokenize(text),
            processTerm: (term) => processTerm(term)
        });
        this.search.addAll(sources as AnswerSource[]);
        for (const source of sources) {
            this.byKey.set(source.key, source);
            for (const term of new Set(terms(`${source.title} ${source.text}`))) {
                this.df.set(term, (this.df.get(term) ?? 0) + 1);
            }
        }
        this.size = sources.length;
    }

    private weight(term: string): number {
        const df = this.df.get(term) ?? 0;
        // A word no source uses weighs the most: the question is about something the store never wrote.
        const idf = Math.log(1 + (this.size + 1) / (df + 0.5));
        return WEAK_TERMS.has(term) ? idf / 2 : idf;
    }

    query(question: string, limit = 3): RetrievalResult {
        const qTerms = terms(question);
        if (!qTerms.length || !this.size) {
            return { hits: [], confidence: 0, terms: qTerms };
        }
        const total = qTerms.reduce((sum, t) => sum + this.weight(t), 0);
        const results = this.search.search(qTerms.join(' '), {
            combineWith: 'OR',
            boost: { title: 2 },
            // Typos of longer words ("retrun", "delievery"); exact terms still score higher.
            fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
            weights: { fuzzy: 0.6, prefix: 0.3 },
            processTerm: (term) => term
        });
        const hits: RetrievalHit[] = [];
        for (const result of results.slice(0, Math.max(limit, 5))) {
            const source = this.byKey.get(String(result.id));
            if (!source) {
                continue;
            }
            const found = new Set(result.queryTerms);
            const matched = qTerms.filter((t) => found.has(t));
            const covered = matched.reduce((sum, t) => sum + this.weight(t), 0);
            hits.push({ source, score: result.score, confidence: total ? covered / total : 0, matched });
        }
        // BM25 orders; among near-equal scores the better covered source wins.
        hits.sort((x, y) => y.score * (0.5 + y.confidence) - x.score * (0.5 + x.confidence));
        const top = hits.slice(0, limit);
        return { hits: top, confidence: top[0]?.confidence ?? 0, terms: qTerms };
    }
}
