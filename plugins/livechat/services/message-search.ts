import type { Knex } from 'knex';
import type { Db } from '../../../core/db';
import { PG_SEARCH_CONFIG } from '../migrations/20261204000000-chat-message-fulltext';

/** At most this many words of a search are used (the route allows 200 characters). */
const MAX_TERMS = 8;

/**
 * The words of a History search: runs of letters, digits and marks (NFC), lowercased; punctuation separates words and
 * is not searched (`gift_cards` is `gift cards`, `100%` is `100`). Each word is searched as the start of a word.
 */
export function searchTerms(q: string): string[] {
    const words = q.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
    return [...new Set(words)].slice(0, MAX_TERMS);
}

/**
 * Full-text search over chat messages (issue 28), one interface over PostgreSQL full-text search and SQLite FTS5 (the
 * indexes: migrations/20261204000000-chat-message-fulltext.ts). Every method takes the words of searchTerms (at least
 * one); a message matches when each word starts a word of it, case and accents aside.
 */
export interface MessageSearch {
    /** A subquery of the ids of the store's chats with a matching message (for `chat_sessions.id in (…)`). */
    chatsMatching(organizationId: number, terms: string[]): Knex.QueryBuilder;
    /** Each chat's relevance (higher is better: its best matching message), for chats of `chatIds` with a match. */
    relevance(terms: string[], chatIds: number[]): Promise<Map<number, number>>;
    /** Each chat's first matching message (by seq), for chats of `chatIds` with a match. */
    firstMatches(terms: string[], chatIds: number[]): Promise<Map<number, { seq: number; message: string }>>;
}

/** PostgreSQL: chat_messages.search_vector (to_tsvector('lc_search', message)) and its GIN index; ts_rank. */
class PostgresMessageSearch implements MessageSearch {
    constructor(private readonly db: Db) {}

    /** `word:* & word:*` for to_tsquery: the words hold only letters, digits and marks, nothing of tsquery's syntax. */
    private tsquery(terms: string[]): Knex.Raw {
        return this.db.raw(`to_tsquery('${PG_SEARCH_CONFIG}', ?)`, [terms.map((t) => `${t}:*`).join(' & ')]);
    }

    chatsMatching(organizationId: number, terms: string[]): Knex.QueryBuilder {
        return this.db('chat_messages').select('chat_messages.chat_session_id')
            .where('chat_messages.organization_id', organizationId)
            .whereRaw('chat_messages.search_vector @@ ?', [this.tsquery(terms)]);
    }

    async relevance(terms: string[], chatIds: number[]): Promise<Map<number, number>> {
        const out = new Map<number, number>();
        if (!chatIds.length) {
            return out;
        }
        const rows: Array<{ chat_session_id: number; r: number | string }> = await this.db('chat_messages')
            .select('chat_session_id', this.db.raw('max(ts_rank(search_vector, ?)) as r', [this.tsquery(terms)]))
            .whereRaw('chat_session_id = any(?)', [chatIds])
            .whereRaw('search_vector @@ ?', [this.tsquery(terms)])
            .groupBy('chat_session_id');
        for (const r of rows) {
            out.set(Number(r.chat_session_id), Number(r.r));
        }
        return out;
    }

    async firstMatches(terms: string[], chatIds: number[]): Promise<Map<number, { seq: number; message: string }>> {
        const out = new Map<number, { seq: number; message: string }>();
        if (!chatIds.length) {
            return out;
        }
        const rows: Array<{ chat_session_id: number; seq: number; message: string }> = await this.db('chat_messages')
            .select('chat_session_id', 'seq', 'message')
            .whereRaw('chat_session_id = any(?)', [chatIds])
            .whereRaw('search_vector @@ ?', [this.tsquery(terms)])
            .orderBy('seq', 'asc');
        for (const r of rows) {
            const id = Number(r.chat_session_id);
            if (!out.has(id)) {
                out.set(id, { seq: Number(r.seq), message: r.message });
            }
        }
        return out;
    }
}

/**
 * SQLite: the external-content FTS5 table chat_messages_fts (rowid = chat_messages.id), kept by triggers; bm25.
 * The chats' own messages are looked up by rowid in the index (`rowid in (…) and match`), so ranking a few hundred
 * chats does not score every match of a common word.
 */
class SqliteMessageSearch implements MessageSearch {
    constructor(private readonly db: Db) {}

    /** `"word"* "word"*`: each word a quoted prefix (no FTS5 syntax can hide in it), all of them required. */
    private match(terms: string[]): string {
        return terms.map((t) => `"${t}"*`).join(' ');
    }

    chatsMatching(organizationId: number, terms: string[]): Knex.QueryBuilder {
        return this.db('chat_messages').select('chat_messages.chat_session_id')
            .where('chat_messages.organization_id', organizationId)
            .whereRaw('chat_messages.id in (select rowid from chat_messages_fts where chat_messages_fts match ?)', [this.match(terms)]);
    }

    private async scored(terms: string[], chatIds: number[]): Promise<Array<{ chat_session_id: number; seq: number; score: number; message?: string }>> {
        const rows: Array<{ chat_session_id: number; seq: number; score: number }> = [];
        for (let i = 0; i < chatIds.length; i += 500) {
            const part = chatIds.slice(i, i + 500);
            rows.push(...await this.db.raw(`select m.chat_session_id, m.seq, f.score from
                (select rowid as id, bm25(chat_messages_fts) as score from chat_messages_fts
                  where chat_messages_fts match ? and rowid in (select id from chat_messages where chat_session_id in (${part.map(() => '?').join(',')}))) f
                join chat_messages m on m.id = f.id`, [this.match(terms), ...part]));
        }
        return rows;
    }

    async relevance(terms: string[], chatIds: number[]): Promise<Map<number, number>> {
        const out = new Map<number, number>();
        for (const r of await this.scored(terms, chatIds)) {
            // bm25 is lower for a better match (negative): turned around so that higher is better, as ts_rank.
            const score = -Number(r.score);
            const id = Number(r.chat_session_id);
            if (!out.has(id) || out.get(id)! < score) {
                out.set(id, score);
            }
        }
        return out;
    }

    async firstMatches(terms: string[], chatIds: number[]): Promise<Map<number, { seq: number; message: string }>> {
        const out = new Map<number, { seq: number; message: string }>();
        if (!chatIds.length) {
            return out;
        }
        const first = new Map<number, number>();
        for (const r of await this.scored(terms, chatIds)) {
            const id = Number(r.chat_session_id);
            if (!first.has(id) || first.get(id)! > Number(r.seq)) {
                first.set(id, Number(r.seq));
            }
        }
        if (!first.size) {
            return out;
        }
        const rows: Array<{ chat_session_id: number; seq: number; message: string }> = await this.db('chat_messages')
            .select('chat_session_id', 'seq', 'message')
            .where((q) => {
                for (const [id, seq] of first) {
                    q.orWhere((w) => w.where('chat_session_id', id).where('seq', seq));
                }
            });
        for (const r of rows) {
            out.set(Number(r.chat_session_id), { seq: Number(r.seq), message: r.message });
        }
        return out;
    }
}

/** The search of the database `db` runs on. */
export function createMessageSearch(db: Db): MessageSearch {
    return db.client.config.client === 'pg' ? new PostgresMessageSearch(db) : new SqliteMessageSearch(db);
}
