import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * The tenants plugin's tables as loyalty-chat 0.1.0 created them in core's single initial migration: organizations and bot instances (tenants).
 * `replaces` lets a 0.1.0 database, which has these tables already, adopt this migration without running it.
 */
const migration: MigrationEntry = {
    name: '20260101000000-tenants',
    replaces: '20260101000000-initial',

    async up(knex: Knex) {
        await knex.schema.createTable('organizations', (t) => {
            t.increments('id');
            t.string('name', 200).notNullable();
            t.string('domain', 253).notNullable();
            t.string('subdomain', 63).notNullable().unique();
            t.string('subscription_plan', 50).notNullable().defaultTo('free');
            t.boolean('is_active').notNullable().defaultTo(true);
            t.text('extra_domains').nullable();          // JSON array of further registered domains (CORS)
            t.text('settings').nullable();               // JSON: store name, branding
            timestamp(t, 'created_at');
            timestamp(t, 'updated_at');
        });
        await knex.schema.createTable('bot_instances', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.string('name', 200).notNullable();
            t.text('description').nullable();
            t.string('public_key', 64).notNullable().unique();
            t.boolean('is_active').notNullable().defaultTo(true);
            timestamp(t, 'created_at');
            timestamp(t, 'updated_at');
            t.index(['organization_id']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['bot_instances', 'organizations']);
    }
};

export default migration;
