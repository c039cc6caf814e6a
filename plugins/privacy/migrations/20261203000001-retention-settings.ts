import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, timestamp } from '../../../core/db/schema';

/**
 * Retention per store (issue 25): how many days each kind of data is kept (null: forever). No row: the defaults.
 * The store is a plain number (its row goes with the store through the retention job's own check, not a reference
 * into another plugin's table).
 */
const migration: MigrationEntry = {
    name: '20261203000001-retention-settings',

    async up(knex: Knex) {
        await knex.schema.createTable('retention_settings', (t) => {
            t.integer('organization_id').primary();
            for (const kind of ['chats', 'ai', 'verifications', 'analytics', 'mail', 'audit']) {
                t.integer(`${kind}_days`).nullable();
            }
            timestamp(t, 'updated_at');
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['retention_settings']);
    }
};

export default migration;
