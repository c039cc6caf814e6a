import MiniSearch from 'minisearch';
import { processTerm, tokenize } from './text';
import { detectLanguage, foreignTerms, RetrievalLanguage, words as anyWords } from './language';
import { cosine, englishVectors, WordVectors } from './vectors';
import { closest } from './typos';

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
    /** The language it is written in, when staff said so (issue 27); absent: read from its words. */
    language?: RetrievalLanguage;
}

export interface RetrievalHit {
    source: AnswerSource;
    score: number;
    /** Share (0..1) of the question's weight (idf of its content terms) that this source matches, by word or meaning. */
    confidence: number;
    /** The question's terms this source matches (the same word, a typo of it, or a word of close meaning). */
    matched: string[];
    /** Those it matches by the word itself (or a typo of it), not only by meaning. */
    lexical: string[];
}

export interface RetrievalResult {
    /** Best first, at most `limit`. */
    hits: RetrievalHit[];
    /** The best hit's confidence (0 without any hit). */
    confidence: number;
    /** The question's content terms after stop words, spelling, stemming and synonyms. */
    terms: string[];
    /** The language the question was read in. */
    language: RetrievalLanguage;
}

/**
 * Confidence below which the built-in agent abstains and offers a fallback instead of guessing. Tuned on the
 * tuning set (test/fixtures/ai-eval.json, bench/ai-eval.ts); the held-out set only reports.
 */
export const ABSTAIN_BELOW = 0.4;

/** Terms that say little about which entry answers (they count half in the confidence). */
export const WEAK_TERMS = new Set(['store', 'item', 'point', 'member']);

/** Word vectors closer than this (cosine) count as a match of meaning; how much one counts is its cosine × SEMANTIC_WEIGHT. */
export const SEMANTIC_FLOOR = 0.6;
export const SEMANTIC_WEIGHT = 0.55;
/** How much an earlier question's words weigh when a follow-up is read with it. */
export const CONTEXT_WEIGHT = 0.5;
/** The share of the confidence that the whole question's meaning (mean word vector) against the whole entry's gives. */
export const SENTENCE_WEIGHT = 0;

export interface IndexOptions {
    /** The English word vectors (default: the shipped ones); null: lexical retrieval only (BM25, stemming, typos). */
    vectors?: WordVectors | null;
    /** SEMANTIC_FLOOR and SEMANTIC_WEIGHT, for the bench's comparisons. */
    semanticFloor?: number;
    semanticWeight?: number;
    sentenceWeight?: number;
}

/** One content word of a question: the word (spelling fixed), its term, and its weight. */
interface QueryWord {
    word: string;
    term: string;
}

interface Indexed {
    source: AnswerSource;
    language: RetrievalLanguage;
    /** BM25 fields: the processed terms, space-joined. */
    title: string;
    body: string;
    terms: Set<string>;
    /** Ids (into the index's word table) of its English content words that have a vector. */
    words: Set<number>;
    /** The idf-weighted mean of those words' vectors, unit length (null without any). */
    meaning: Float32Array | null;
}

/** English content words of a text, as written (lowercase, stop words dropped), each with its term. */
function englishWords(text: string): QueryWord[] {
    const out: QueryWord[] = [];
    for (const token of tokenize(text)) {
        const term = processTerm(token);
        if (term) {
            out.push({ word: token.replace(/'s$/, ''), term });
        }
    }
    return out;
}

function termsOf(text: string, language: RetrievalLanguage): string[] {
    return language === 'en' ? englishWords(text).map((w) => w.term) : foreignTerms(text, language);
}

/**
 * The built-in agent's retrieval over one organization's answer sources: BM25 (minisearch) over terms stemmed in
 * each source's language (English with the retail synonyms of text.ts), spelling tolerance (a question's unknown word
 * becomes the closest word of the store's texts or of the vocabulary), and, for English, similarity of meaning from
 * word vectors shipped with the package (vectors.ts): a question word counts for an entry that has a word close to
 * it ("vanish" ~ "expire"). The confidence says how much of the question the best source covers: the idf-weighted
 * share of its words that the source matches, by word or by meaning. A question full of words the store never
 * wrote ("Do you sell gift cards?") covers little and is abstained on.
 */
export class KnowledgeIndex {
    private readonly search: MiniSearch<Indexed>;
    private readonly df = new Map<string, number>();
    private readonly entries: Indexed[] = [];
    private readonly byKey = new Map<string, Indexed>();
    /** Raw words of the sources (for spelling), per language. */
    private readonly vocabulary = new Map<RetrievalLanguage, Set<string>>();
    private readonly vectors: WordVectors | null;
    /** The distinct English words of the sources that have a vector, their vectors, and which sources hold each. */
    private readonly wordIds = new Map<string, number>();
    private readonly wordVectors: Float32Array[] = [];
    private readonly wordSources: Indexed[][] = [];
    private readonly mainLanguage: RetrievalLanguage;
    private readonly floor: number;
    private readonly semanticWeight: number;
    private readonly sentenceWeight: number;
    readonly size: number;

    constructor(sources: readonly AnswerSource[], options: IndexOptions = {}) {
        this.vectors = options.vectors === undefined ? englishVectors() : options.vectors;
        this.floor = options.semanticFloor ?? SEMANTIC_FLOOR;
        this.semanticWeight = options.semanticWeight ?? SEMANTIC_WEIGHT;
        this.sentenceWeight = options.sentenceWeight ?? SENTENCE_WEIGHT;
        // Each source in its language; one that shows none ("Horario: lunes a viernes 9:00-20:00") in the store's main one.
        const detected = sources.map((s) => s.language ?? detectLanguage(`${s.title} ${s.text}`));
        const counts = new Map<RetrievalLanguage, number>();
        for (const language of detected) {
            if (language) {
                counts.set(language, (counts.get(language) ?? 0) + 1);
            }
        }
        this.mainLanguage = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'en';
        sources.forEach((source, n) => {
            const language = detected[n] ?? this.mainLanguage;
            const titleTerms = termsOf(source.title, language);
            const bodyTerms = termsOf(source.text, language);
            const entry: Indexed = {
                source, language, title: titleTerms.join(' '), body: bodyTerms.join(' '),
                terms: new Set([...titleTerms, ...bodyTerms]), words: new Set(), meaning: null
            };
            const vocabulary = this.vocabulary.get(language) ?? new Set<string>();
            this.vocabulary.set(language, vocabulary);
            for (const w of anyWords(`${source.title} ${source.text}`)) {
                vocabulary.add(w);
            }
            if (language === 'en' && this.vectors) {
                for (const { word } of englishWords(`${source.title} ${source.text}`)) {
                    const id = this.wordId(word);
                    if (id !== null) {
                        entry.words.add(id);
                        const holders = this.wordSources[id];
                        if (holders[holders.length - 1] !== entry) {
                            holders.push(entry);
                        }
                    }
                }
            }
            for (const term of entry.terms) {
                this.df.set(term, (this.df.get(term) ?? 0) + 1);
            }
            this.entries.push(entry);
            this.byKey.set(source.key, entry);
        });
        this.search = new MiniSearch<Indexed>({
            idField: 'key',
            fields: ['title', 'body'],
            storeFields: [],
            extractField: (doc, field) => (field === 'key' ? doc.source.key : field === 'title' ? doc.title : doc.body),
            tokenize: (text) => text.split(' ').filter(Boolean),
            processTerm: (term) => term
        });
        this.search.addAll(this.entries);
        this.size = sources.length;
        if (this.vectors) {
            for (const entry of this.entries) {
                if (entry.language === 'en') {
                    entry.meaning = this.meaningOf([...englishWords(entry.source.title), ...englishWords(entry.source.text)]);
                }
            }
        }
    }

    /** The idf-weighted mean vector of some words (unit length), or null when none has a vector. */
    private meaningOf(words: QueryWord[]): Float32Array | null {
        if (!this.vectors) {
            return null;
        }
        const sum = new Float32Array(this.vectors.dims);
        let any = false;
        for (const w of words) {
            const v = this.vectors.vector(w.word);
            if (!v) {
                continue;
            }
            any = true;
            const weight = this.weight(w.term);
            for (let d = 0; d < sum.length; d++) {
                sum[d] += v[d] * weight;
            }
        }
        if (!any) {
            return null;
        }
        const norm = Math.sqrt(cosine(sum, sum)) || 1;
        for (let d = 0; d < sum.length; d++) {
            sum[d] /= norm;
        }
        return sum;
    }

    private wordId(word: string): number | null {
        const known = this.wordIds.get(word);
        if (known !== undefined) {
            return known;
        }
        const vector = this.vectors?.vector(word);
        if (!vector) {
            return null;
        }
        const id = this.wordVectors.length;
        this.wordIds.set(word, id);
        this.wordVectors.push(vector);
        this.wordSources.push([]);
        return id;
    }

    private weight(term: string): number {
        const df = this.df.get(term) ?? 0;
        // A word no source uses weighs the most: the question is about something the store never wrote.
        const idf = Math.log(1 + (this.size + 1) / (df + 0.5));
        return WEAK_TERMS.has(term) ? idf / 2 : idf;
    }

    /**
     * The question's content words, read in its language (the store's main one when it shows none), a word that is
     * neither in the store's texts nor in the vocabulary replaced by the closest one that is (one edit, two from 7 letters).
     */
    private read(question: string): { language: RetrievalLanguage; words: QueryWord[] } {
        const language = detectLanguage(question) ?? this.mainLanguage;
        const vocabulary = this.vocabulary.get(language) ?? new Set<string>();
        const fix = (word: string): string => {
            if (word.length < 4 || /\d/.test(word) || vocabulary.has(word) || language === 'en' && this.vectors?.has(word)) {
                return word;
            }
            // A word the store's texts hold under another form (a synonym, another inflection) is no typo.
            const term = language === 'en' ? processTerm(word) : foreignTerms(word, language)[0];
            if (term && this.df.has(term)) {
                return word;
            }
            return closest(word, vocabulary) ?? (language === 'en' && this.vectors ? closest(word, this.vectors.words, 1) : null) ?? word;
        };
        if (language === 'en') {
            const read: QueryWord[] = [];
            for (const token of tokenize(question)) {
                const fixed = processTerm(token) === null ? token : fix(token.replace(/'s$/, ''));
                const term = processTerm(fixed);
                if (term && !read.some((w) => w.term === term)) {
                    read.push({ word: fixed, term });
                }
            }
            return { language, words: read };
        }
        const read: QueryWord[] = [];
        for (const w of anyWords(question)) {
            const fixed = fix(w);
            const [term] = foreignTerms(fixed, language);
            if (term && !read.some((r) => r.term === term)) {
                read.push({ word: fixed, term });
            }
        }
        return { language, words: read };
    }

    /**
     * The best sources for a question. `context` (an earlier question of the conversation, follow-up.ts) adds its words
     * at CONTEXT_WEIGHT of their weight: the question's own words decide, the earlier ones settle what they leave open.
     */
    query(question: string, limit = 3, context?: string): RetrievalResult {
        const read = this.read(question);
        const { language } = read;
        const own = read.words.length;
        const words = [...read.words];
        if (context) {
            for (const w of this.read(context).words) {
                if (!words.some((x) => x.term === w.term)) {
                    words.push(w);
                }
            }
        }
        const qTerms = words.map((w) => w.term);
        if (!qTerms.length || !this.size) {
            return { hits: [], confidence: 0, terms: qTerms, language };
        }
        const weights = qTerms.map((t) => this.weight(t));
        if (qTerms.length > own) {
            // The earlier words weigh at most CONTEXT_WEIGHT each, and together no more than the question's own words.
            const ownSum = weights.slice(0, own).reduce((sum, w) => sum + w, 0);
            const contextSum = weights.slice(own).reduce((sum, w) => sum + w, 0) * CONTEXT_WEIGHT;
            const factor = CONTEXT_WEIGHT * (ownSum > 0 && contextSum > ownSum ? ownSum / contextSum : 1);
            for (let i = own; i < weights.length; i++) {
                weights[i] *= factor;
            }
        }
        const total = weights.reduce((sum, w) => sum + w, 0);
        const results = this.search.search(qTerms.join(' '), {
            combineWith: 'OR',
            boost: { title: 2 },
            // Typos of longer words that spelling did not fix; exact terms still score higher.
            fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
            weights: { fuzzy: 0.6, prefix: 0.3 },
            processTerm: (term) => term
        });
        // Per source: how well it matches each question word (1 for the word itself, the cosine × weight for one close in meaning).
        const match = new Map<Indexed, number[]>();
        const bm25 = new Map<Indexed, number>();
        const slot = (entry: Indexed) => {
            let row = match.get(entry);
            if (!row) {
                row = qTerms.map(() => 0);
                match.set(entry, row);
            }
            return row;
        };
        for (const result of results) {
            const entry = this.byKey.get(String(result.id));
            if (!entry) {
                continue;
            }
            bm25.set(entry, result.score);
            const found = new Set(result.queryTerms);
            const row = slot(entry);
            qTerms.forEach((t, i) => {
                if (found.has(t)) {
                    row[i] = 1;
                }
            });
        }
        if (language === 'en' && this.vectors) {
            words.forEach((w, i) => {
                const v = this.vectors?.vector(w.word);
                if (!v) {
                    return;
                }
                for (let id = 0; id < this.wordVectors.length; id++) {
                    const sim = cosine(v, this.wordVectors[id]);
                    if (sim < this.floor) {
                        continue;
                    }
                    const value = Math.min(1, sim * this.semanticWeight);
                    for (const entry of this.wordSources[id]) {
                        const row = slot(entry);
                        if (row[i] < value) {
                            row[i] = value;
                        }
                    }
                }
            });
        }
        const top = Math.max(1e-9, ...bm25.values());
        const meaning = language === 'en' && this.sentenceWeight > 0 ? this.meaningOf(words) : null;
        const hits: RetrievalHit[] = [];
        for (const [entry, row] of match) {
            const covered = row.reduce((sum, m, i) => sum + m * weights[i], 0);
            const coverage = total ? covered / total : 0;
            // The whole question's meaning against the whole entry's, for paraphrases that share no single close word.
            const whole = meaning && entry.meaning ? Math.max(0, cosine(meaning, entry.meaning)) : coverage;
            const confidence = (1 - this.sentenceWeight) * coverage + this.sentenceWeight * whole;
            hits.push({
                source: entry.source, score: (bm25.get(entry) ?? 0) / top, confidence,
                matched: qTerms.filter((_, i) => row[i] > 0), lexical: qTerms.filter((_, i) => row[i] === 1)
            });
        }
        // The better covered source wins; BM25 (exact words, in the title) breaks near-ties.
        hits.sort((x, y) => (y.confidence + 0.15 * y.score) - (x.confidence + 0.15 * x.score));
        const best = hits.slice(0, limit);
        return { hits: best, confidence: best[0]?.confidence ?? 0, terms: qTerms, language };
    }
}
