import * as Crypto from 'crypto';
import type { Db } from '../../../core/db';
import type { Meanings } from './meanings';

/**
 * A row younger than this is never removed as gone: another node may have just written it for a newer version of the
 * store's knowledge (or a newer model, in a rolling upgrade) than the one this node is building. A later build removes it.
 */
export const KEEP_NEW_ROWS_MS = 10 * 60_000;

/** Rows per statement: well under SQLite's and PostgreSQL's limits on bound values. */
const CHUNK = 400;

function hashOf(text: string): string {
    return Crypto.createHash('sha256').update(text).digest('hex');
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
    const out: T[][] = [];
    for (let i = 0; i < items.length; i += size) {
        out.push(items.slice(i, i + size));
    }
    return out;
}

/** A vector as stored: its float32 values' bytes, in the machine's order (little-endian on every platform Node ships for). */
function toBytes(v: Float32Array): Buffer {
    return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** A stored vector, copied out of the driver's buffer (which may not be aligned for floats); null when its length is wrong. */
function fromBytes(bytes: unknown, dims: number): Float32Array | null {
    if (!Buffer.isBuffer(bytes) && !(bytes instanceof Uint8Array)) {
        return null;
    }
    if (bytes.byteLength !== dims * 4) {
        return null;
    }
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const v = new Float32Array(copy.buffer);
    return v.every(Number.isFinite) ? v : null;
}

/** What one store's sources took: read from the database, encoded here, and rows written and removed. */
export interface StoredMeaningsReport {
    read: number;
    written: number;
    removed: number;
    /** The database could not be read or written (the meanings were encoded all the same). */
    error?: string;
}

/**
 * A store's sentence meanings kept in the database (ai_text_meanings, issue 30), by the text's SHA-256 and the model:
 * when an index is built, the meanings the database has and the process has not are read first; what is still missing
 * is encoded, then written; the rows of texts the store no longer has are removed once older than KEEP_NEW_ROWS_MS. A
 * second node, or the same one after a restart, so reads a store of 1,000 entries in well under a second instead of encoding it for a minute and more.
 * Only the store's own texts come here (titles, entries, sentences), never a customer's question.
 */
export class StoredMeanings {
    constructor(private readonly db: Db, private readonly meanings: Meanings) {}

    /**
     * The store's texts known to `meanings`: read from the database, else encoded (until `signal` aborts) and written.
     * Rows are written with "on conflict do nothing": two nodes building the same store at once both succeed.
     */
    async prepare(organizationId: number, texts: readonly string[], signal?: AbortSignal): Promise<StoredMeaningsReport> {
        const unique = [...new Set(texts)];
        const byHash = new Map(unique.map((t) => [hashOf(t), t]));
        const report: StoredMeaningsReport = { read: 0, written: 0, removed: 0 };
        // The database's troubles are reported, never thrown: the meanings are encoded all the same. The encoder's are thrown.
        const stored = await this.read(organizationId, byHash, report).catch((err: Error) => {
            report.error = err.message;
            return null;
        });
        await this.meanings.prepare(unique, signal);
        if (stored) {
            await this.write(organizationId, byHash, stored, report).catch((err: Error) => {
                report.error = err.message;
            });
        }
        return report;
    }

    /** The hashes the database keeps for the store, once the vectors the process lacks are read from it. */
    private async read(organizationId: number, byHash: Map<string, string>, report: StoredMeaningsReport): Promise<Set<string>> {
        const { meanings, db } = this;
        const model = meanings.model;
        const stored = new Set((await db('ai_text_meanings').where({ organization_id: organizationId, model }).select('text_hash') as Array<{ text_hash: string }>)
            .map((r) => r.text_hash));
        const toRead = [...byHash].filter(([hash, text]) => stored.has(hash) && !meanings.has(text)).map(([hash]) => hash);
        for (const part of chunks(toRead)) {
            const rows = await db('ai_text_meanings').where({ organization_id: organizationId, model }).whereIn('text_hash', part)
                .select('text_hash', 'vector') as Array<{ text_hash: string; vector: unknown }>;
            for (const row of rows) {
                const v = fromBytes(row.vector, meanings.dims);
                const text = byHash.get(row.text_hash);
                if (v && text !== undefined) {
                    meanings.put(text, v);
                    report.read++;
                }
                else {
                    // A row this model cannot read (cut short, or written by hand): encoded again and written anew.
                    stored.delete(row.text_hash);
                    await db('ai_text_meanings').where({ organization_id: organizationId, model, text_hash: row.text_hash }).delete();
                }
            }
        }
        return stored;
    }

    /** The encoded texts the database lacks written, and the rows of texts the store no longer has removed. */
    private async write(organizationId: number, byHash: Map<string, string>, stored: Set<string>, report: StoredMeaningsReport): Promise<void> {
        const { meanings, db } = this;
        const model = meanings.model;
        const now = Date.now();
        const toWrite = [...byHash].filter(([hash]) => !stored.has(hash))
            .map(([hash, text]) => ({ hash, v: meanings.peek(text) }))
            .filter((r): r is { hash: string; v: Float32Array } => r.v !== undefined);
        for (const part of chunks(toWrite, 100)) {
            await db('ai_text_meanings')
                .insert(part.map((r) => ({ organization_id: organizationId, model, text_hash: r.hash, vector: toBytes(r.v), created_at: now })))
                .onConflict(['organization_id', 'model', 'text_hash']).ignore();
            report.written += part.length;
        }
        // The store's texts that are gone (an entry edited or deleted), and every row of another model, unless written lately.
        const before = now - KEEP_NEW_ROWS_MS;
        const gone = [...stored].filter((hash) => !byHash.has(hash));
        for (const part of chunks(gone)) {
            report.removed += await db('ai_text_meanings').where({ organization_id: organizationId, model }).whereIn('text_hash', part)
                .where('created_at', '<', before).delete();
        }
        report.removed += await db('ai_text_meanings').where({ organization_id: organizationId }).whereNot({ model })
            .where('created_at', '<', before).delete();
    }
}
