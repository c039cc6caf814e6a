import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * The loyalty plugin's tables as loyalty-chat 0.1.0 created them in core's single initial migration: the built-in loyalty provider, one-time codes, verified widget sessions and the SMS outbox.
 * `replaces` lets a 0.1.0 database, which has these tables already, adopt this migration without running it.
 */
const migration: MigrationEntry = {
    name: '20260101000002-loyalty',
    replaces: '20260101000000-initial',

    async up(knex: Knex) {
        await knex.schema.createTable('loyalty_customers', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.string('phone', 20).notNullable();         // E.164
            t.string('name', 200).nullable();
            t.string('email', 320).nullable();
            t.string('loyalty_id', 100).nullable();
            t.integer('points').notNullable().defaultTo(0);
            timestamp(t, 'created_at');
            timestamp(t, 'updated_at');
            t.unique(['organization_id', 'phone']);
        });
        await knex.schema.createTable('loyalty_orders', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.integer('customer_id').notNullable().references('id').inTable('loyalty_customers').onDelete('CASCADE');
            t.string('order_ref', 100).nullable();
            t.string('product_name', 300).notNullable();
            t.integer('quantity').notNullable().defaultTo(1);
            t.integer('price_cents').notNullable().defaultTo(0);
            timestamp(t, 'order_date');
            t.index(['organization_id', 'customer_id', 'order_date']);
        });
        await knex.schema.createTable('verification_codes', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.string('phone', 20).notNullable();
            t.string('code_hash', 128).notNullable();
            t.string('session_id', 100).nullable();
            t.string('ip', 64).nullable();
            t.integer('attempts').notNullable().defaultTo(0);
            timestamp(t, 'expires_at');
            timestamp(t, 'consumed_at', true);
            timestamp(t, 'created_at');
            t.index(['organization_id', 'phone', 'created_at']);
        });
        await knex.schema.createTable('widget_sessions', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.integer('bot_instance_id').nullable().references('id').inTable('bot_instances').onDelete('SET NULL');
            t.string('session_id', 100).notNullable();
            t.string('domain', 253).nullable();
            t.string('verified_phone', 20).nullable();
            timestamp(t, 'verified_at', true);
            timestamp(t, 'created_at');
            timestamp(t, 'last_seen_at');
            t.unique(['organization_id', 'session_id']);
        });
        await knex.schema.createTable('sms_outbox', (t) => {
            t.increments('id');
            t.integer('organization_id').nullable().references('id').inTable('organizations').onDelete('CASCADE');
            t.string('to_phone', 20).notNullable();
            t.text('body').notNullable();
            t.string('provider', 20).notNullable();
            t.string('status', 20).notNullable();        // stored | sent | failed
            t.text('error').nullable();
            t.string('provider_ref', 100).nullable();
            timestamp(t, 'created_at');
            t.index(['to_phone', 'created_at']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['sms_outbox', 'widget_sessions', 'verification_codes', 'loyalty_orders', 'loyalty_customers']);
    }
};

export default migration;
