import type { Knex } from 'knex';
import type { MigrationEntry } from '../migration-source';

/**
 * The whole data model of SPEC §3. Every tenant row carries organization_id. Timestamps are epoch
 * milliseconds (bigint) so that range filters and hour/day buckets are plain integer arithmetic on both
 * SQLite and PostgreSQL.
 */
const migration: MigrationEntry = {
    name: '20260101000000-initial',

    async up(knex: Knex) {
        const ts = (t: Knex.CreateTableBuilder, name: string, nullable = false) => {
            const col = t.bigInteger(name);
            return nullable ? col.nullable() : col.notNullable();
        };
        const org = (t: Knex.CreateTableBuilder) =>
            t.integer('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');

        await knex.schema.createTable('organizations', (t) => {
            t.increments('id');
            t.string('name', 200).notNullable();
            t.string('domain', 253).notNullable();
            t.string('subdomain', 63).notNullable().unique();
            t.string('subscription_plan', 50).notNullable().defaultTo('free');
            t.boolean('is_active').notNullable().defaultTo(true);
            t.text('extra_domains').nullable();          // JSON array of further registered domains (CORS)
            t.text('settings').nullable();               // JSON: store name, branding
            ts(t, 'created_at');
            ts(t, 'updated_at');
        });

        await knex.schema.createTable('bot_instances', (t) => {
            t.increments('id');
            org(t);
            t.string('name', 200).notNullable();
            t.text('description').nullable();
            t.string('public_key', 64).notNullable().unique();
            t.boolean('is_active').notNullable().defaultTo(true);
            ts(t, 'created_at');
            ts(t, 'updated_at');
            t.index(['organization_id']);
        });

        await knex.schema.createTable('users', (t) => {
            t.increments('id');
            t.integer('organization_id').nullable().references('id').inTable('organizations').onDelete('CASCADE');
            t.string('email', 320).notNullable().unique();
            t.string('name', 200).nullable();
            t.string('password_hash', 255).notNullable();
            t.string('role', 20).notNullable();          // super_admin | admin | org_user
            t.boolean('is_active').notNullable().defaultTo(true);
            t.integer('token_version').notNullable().defaultTo(0);
            ts(t, 'last_login_at', true);
            ts(t, 'created_at');
            ts(t, 'updated_at');
            t.index(['organization_id', 'role']);
        });

        await knex.schema.createTable('loyalty_customers', (t) => {
            t.increments('id');
            org(t);
            t.string('phone', 20).notNullable();         // E.164
            t.string('name', 200).nullable();
            t.string('email', 320).nullable();
            t.string('loyalty_id', 100).nullable();
            t.integer('points').notNullable().defaultTo(0);
            ts(t, 'created_at');
            ts(t, 'updated_at');
            t.unique(['organization_id', 'phone']);
        });

        await knex.schema.createTable('loyalty_orders', (t) => {
            t.increments('id');
            org(t);
            t.integer('customer_id').notNullable().references('id').inTable('loyalty_customers').onDelete('CASCADE');
            t.string('order_ref', 100).nullable();
            t.string('product_name', 300).notNullable();
            t.integer('quantity').notNullable().defaultTo(1);
            t.integer('price_cents').notNullable().defaultTo(0);
            ts(t, 'order_date');
            t.index(['organization_id', 'customer_id', 'order_date']);
        });

        await knex.schema.createTable('verification_codes', (t) => {
            t.increments('id');
            org(t);
            t.string('phone', 20).notNullable();
            t.string('code_hash', 128).notNullable();
            t.string('session_id', 100).nullable();
            t.string('ip', 64).nullable();
            t.integer('attempts').notNullable().defaultTo(0);
            ts(t, 'expires_at');
            ts(t, 'consumed_at', true);
            ts(t, 'created_at');
            t.index(['organization_id', 'phone', 'created_at']);
        });

        await knex.schema.createTable('widget_sessions', (t) => {
            t.increments('id');
            org(t);
            t.integer('bot_instance_id').nullable().references('id').inTable('bot_instances').onDelete('SET NULL');
            t.string('session_id', 100).notNullable();
            t.string('domain', 253).nullable();
            t.string('verified_phone', 20).nullable();
            ts(t, 'verified_at', true);
            ts(t, 'created_at');
            ts(t, 'last_seen_at');
            t.unique(['organization_id', 'session_id']);
        });

        await knex.schema.createTable('analytics_events', (t) => {
            t.bigIncrements('id');
            org(t);
            t.integer('bot_instance_id').nullable();
            t.string('session_id', 100).nullable();
            t.string('action', 50).notNullable();
            t.string('phone_number', 20).nullable();
            t.boolean('success').nullable();
            t.text('error_message').nullable();
            t.integer('points_retrieved').nullable();
            t.integer('question_id').nullable();
            t.string('domain', 253).nullable();
            ts(t, 'created_at');
            t.index(['organization_id', 'created_at']);
            t.index(['organization_id', 'action', 'created_at']);
            t.index(['organization_id', 'phone_number', 'created_at']);
            t.index(['organization_id', 'domain', 'created_at']);
            t.index(['organization_id', 'session_id']);
        });

        await knex.schema.createTable('chat_sessions', (t) => {
            t.increments('id');
            org(t);
            t.integer('bot_instance_id').nullable();
            t.string('session_id', 100).notNullable();
            t.string('phone_number', 20).notNullable().defaultTo('Unknown');
            t.string('status', 30).notNullable();       // waiting | agent_connected | completed | failed_to_respond | no_interaction | ...
            t.text('customer_message').nullable();       // the first message (firstMessage)
            t.string('domain', 253).nullable();
            t.integer('agent_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
            t.integer('last_seq').notNullable().defaultTo(0);
            t.boolean('is_starred').notNullable().defaultTo(false);
            t.boolean('is_archived').notNullable().defaultTo(false);
            t.string('ended_by', 20).nullable();         // agent | customer | system
            t.string('end_reason', 100).nullable();
            ts(t, 'created_at');
            ts(t, 'accepted_at', true);
            ts(t, 'ended_at', true);
            ts(t, 'updated_at');
            t.unique(['organization_id', 'session_id']);
            t.index(['organization_id', 'status', 'created_at']);
            t.index(['organization_id', 'created_at']);
        });

        await knex.schema.createTable('chat_messages', (t) => {
            t.bigIncrements('id');
            org(t);
            t.integer('chat_session_id').notNullable().references('id').inTable('chat_sessions').onDelete('CASCADE');
            t.integer('seq').notNullable();
            t.string('sender', 20).notNullable();        // customer | agent | system
            t.integer('sender_user_id').nullable();
            t.text('message').notNullable();
            t.string('client_message_id', 100).nullable();
            ts(t, 'created_at');
            t.unique(['chat_session_id', 'seq']);
            t.unique(['chat_session_id', 'sender', 'client_message_id']);
        });

        await knex.schema.createTable('agent_presence', (t) => {
            t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
            org(t);
            t.boolean('available').notNullable().defaultTo(false);
            t.integer('connections').notNullable().defaultTo(0);
            ts(t, 'last_seen_at');
            t.index(['organization_id', 'available']);
        });

        await knex.schema.createTable('premade_questions', (t) => {
            t.increments('id');
            org(t);
            t.text('question').notNullable();
            t.text('answer').notNullable();
            t.boolean('is_active').notNullable().defaultTo(true);
            t.integer('sort_order').notNullable().defaultTo(0);
            ts(t, 'created_at');
            ts(t, 'updated_at');
            t.index(['organization_id', 'sort_order']);
        });

        await knex.schema.createTable('knowledge_entries', (t) => {
            t.increments('id');
            org(t);
            t.string('title', 300).notNullable();
            t.text('content').notNullable();
            t.boolean('is_active').notNullable().defaultTo(true);
            ts(t, 'created_at');
            ts(t, 'updated_at');
            t.index(['organization_id']);
        });

        await knex.schema.createTable('ai_chat_history', (t) => {
            t.increments('id');
            org(t);
            t.string('session_id', 100).nullable();
            t.string('phone_number', 20).nullable();
            t.string('domain', 253).nullable();
            t.text('user_question').notNullable();
            t.text('ai_response').notNullable();
            t.boolean('is_resolved').notNullable().defaultTo(false);
            t.string('fallback_action', 50).nullable();
            ts(t, 'created_at');
            t.index(['organization_id', 'is_resolved', 'created_at']);
        });

        await knex.schema.createTable('ai_function_calls', (t) => {
            t.bigIncrements('id');
            org(t);
            t.string('session_id', 100).nullable();
            t.string('function_name', 100).notNullable();
            t.boolean('success').notNullable().defaultTo(true);
            ts(t, 'created_at');
            t.index(['organization_id', 'created_at']);
        });

        await knex.schema.createTable('ai_agent_settings', (t) => {
            t.integer('organization_id').primary().references('id').inTable('organizations').onDelete('CASCADE');
            t.boolean('is_enabled').notNullable().defaultTo(true);
            ts(t, 'updated_at');
        });

        await knex.schema.createTable('email_settings', (t) => {
            t.integer('organization_id').primary().references('id').inTable('organizations').onDelete('CASCADE');
            t.boolean('email_notifications_enabled').notNullable().defaultTo(false);
            t.string('email_recipient', 320).nullable();
            ts(t, 'updated_at');
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
            ts(t, 'created_at');
            t.index(['to_phone', 'created_at']);
        });

        await knex.schema.createTable('email_outbox', (t) => {
            t.increments('id');
            t.integer('organization_id').nullable().references('id').inTable('organizations').onDelete('CASCADE');
            t.string('to_address', 320).notNullable();
            t.string('subject', 300).notNullable();
            t.text('body_text').notNullable();
            t.text('body_html').nullable();
            t.string('transport', 20).notNullable();
            t.string('status', 20).notNullable();        // stored | sent | failed
            t.text('error').nullable();
            ts(t, 'created_at');
            t.index(['created_at']);
        });
    },

    async down(knex: Knex) {
        for (const table of [
            'email_outbox', 'sms_outbox', 'email_settings', 'ai_agent_settings', 'ai_function_calls',
            'ai_chat_history', 'knowledge_entries', 'premade_questions', 'agent_presence', 'chat_messages',
            'chat_sessions', 'analytics_events', 'widget_sessions', 'verification_codes', 'loyalty_orders',
            'loyalty_customers', 'users', 'bot_instances', 'organizations'
        ]) {
            await knex.schema.dropTableIfExists(table);
        }
    }
};

export default migration;
