import MiniSearch from 'minisearch';
import { processTerm, tokenize } from './text';
import { detectLanguage, foreignTerms, RetrievalLanguage, words as anyWords } from './language';
import { cosine, englishSenses, englishVectors, WordSenses, WordVectors } from './vectors';
import { closest } from './typos';
import { Meanings, MeaningMatrix, sourceTexts } from './meanings';

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
    /** What the confidence is made of (bench and tests read them). */
    signals?: RetrievalSignals;
}

export interface RetrievalSignals {
    /** Share of the question's weight matched, by word or by meaning (synonyms and word vectors count in part). */
    coverage: number;
    /** Share matched by the word itself (or a typo of it). */
    lexicalCoverage: number;
    /** Share of the source's title that the question says, by word or by meaning. */
    titleCoverage: number;
    /** The largest share of the question's weight that one of its words leaves unmatched. */
    missing: number;
    /** The BM25 score. */
    bm25: number;
    /** The confidence from words alone (before whole-sentence meaning is weighed in). */
    wordsConfidence?: number;
    /** The closest of the source's title, whole text and sentences to the whole question, by meaning (cosine; absent without meanings). */
    meaning?: number;
    /** The question's own content words. */
    words: number;
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
 * Confidence below which the built-in agent abstains and offers a fallback instead of guessing, unless the best source
 * is decisive (below). Chosen with the weights below on the tuning sets (test/fixtures/ai-eval.json,
 * ai-tuning-extra.json, ai-tuning-stores.json; bench/ai-eval.ts); the held-out set only reports.
 */
export const ABSTAIN_BELOW = 0.62;
/**
 * A best source at least this confident that leads the next one by DECISIVE_MARGIN answers too: the question matches
 * one source clearly, though in few words. Its confidence is then raised to ABSTAIN_BELOW, so that one threshold
 * holds everywhere the confidence is read (follow-ups, the conversation's keyword decision, the providers).
 */
export const ABSTAIN_FLOOR = 0.36;
export const DECISIVE_MARGIN = 0.12;

/** Terms that say little about which entry answers (they count half in the confidence). */
export const WEAK_TERMS = new Set(['store', 'item', 'point', 'member']);

/** Word vectors closer than this (cosine) count as a match of meaning; how much one counts is its cosine × SEMANTIC_WEIGHT. */
export const SEMANTIC_FLOOR = 0.35;
export const SEMANTIC_WEIGHT = 0.7;
/** How much an earlier question's words weigh when a follow-up is read with it. */
export const CONTEXT_WEIGHT = 0.5;
/** The share of the confidence that the whole question's meaning (mean word vector) against the whole entry's gives. */
export const SENTENCE_WEIGHT = 0;
/** The entry's side: how much of a source's title the question says, weighed against the question's coverage (1). */
export const TITLE_WEIGHT = 0.3;
/** The normalised BM25 score's part in the ranking (exact words, in the title, break near-ties). */
export const BM25_WEIGHT = 0.1;
/**
 * Share of a question word's weight taken from its soft document frequency (how many sources match it, by word or by
 * meaning, summed) rather than from the sources that hold the word itself: a word that matches every source softly
 * ("order") says little about which one answers.
 */
export const SOFT_IDF = 0.75;
/** WordNet (wordnet-en-senses.txt): a synonym counts SYNONYM_WEIGHT; a broader or narrower word (one level) counts less. */
export const SYNONYM_WEIGHT = 0.9;
export const BROADER_WEIGHT = 0.7;
export const NARROWER_WEIGHT = 0.7;
export const BROADER_DEPTH = 1;
export const PREFIX_WEIGHT = 0.9;
export const PREFIX_MIN = 4;
/**
 * Whole-sentence meaning (meanings.ts, third round): a source's score is (1 - MEANING_WEIGHT) × its confidence from
 * words + MEANING_WEIGHT × how close in meaning the question is to the closest of its title, whole text and sentences
 * (the cosine, from MEANING_FLOOR up, scaled to 0..1). It answers from MEANING_ANSWER, or from MEANING_ABSTAIN_FLOOR
 * when it leads the next by MEANING_MARGIN and is at least MEANING_DECISIVE close in meaning ("Do you offer gift
 * wrapping?" leads beside a gift-card entry by its word "gift" alone); the score is then mapped onto the words' scale,
 * MEANING_ANSWER onto ABSTAIN_BELOW, so that one threshold holds everywhere. Chosen on the three tuning sets only
 * (bench/ai-eval.ts), among the rules that keep the e2e and integration tests' expectations.
 */
export const MEANING_WEIGHT = 0.4;
export const MEANING_FLOOR = 0.2;
export const MEANING_ANSWER = 0.475;
export const MEANING_ABSTAIN_FLOOR = 0.375;
export const MEANING_MARGIN = 0.05;
export const MEANING_DECISIVE = 0.55;
/**
 * With meanings, a store's knowledge entry that answers (ABSTAIN_BELOW) and matches the question's words at least as well
 * goes before a pre-made question that leads it by at most this much: a question is closer in meaning to a question than
 * an entry's title is ("When are you open on Sunday?" is closer to "What are your store hours?" than to "Store hours"),
 * and staff who edit the entry expect its answer.
 */
export const KNOWLEDGE_FIRST = 0.2;
/** With meanings, the sources no question word matches that are read further: the closest in meaning, this many. */
export const MEANING_CANDIDATES = 20;

export interface IndexOptions {
    /** The English word vectors (default: the shipped ones); null: lexical retrieval only (BM25, stemming, typos). */
    vectors?: WordVectors | null;
    /** SEMANTIC_FLOOR and SEMANTIC_WEIGHT, for the bench's comparisons. */
    semanticFloor?: number;
    semanticWeight?: number;
    sentenceWeight?: number;
    /** Weight of the entry's side: how much of the entry's title the question covers. */
    titleWeight?: number;
    /** Weight of the normalised BM25 score in the ranking. */
    bm25Weight?: number;
    /** Share of a question word's weight taken from its soft document frequency (the sum of its matches over the sources). */
    softIdf?: number;
    /** English word senses (default: the shipped WordNet ones); null: none. */
    senses?: WordSenses | null;
    /** How much a synonym (a shared sense) counts for a question word. */
    synonymWeight?: number;
    /** How much a source's word more general (a WordNet hypernym, up to broaderDepth levels) or more specific counts. */
    broaderWeight?: number;
    narrowerWeight?: number;
    broaderDepth?: number;
    /** ABSTAIN_FLOOR and DECISIVE_MARGIN (the bench compares with the margin rule off: floor 1). */
    abstainFloor?: number;
    decisiveMargin?: number;
    /** How much a term sharing its first PREFIX_MIN letters or more with a source's term counts (× the shared share of the longer). */
    prefixWeight?: number;
    /** Whether a question's unknown word is read as two words of the store's texts ("giftcard"); default true. */
    splitWords?: boolean;
    /**
     * Whole-sentence meanings (meanings.ts): with them, once the sources' texts and the question are encoded
     * (Meanings.prepare with meaningTexts and meaningText), English questions are also matched by meaning. Default none.
     */
    meanings?: Meanings | null;
    meaningWeight?: number;
    meaningFloor?: number;
    meaningAnswer?: number;
    meaningAbstainFloor?: number;
    meaningMargin?: number;
    meaningDecisive?: number;
}

/** The English sources' encoded texts (meanings.ts): each source's title, whole text and sentences, one group each. */
interface SourceMeanings {
    entries: Indexed[];
    matrix: MeaningMatrix;
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
    /** The title's content words: term, word id (null without a vector). */
    titleWords: Array<{ term: string; id: number | null }>;
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

/** The text whose meaning stands for a question (KnowledgeIndex.meaningText, once the question is known to be English). */
export function meaningTextOf(question: string): string {
    return question.replace(/\s+/g, ' ').trim();
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
    /** Each term of the sources, and the sources that hold it. */
    private readonly termSources = new Map<string, Indexed[]>();
    private readonly entries: Indexed[] = [];
    private readonly byKey = new Map<string, Indexed>();
    /** Raw words of the sources (for spelling), per language. */
    private readonly vocabulary = new Map<RetrievalLanguage, Set<string>>();
    private readonly vectors: WordVectors | null;
    /** The distinct English words of the sources that have a vector, their vectors, and which sources hold each. */
    private readonly wordIds = new Map<string, number>();
    private readonly wordVectors: Array<Float32Array | null> = [];
    private readonly wordSources: Indexed[][] = [];
    private readonly mainLanguage: RetrievalLanguage;
    private readonly floor: number;
    private readonly semanticWeight: number;
    private readonly sentenceWeight: number;
    private readonly titleWeight: number;
    private readonly bm25Weight: number;
    private readonly softIdf: number;
    private readonly senses: WordSenses | null;
    private readonly synonymWeight: number;
    /** WordNet sense → ids of the sources' words that have it. */
    private readonly senseWords = new Map<number, number[]>();
    /** A broader sense → ids of the sources' words under it. */
    private readonly narrowerWords = new Map<number, number[]>();
    private readonly broaderWeight: number;
    private readonly narrowerWeight: number;
    private readonly broaderDepth: number;
    private readonly abstainFloor: number;
    private readonly prefixWeight: number;
    private readonly splitWords: boolean;
    private readonly decisiveMargin: number;
    private readonly meanings: Meanings | null;
    private readonly meaningWeight: number;
    private readonly meaningFloor: number;
    private readonly meaningAnswer: number;
    private readonly meaningAbstainFloor: number;
    private readonly meaningMargin: number;
    private readonly meaningDecisive: number;
    /** The English sources' encoded texts, once every one of them is encoded (null before). */
    private sourceMeanings: SourceMeanings | null = null;
    readonly size: number;

    constructor(sources: readonly AnswerSource[], options: IndexOptions = {}) {
        this.vectors = options.vectors === undefined ? englishVectors() : options.vectors;
        this.floor = options.semanticFloor ?? SEMANTIC_FLOOR;
        this.semanticWeight = options.semanticWeight ?? SEMANTIC_WEIGHT;
        this.sentenceWeight = options.sentenceWeight ?? SENTENCE_WEIGHT;
        this.titleWeight = options.titleWeight ?? TITLE_WEIGHT;
        this.bm25Weight = options.bm25Weight ?? BM25_WEIGHT;
        this.softIdf = options.softIdf ?? SOFT_IDF;
        this.senses = options.senses === undefined ? englishSenses() : options.senses;
        this.synonymWeight = options.synonymWeight ?? SYNONYM_WEIGHT;
        this.broaderWeight = options.broaderWeight ?? BROADER_WEIGHT;
        this.narrowerWeight = options.narrowerWeight ?? NARROWER_WEIGHT;
        this.broaderDepth = options.broaderDepth ?? BROADER_DEPTH;
        this.abstainFloor = options.abstainFloor ?? ABSTAIN_FLOOR;
        this.prefixWeight = options.prefixWeight ?? PREFIX_WEIGHT;
        this.splitWords = options.splitWords ?? true;
        this.decisiveMargin = options.decisiveMargin ?? DECISIVE_MARGIN;
        this.meanings = options.meanings ?? null;
        this.meaningWeight = options.meaningWeight ?? MEANING_WEIGHT;
        this.meaningFloor = options.meaningFloor ?? MEANING_FLOOR;
        this.meaningAnswer = options.meaningAnswer ?? MEANING_ANSWER;
        this.meaningAbstainFloor = options.meaningAbstainFloor ?? MEANING_ABSTAIN_FLOOR;
        this.meaningMargin = options.meaningMargin ?? MEANING_MARGIN;
        this.meaningDecisive = options.meaningDecisive ?? MEANING_DECISIVE;
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
                terms: new Set([...titleTerms, ...bodyTerms]), words: new Set(), meaning: null, titleWords: []
            };
            const vocabulary = this.vocabulary.get(language) ?? new Set<string>();
            this.vocabulary.set(language, vocabulary);
            for (const w of anyWords(`${source.title} ${source.text}`)) {
                vocabulary.add(w);
            }
            if (language === 'en') {
                for (const w of englishWords(source.title)) {
                    if (!entry.titleWords.some((t) => t.term === w.term)) {
                        entry.titleWords.push({ term: w.term, id: this.wordId(w.word) });
                    }
                }
            }
            else {
                entry.titleWords = [...new Set(titleTerms)].map((term) => ({ term, id: null }));
            }
            if (language === 'en' && (this.vectors || this.senses)) {
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
                const holders = this.termSources.get(term) ?? [];
                holders.push(entry);
                this.termSources.set(term, holders);
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

    /** A question's content terms, as query reads them (after stop words, spelling and stemming). */
    terms(question: string): string[] {
        return this.read(question).words.map((w) => w.term);
    }

    /** One of its sources by key ('knowledge:12', 'question:3', 'store'). */
    source(key: string): AnswerSource | undefined {
        return this.byKey.get(key)?.source;
    }

    /** The texts whose meanings this index compares (its English sources'): Meanings.prepare them before asking. */
    meaningTexts(): string[] {
        if (!this.meanings) {
            return [];
        }
        const out: string[] = [];
        for (const entry of this.entries) {
            if (entry.language === 'en') {
                const t = sourceTexts(entry.source.title, entry.source.text);
                out.push(t.title, t.whole, ...t.sentences);
            }
        }
        return out;
    }

    /** The text whose meaning a question is compared by, or null when it is not read in English. */
    meaningText(question: string): string | null {
        if (!this.meanings || (detectLanguage(question) ?? this.mainLanguage) !== 'en') {
            return null;
        }
        return meaningTextOf(question);
    }

    /** The English sources' meanings, once all are encoded; null while some are not (the question is then read by its words alone). */
    private resolveMeanings(): SourceMeanings | null {
        if (this.sourceMeanings || !this.meanings) {
            return this.sourceMeanings;
        }
        const entries: Indexed[] = [];
        const groups: Float32Array[][] = [];
        for (const entry of this.entries) {
            if (entry.language !== 'en') {
                continue;
            }
            const t = sourceTexts(entry.source.title, entry.source.text);
            const vectors = [t.title, t.whole, ...t.sentences].map((text) => this.meanings?.get(text));
            if (vectors.some((v) => !v)) {
                return null;
            }
            entries.push(entry);
            groups.push(vectors as Float32Array[]);
        }
        this.sourceMeanings = { entries, matrix: new MeaningMatrix(groups) };
        return this.sourceMeanings;
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
        const vector = this.vectors?.vector(word) ?? null;
        const senses = this.senses?.of(word) ?? [];
        if (!vector && !senses.length) {
            return null;
        }
        const id = this.wordVectors.length;
        this.wordIds.set(word, id);
        for (const sense of senses) {
            const holders = this.senseWords.get(sense) ?? [];
            holders.push(id);
            this.senseWords.set(sense, holders);
        }
        for (const sense of this.senses && this.narrowerWeight > 0 ? this.senses.broader(senses, this.broaderDepth) : []) {
            const holders = this.narrowerWords.get(sense) ?? [];
            holders.push(id);
            this.narrowerWords.set(sense, holders);
        }
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
            // Two words of the store's texts written as one ("giftcard"): read as the two.
            for (let k = 3; this.splitWords && language === 'en' && k <= word.length - 3; k++) {
                if (vocabulary.has(word.slice(0, k)) && vocabulary.has(word.slice(k))) {
                    return `${word.slice(0, k)} ${word.slice(k)}`;
                }
            }
            return closest(word, vocabulary) ?? (language === 'en' && this.vectors ? closest(word, this.vectors.words, 1) : null) ?? word;
        };
        if (language === 'en') {
            const read: QueryWord[] = [];
            for (const token of tokenize(question)) {
                for (const fixed of (processTerm(token) === null ? token : fix(token.replace(/'s$/, ''))).split(' ')) {
                    const term = processTerm(fixed);
                    if (term && !read.some((w) => w.term === term)) {
                        read.push({ word: fixed, term });
                    }
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
        let total = weights.reduce((sum, w) => sum + w, 0);
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
                // A near spelling of a word the vocabulary knows is another word, not a typo of it ("weather", "leather").
                if (found.has(t) && (entry.terms.has(t) || !(language === 'en' && this.vectors?.has(words[i].word)))) {
                    row[i] = 1;
                }
            });
        }
        if (this.prefixWeight > 0) {
            // Terms that share a long beginning ("hora" and "horario", "instal" and "installat"), in any language.
            qTerms.forEach((t, i) => {
                if (t.length < PREFIX_MIN) {
                    return;
                }
                for (const [term, holders] of this.termSources) {
                    if (term === t || term.length < PREFIX_MIN || term[0] !== t[0]) {
                        continue;
                    }
                    let n = 0;
                    while (n < t.length && n < term.length && t[n] === term[n]) {
                        n++;
                    }
                    if (n < PREFIX_MIN) {
                        continue;
                    }
                    const value = this.prefixWeight * n / Math.max(t.length, term.length);
                    for (const entry of holders) {
                        const row = slot(entry);
                        if (row[i] < value) {
                            row[i] = value;
                        }
                    }
                }
            });
        }
        // Each question word against each distinct English word of the sources: a cosine above the floor counts (× the semantic weight).
        const sims: Array<Float32Array | null> = [];
        if (language === 'en' && (this.vectors || this.senses)) {
            words.forEach((w, i) => {
                const v = this.vectors?.vector(w.word) ?? null;
                if (!v && !this.senses?.of(w.word).length) {
                    sims.push(null);
                    return;
                }
                const row = new Float32Array(this.wordVectors.length);
                sims.push(row);
                for (let id = 0; v && id < this.wordVectors.length; id++) {
                    const other = this.wordVectors[id];
                    const sim = other ? cosine(v, other) : 0;
                    if (sim >= this.floor) {
                        row[id] = Math.min(1, sim * this.semanticWeight);
                    }
                }
                // A synonym (a shared WordNet sense) counts at least synonymWeight.
                if (this.senses && this.synonymWeight > 0) {
                    const mark = (ids: readonly number[] | undefined, value: number) => {
                        for (const id of ids ?? []) {
                            if (row[id] < value) {
                                row[id] = value;
                            }
                        }
                    };
                    const own = this.senses.of(w.word);
                    for (const sense of own) {
                        mark(this.senseWords.get(sense), this.synonymWeight);
                        // A source's word more specific than the question's ("beer" for "alcohol").
                        mark(this.narrowerWords.get(sense), this.narrowerWeight);
                    }
                    // A source's word more general than the question's ("alcohol" for "beer").
                    for (const sense of this.senses.broader(own, this.broaderDepth)) {
                        mark(this.senseWords.get(sense), this.broaderWeight);
                    }
                }
                for (let id = 0; id < row.length; id++) {
                    const value = row[id];
                    if (value <= 0) {
                        continue;
                    }
                    for (const entry of this.wordSources[id]) {
                        const r = slot(entry);
                        if (r[i] < value) {
                            r[i] = value;
                        }
                    }
                }
            });
        }
        if (this.softIdf > 0) {
            // A question word that many sources match (by word or by meaning) tells little about which one answers.
            qTerms.forEach((term, i) => {
                let df = 0;
                for (const row of match.values()) {
                    df += row[i];
                }
                const soft = Math.log(1 + (this.size + 1) / (df + 0.5)) * (WEAK_TERMS.has(term) ? 0.5 : 1);
                weights[i] *= 1 - this.softIdf + this.softIdf * soft / Math.max(1e-9, this.weight(term));
            });
            total = weights.reduce((sum, w) => sum + w, 0);
        }
        // Whole-sentence meaning: every English source is a candidate, though it shares no word with the question. A
        // follow-up read with an earlier question is read by words alone: the meaning of the two together is mostly the
        // earlier one's, and it would keep "and what about returns?" on shipping.
        const meaningText = language === 'en' && !context ? this.meaningText(question) : null;
        const questionMeaning = meaningText ? this.meanings?.get(meaningText) : undefined;
        const sourceMeanings = questionMeaning ? this.resolveMeanings() : null;
        const closeness = new Map<Indexed, number>();
        if (sourceMeanings && questionMeaning) {
            const closest = sourceMeanings.matrix.closest(questionMeaning);
            sourceMeanings.entries.forEach((entry, n) => closeness.set(entry, closest[n]));
            const unmatched = [...closeness.entries()].filter(([entry]) => !match.has(entry)).sort((x, y) => y[1] - x[1]);
            for (const [entry] of unmatched.slice(0, MEANING_CANDIDATES)) {
                slot(entry);
            }
        }
        const top = Math.max(1e-9, ...bm25.values());
        const meaning = language === 'en' && this.sentenceWeight > 0 ? this.meaningOf(words) : null;
        const hits: RetrievalHit[] = [];
        for (const [entry, row] of match) {
            const covered = row.reduce((sum, m, i) => sum + m * weights[i], 0);
            const coverage = total ? covered / total : 0;
            // The whole question's meaning against the whole entry's, for paraphrases that share no single close word.
            const whole = meaning && entry.meaning ? Math.max(0, cosine(meaning, entry.meaning)) : coverage;
            let confidence = (1 - this.sentenceWeight) * coverage + this.sentenceWeight * whole;
            let titleCoverage = 0;
            if (this.titleWeight > 0 && entry.titleWords.length) {
                // The entry's side: how much of its title the question says, by word or by meaning.
                let sum = 0;
                let covered2 = 0;
                for (const t of entry.titleWords) {
                    const tw = this.weight(t.term);
                    sum += tw;
                    let best = 0;
                    const at = qTerms.indexOf(t.term);
                    if (at >= 0) {
                        best = at < own ? 1 : CONTEXT_WEIGHT;
                    }
                    else if (t.id !== null) {
                        sims.forEach((row, i) => {
                            const v = row ? row[t.id as number] * (i < own ? 1 : CONTEXT_WEIGHT) : 0;
                            if (v > best) {
                                best = v;
                            }
                        });
                    }
                    covered2 += tw * best;
                }
                titleCoverage = sum ? covered2 / sum : 0;
                confidence = (confidence + this.titleWeight * titleCoverage) / (1 + this.titleWeight);
            }
            const lexicalCoverage = total ? row.reduce((sum, m, i) => sum + (m === 1 ? weights[i] : 0), 0) / total : 0;
            const missing = total ? Math.max(0, ...row.map((m, i) => (i < own ? weights[i] * (1 - m) / total : 0))) : 0;
            const signals: RetrievalSignals = { coverage, lexicalCoverage, titleCoverage, missing, bm25: bm25.get(entry) ?? 0, words: own };
            const close = closeness.get(entry);
            if (close !== undefined) {
                signals.wordsConfidence = confidence;
                signals.meaning = close;
                confidence = (1 - this.meaningWeight) * confidence + this.meaningWeight * Math.max(0, (close - this.meaningFloor) / (1 - this.meaningFloor));
            }
            else if (sourceMeanings) {
                // A source in another language (an index of every language): its words' confidence, on the scale of the others.
                const answer = this.meaningAnswer;
                confidence = confidence <= ABSTAIN_BELOW ? confidence * answer / ABSTAIN_BELOW : answer + (confidence - ABSTAIN_BELOW) * (1 - answer) / (1 - ABSTAIN_BELOW);
            }
            hits.push({
                signals,
                source: entry.source, score: (bm25.get(entry) ?? 0) / top, confidence,
                matched: qTerms.filter((_, i) => row[i] > 0), lexical: qTerms.filter((_, i) => row[i] === 1)
            });
        }
        // The better covered source wins; BM25 (exact words, in the title) breaks near-ties.
        hits.sort((x, y) => (y.confidence + this.bm25Weight * y.score) - (x.confidence + this.bm25Weight * x.score));
        const [first, second] = hits;
        if (sourceMeanings) {
            // Scores by words and meaning: the margin rule on their own scale, then mapped onto the words' (answer → ABSTAIN_BELOW).
            const answer = this.meaningAnswer;
            const scale = (c: number) => (c <= answer ? c * ABSTAIN_BELOW / answer : ABSTAIN_BELOW + (c - answer) * (1 - ABSTAIN_BELOW) / (1 - answer));
            const decisive = !!first && first.confidence < answer && first.confidence >= this.meaningAbstainFloor &&
                first.confidence - (second?.confidence ?? 0) >= this.meaningMargin && (first.signals?.meaning ?? 0) >= this.meaningDecisive;
            const mapped = hits.map((h) => ({ ...h, confidence: scale(h.confidence) }));
            if (decisive) {
                mapped[0].confidence = ABSTAIN_BELOW;
            }
            const entry = mapped.findIndex((h) => h.source.kind === 'knowledge');
            if (mapped[0]?.source.kind === 'question' && entry > 0 && mapped[entry].confidence >= ABSTAIN_BELOW &&
                mapped[0].confidence - mapped[entry].confidence <= KNOWLEDGE_FIRST &&
                (mapped[entry].signals?.wordsConfidence ?? 0) >= (mapped[0].signals?.wordsConfidence ?? 0)) {
                mapped.unshift(...mapped.splice(entry, 1));
            }
            const best = mapped.slice(0, limit);
            return { hits: best, confidence: best[0]?.confidence ?? 0, terms: qTerms, language };
        }
        const best = hits.slice(0, limit);
        if (first && first.confidence < ABSTAIN_BELOW && first.confidence >= this.abstainFloor && first.confidence - (second?.confidence ?? 0) >= this.decisiveMargin) {
            best[0] = { ...first, confidence: ABSTAIN_BELOW };
        }
        return { hits: best, confidence: best[0]?.confidence ?? 0, terms: qTerms, language };
    }
}
