import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/** The text search configuration of the History search on PostgreSQL: 'simple' (no stemming), accents folded. */
export const PG_SEARCH_CONFIG = 'lc_search';
const PG_INDEX = 'chat_messages_search_vector_index';
const TRGM_INDEX = 'chat_messages_message_trgm_index';

/**
 * Full-text search over chat messages for the History view (issue 28), replacing the LIKE search and its trigram index.
 *
 * PostgreSQL: a stored generated column `search_vector = to_tsvector('lc_search', message)` with a GIN index (adding
 * the column fills it for every existing message: the backfill). `lc_search` is a copy of 'simple' whose word tokens go
 * through `unaccent` first (the extension, trusted since PostgreSQL 13; created in public by the test servers like
 * pg_trgm; where it cannot be created the configuration is plain 'simple' and accents count).
 * Why 'simple' and not the store's language ('spanish', 'french'…): a chat is written in the customer's language, not
 * necessarily the store's, and a store can change its language, so a per-store stemmer would be wrong for some rows
 * and a per-row configuration (a regconfig column) would make the query depend on each row's configuration (one
 * tsquery per language OR-ed, or no index use). SQLite's FTS5 has no Snowball stemmers for es/fr/pt/de either, so
 * both databases would answer differently. Instead every query word is a prefix (`refund` finds refunds, refunded;
 * `envio` finds envíos), which gives most of what suffix stemming gives, the same on both databases.
 *
 * SQLite: an external-content FTS5 table over chat_messages (rowid = chat_messages.id; unicode61 with diacritics
 * removed, case folded; prefix indexes for 2 and 3 characters), kept in sync by triggers on insert, delete (also the
 * cascade from a chat, erasure and retention) and update of the text, and rebuilt from the existing messages here.
 * Note for later migrations: a knex alterTable on chat_messages in SQLite copies the table and drops its triggers;
 * recreate them (sqliteTriggers below) after one.
 */
export const sqliteTriggers = [
    `create trigger chat_messages_fts_insert after insert on chat_messages begin
        insert into chat_messages_fts (rowid, message) values (new.id, new.message); end`,
    `create trigger chat_messages_fts_delete after delete on chat_messages begin
        insert into chat_messages_fts (chat_messages_fts, rowid, message) values ('delete', old.id, old.message); end`,
    `create trigger chat_messages_fts_update after update of message on chat_messages begin
        insert into chat_messages_fts (chat_messages_fts, rowid, message) values ('delete', old.id, old.message);
        insert into chat_messages_fts (rowid, message) values (new.id, new.message); end`
];

async function extensionSchema(knex: Knex, name: string): Promise<string | null> {
    const rows = (await knex.raw(`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ?`, [name])).rows as Array<{ schema: string }>;
    return rows[0]?.schema ?? null;
}

const migration: MigrationEntry = {
    name: '20261204020000-chat-message-fulltext',

    async up(knex: Knex) {
        if (knex.client.config.client === 'pg') {
            try {
                await knex.transaction(async (savepoint) => {
                    await savepoint.raw('create extension if not exists unaccent');
                });
            }
            catch {
                // No unaccent here: accents count in the search.
            }
            const unaccent = await extensionSchema(knex, 'unaccent');
            await knex.raw(`create text search configuration ${PG_SEARCH_CONFIG} (copy = pg_catalog.simple)`);
            if (unaccent) {
                await knex.raw(`alter text search configuration ${PG_SEARCH_CONFIG} alter mapping for
                    asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
                    with "${unaccent.replace(/"/g, '""')}".unaccent, pg_catalog.simple`);
            }
            await knex.raw(`alter table chat_messages add column search_vector tsvector
                generated always as (to_tsvector('${PG_SEARCH_CONFIG}'::regconfig, message)) stored`);
            await knex.raw(`create index ${PG_INDEX} on chat_messages using gin (search_vector)`);
            await knex.raw(`drop index if exists ${TRGM_INDEX}`);
            return;
        }
        await knex.raw(`create virtual table chat_messages_fts using fts5(message, content = 'chat_messages', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`);
        for (const trigger of sqliteTriggers) {
            await knex.raw(trigger);
        }
        await knex.raw(`insert into chat_messages_fts (chat_messages_fts) values ('rebuild')`);
    },

    async down(knex: Knex) {
        if (knex.client.config.client === 'pg') {
            await knex.raw(`drop index if exists ${PG_INDEX}`);
            await knex.raw('alter table chat_messages drop column if exists search_vector');
            await knex.raw(`drop text search configuration if exists ${PG_SEARCH_CONFIG}`);
            const trgm = await extensionSchema(knex, 'pg_trgm');
            if (trgm) {
                await knex.raw(`create index if not exists ${TRGM_INDEX} on chat_messages using gin (lower(message) "${trgm.replace(/"/g, '""')}".gin_trgm_ops)`);
            }
            return;
        }
        for (const name of ['insert', 'delete', 'update']) {
            await knex.raw(`drop trigger if exists chat_messages_fts_${name}`);
        }
        await knex.raw('drop table if exists chat_messages_fts');
    }
};

export default migration;
