import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

const INDEX = 'chat_messages_message_trgm_index';

/**
 * On PostgreSQL, a trigram index over the lowercased message text, so the History view's `lower(message) like
 * '%words%'` search reads the index instead of every message (bench/history-search.ts). It needs the pg_trgm
 * extension (trusted since PostgreSQL 13: a database owner may create it). Where the extension cannot be created
 * the search still works, by a scan: the attempt runs in a savepoint and is skipped. SQLite has no such index.
 */
const migration: MigrationEntry = {
    name: '20261126010000-chat-message-search',

    async up(knex: Knex) {
        if (knex.client.config.client !== 'pg') {
            return;
        }
        try {
            await knex.transaction(async (savepoint) => {
                await savepoint.raw('create extension if not exists pg_trgm');
                const [{ schema }] = (await savepoint.raw(`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`)).rows as Array<{ schema: string }>;
                await savepoint.raw(`create index if not exists ${INDEX} on chat_messages using gin (lower(message) "${schema.replace(/"/g, '""')}".gin_trgm_ops)`);
            });
        }
        catch {
            // No pg_trgm here: the search scans, as on SQLite.
        }
    },

    async down(knex: Knex) {
        if (knex.client.config.client === 'pg') {
            await knex.raw(`drop index if exists ${INDEX}`);
        }
    }
};

export default migration;
