import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, timestamp } from '../../../core/db/schema';

/**
 * Support hours (issue 26): one row per store that set them (no row: always open), the schedule as JSON text
 * (weekly ranges, dated exceptions; core/shared/support-hours.ts reads it) and what the widget does when closed.
 * No personal data. And the index the customer's typical wait reads (the last accepted chats of a store).
 */
const migration: MigrationEntry = {
    name: '20261203000000-support-hours',

    async up(knex: Knex) {
        await knex.schema.createTable('support_hours', (t) => {
            t.integer('organization_id').primary().references('id').inTable('organizations').onDelete('CASCADE');
            t.text('weekly').notNullable();
            t.text('exceptions').notNullable();
            t.string('when_closed', 20).notNullable();
            timestamp(t, 'updated_at');
        });
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.index(['organization_id', 'accepted_at'], 'chat_sessions_org_accepted_index');
        });
    },

    async down(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.dropIndex([], 'chat_sessions_org_accepted_index');
        });
        await dropTables(knex, ['support_hours']);
    }
};

export default migration;
