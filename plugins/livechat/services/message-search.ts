import type { Knex } from 'knex';
import type { Db } from '../../../core/db';
import { PG_SEARCH_CONFIG } from '../migrations/20261204020000-chat-message-fulltext';

/** At most this many words of a search are used (the route allows 200 characters). */
const MAX_TERMS = 8;
/** On SQLite, a search with at most this many matching messages (in the whole index) starts from them; else from the chats. */
const FEW_MATCHES = 2000;

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
 * indexes: migrations/20261204020000-chat-message-fulltext.ts). Every method takes the words of searchTerms (at least
 * one); a message matches when each word starts a word of it, case and accents aside.
 */
export interface MessageSearch {
    /** Keeps to the store's chats with a matching message: a condition on chat_sessions added to `query`. */
    restrict(query: Restrictable, organizationId: number, terms: string[]): Promise<void>;
    /**
     * For the chats of `chatIds` with a matching message: their relevance (higher is better: the best matching
     * message's rank) and the seq of their first matching message.
     */
    matches(terms: string[], chatIds: number[]): Promise<Map<number, ChatMatch>>;
}

export interface ChatMatch { score: number; firstSeq: number }

/** A query on chat_sessions (objection's or knex's builder) a condition can be added to. */
export interface Restrictable {
    whereRaw(sql: string, bindings: readonly Knex.RawBinding[]): unknown;
}

/** PostgreSQL: chat_messages.search_vector (to_tsvector('lc_search', message)) and its GIN index; ts_rank. */
class PostgresMessageSearch implements MessageSearch {
    constructor(private readonly db: Db) {}

    /** `word:* & word:*` for to_tsquery: the words hold only letters, digits and marks, nothing of tsquery's syntax. */
    private tsquery(terms: string[]): Knex.Raw {
        return this.db.raw(`to_tsquery('${PG_SEARCH_CONFIG}', ?)`, [terms.map((t) => `${t}:*`).join(' & ')]);
    }

    async restrict(query: Restrictable, organizationId: number, terms: string[]): Promise<void> {
        // A rare word: its few messages (through the GIN index) name their chats. The planner cannot tell a rare prefix
        // from a common one (it walked every chat for 21 matches), so they are read first, at most FEW_MATCHES + 1.
        const few: Array<{ chat_session_id: number }> = await this.db('chat_messages').select('chat_session_id')
            .where('organization_id', organizationId).whereRaw('search_vector @@ ?', [this.tsquery(terms)]).limit(FEW_MATCHES + 1);
        if (few.length <= FEW_MATCHES) {
            query.whereRaw('chat_sessions.id = any(?)', [[...new Set(few.map((r) => Number(r.chat_session_id)))]]);
            return;
        }
        // A common word: the chats newest first, probing their messages (chat_session_id, seq), until the cap.
        query.whereRaw('chat_sessions.id in ?', [this.db('chat_messages').select('chat_messages.chat_session_id')
            .where('chat_messages.organization_id', organizationId)
            .whereRaw('chat_messages.search_vector @@ ?', [this.tsquery(terms)])]);
    }

    async matches(terms: string[], chatIds: number[]): Promise<Map<number, ChatMatch>> {
        const out = new Map<number, ChatMatch>();
        if (!chatIds.length) {
            return out;
        }
        const rows: Array<{ chat_session_id: number; r: number | string; seq: number | string }> = await this.db('chat_messages')
            .select('chat_session_id', this.db.raw('max(ts_rank(search_vector, ?)) as r', [this.tsquery(terms)]), this.db.raw('min(seq) as seq'))
            .whereRaw('chat_session_id = any(?)', [chatIds])
            .whereRaw('search_vector @@ ?', [this.tsquery(terms)])
            .groupBy('chat_session_id');
        for (const r of rows) {
            out.set(Number(r.chat_session_id), { score: Number(r.r), firstSeq: Number(r.seq) });
        }
        return out;
    }
}

/**
 * SQLite: the external-content FTS5 table chat_messages_fts (rowid = chat_messages.id), kept by triggers; bm25.
 */
class SqliteMessageSearch implements MessageSearch {
    constructor(private readonly db: Db) {}

    /** `"word"* "word"*`: each word a quoted prefix (no FTS5 syntax can hide in it), all of them required. */
    private match(terms: string[]): string {
        return terms.map((t) => `"${t}"*`).join(' ');
    }

    async restrict(query: Restrictable, organizationId: number, terms: string[]): Promise<void> {
        const match = this.match(terms);
        const [{ n }] = await this.db.raw(`select count(*) as n from (select rowid from chat_messages_fts where chat_messages_fts match ? limit ${FEW_MATCHES + 1})`, [match]) as Array<{ n: number }>;
        if (Number(n) <= FEW_MATCHES) {
            // A rare word: its few messages lead to their chats.
            query.whereRaw(`chat_sessions.id in (select m.chat_session_id from chat_messages m where m.organization_id = ?
                and m.id in (select rowid from chat_messages_fts where chat_messages_fts match ?))`, [organizationId, match]);
        }
        else {
            // A common word: the chats newest first, each probing its own messages (chat_session_id, seq) in the set of
            // matching rowids (read once from the index), until the cap is reached.
            query.whereRaw(`exists (select 1 from chat_messages m where m.chat_session_id = chat_sessions.id
                and m.id in (select rowid from chat_messages_fts where chat_messages_fts match ?))`, [match]);
        }
    }

    /**
     * The matching messages of these chats with their bm25. FTS5 drives (asked for single rowids it would evaluate the
     * query once per rowid: seconds for a common prefix); the chats' lowest message id bounds the rowids it reads, so
     * for the newest chats it reads only the newest part of the index.
     */
    private async scored(terms: string[], chatIds: number[]): Promise<Array<{ chat_session_id: number; seq: number; score: number }>> {
        const rows: Array<{ chat_session_id: number; seq: number; score: number }> = [];
        for (let i = 0; i < chatIds.length; i += 500) {
            const part = chatIds.slice(i, i + 500);
            const marks = part.map(() => '?').join(',');
            const [{ floor }] = await this.db.raw(`select min(id) as floor from chat_messages where chat_session_id in (${marks})`, part) as Array<{ floor: number | null }>;
            if (floor === null) {
                continue;
            }
            rows.push(...await this.db.raw(`select m.chat_session_id, m.seq, bm25(chat_messages_fts) as score
                from chat_messages_fts join chat_messages m on m.id = chat_messages_fts.rowid
                where chat_messages_fts match ? and chat_messages_fts.rowid >= ? and m.chat_session_id in (${marks})`, [this.match(terms), floor, ...part]));
        }
        return rows;
    }

    async matches(terms: string[], chatIds: number[]): Promise<Map<number, ChatMatch>> {
        const out = new Map<number, ChatMatch>();
        for (const r of await this.scored(terms, chatIds)) {
            // bm25 is lower for a better match (negative): turned around so that higher is better, as ts_rank.
            const score = -Number(r.score);
            const id = Number(r.chat_session_id);
            const seen = out.get(id);
            out.set(id, seen ? { score: Math.max(seen.score, score), firstSeq: Math.min(seen.firstSeq, Number(r.seq)) } : { score, firstSeq: Number(r.seq) });
        }
        return out;
    }
}

/** The search of the database `db` runs on. */
export function createMessageSearch(db: Db): MessageSearch {
    return db.client.config.client === 'pg' ? new PostgresMessageSearch(db) : new SqliteMessageSearch(db);
}
