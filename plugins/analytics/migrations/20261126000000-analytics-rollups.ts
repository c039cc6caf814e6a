import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * Rollups of analytics_events, kept by the ingest job in the transaction that stores the events, bucketed in
 * the organization's time zone: hourly and daily counts per domain and action (summary, hourly, daily,
 * domains), per phone and day (phone list), per question and day (question usage), and one row per phone
 * with its latest activity and the cached loyalty customer lookup. `loyalty-chat analytics rebuild`
 * recomputes them from the raw events. Also: analytics_events.phone_valid (false when a failed verification
 * kept a number that is not a possible phone number).
 */
const migration: MigrationEntry = {
    name: '20261126000000-analytics-rollups',

    async up(knex: Knex) {
        await knex.schema.alterTable('analytics_events', (t) => {
            t.boolean('phone_valid').nullable();
        });
        await knex.schema.createTable('analytics_hourly', (t) => {
            organizationColumn(t);
            t.string('hour', 13).notNullable();          // local 'YYYY-MM-DDTHH'
            t.string('domain', 253).notNullable();       // '' when the event named none
            t.string('action', 50).notNullable();
            t.integer('events').notNullable();
            t.integer('successes').notNullable();       // success true
            t.integer('failures').notNullable();        // success false
            t.primary(['organization_id', 'hour', 'domain', 'action']);
        });
        await knex.schema.createTable('analytics_daily', (t) => {
            organizationColumn(t);
            t.string('day', 10).notNullable();           // local 'YYYY-MM-DD'
            t.string('domain', 253).notNullable();
            t.string('action', 50).notNullable();
            t.integer('events').notNullable();
            t.integer('successes').notNullable();
            t.integer('failures').notNullable();
            t.primary(['organization_id', 'day', 'domain', 'action']);
        });
        await knex.schema.createTable('analytics_phone_daily', (t) => {
            organizationColumn(t);
            t.string('day', 10).notNullable();
            t.string('phone_number', 20).notNullable();
            t.integer('events').notNullable();
            t.integer('successes').notNullable();        // points shown
            t.integer('failures').notNullable();         // failed sends and wrong codes
            t.integer('last_points').nullable();
            timestamp(t, 'last_points_at', true);
            timestamp(t, 'last_activity');
            t.primary(['organization_id', 'day', 'phone_number']);
            t.index(['organization_id', 'phone_number', 'day']);
        });
        await knex.schema.createTable('analytics_phones', (t) => {
            organizationColumn(t);
            t.string('phone_number', 20).notNullable();
            timestamp(t, 'first_seen');
            timestamp(t, 'last_activity');
            t.text('lookup').nullable();                 // JSON of the loyalty customer lookup (SPEC §3)
            timestamp(t, 'lookup_at', true);
            t.primary(['organization_id', 'phone_number']);
            t.index(['organization_id', 'last_activity']);
        });
        await knex.schema.createTable('analytics_question_daily', (t) => {
            organizationColumn(t);
            t.string('day', 10).notNullable();
            t.integer('question_id').notNullable();
            t.integer('events').notNullable();
            t.primary(['organization_id', 'day', 'question_id']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['analytics_question_daily', 'analytics_phones', 'analytics_phone_daily', 'analytics_daily', 'analytics_hourly']);
        await knex.raw('alter table analytics_events drop column phone_valid');
    }
};

export default migration;
