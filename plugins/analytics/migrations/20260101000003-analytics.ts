import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * The analytics plugin's tables as loyalty-chat 0.1.0 created them in core's single initial migration: widget analytics events.
 * `replaces` lets a 0.1.0 database, which has these tables already, adopt this migration without running it.
 */
const migration: MigrationEntry = {
    name: '20260101000003-analytics',
    replaces: '20260101000000-initial',

    async up(knex: Knex) {
        await knex.schema.createTable('analytics_events', (t) => {
            t.bigIncrements('id');
            organizationColumn(t);
            t.integer('bot_instance_id').nullable();
            t.string('session_id', 100).nullable();
            t.string('action', 50).notNullable();
            t.string('phone_number', 20).nullable();
            t.boolean('success').nullable();
            t.text('error_message').nullable();
            t.integer('points_retrieved').nullable();
            t.integer('question_id').nullable();
            t.string('domain', 253).nullable();
            timestamp(t, 'created_at');
            t.index(['organization_id', 'created_at']);
            t.index(['organization_id', 'action', 'created_at']);
            t.index(['organization_id', 'phone_number', 'created_at']);
            t.index(['organization_id', 'domain', 'created_at']);
            t.index(['organization_id', 'session_id']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['analytics_events']);
    }
};

export default migration;
