import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * The livechat plugin's tables as loyalty-chat 0.1.0 created them in core's single initial migration: live chat sessions and messages, agent presence, transcript settings and the email outbox.
 * `replaces` lets a 0.1.0 database, which has these tables already, adopt this migration without running it.
 */
const migration: MigrationEntry = {
    name: '20260101000004-livechat',
    replaces: '20260101000000-initial',

    async up(knex: Knex) {
        await knex.schema.createTable('chat_sessions', (t) => {
            t.increments('id');
            organizationColumn(t);
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
            timestamp(t, 'created_at');
            timestamp(t, 'accepted_at', true);
            timestamp(t, 'ended_at', true);
            timestamp(t, 'updated_at');
            t.unique(['organization_id', 'session_id']);
            t.index(['organization_id', 'status', 'created_at']);
            t.index(['organization_id', 'created_at']);
        });
        await knex.schema.createTable('chat_messages', (t) => {
            t.bigIncrements('id');
            organizationColumn(t);
            t.integer('chat_session_id').notNullable().references('id').inTable('chat_sessions').onDelete('CASCADE');
            t.integer('seq').notNullable();
            t.string('sender', 20).notNullable();        // customer | agent | system
            t.integer('sender_user_id').nullable();
            t.text('message').notNullable();
            t.string('client_message_id', 100).nullable();
            timestamp(t, 'created_at');
            t.unique(['chat_session_id', 'seq']);
            t.unique(['chat_session_id', 'sender', 'client_message_id']);
        });
        await knex.schema.createTable('agent_presence', (t) => {
            t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
            organizationColumn(t);
            t.boolean('available').notNullable().defaultTo(false);
            t.integer('connections').notNullable().defaultTo(0);
            timestamp(t, 'last_seen_at');
            t.index(['organization_id', 'available']);
        });
        await knex.schema.createTable('email_settings', (t) => {
            t.integer('organization_id').primary().references('id').inTable('organizations').onDelete('CASCADE');
            t.boolean('email_notifications_enabled').notNullable().defaultTo(false);
            t.string('email_recipient', 320).nullable();
            timestamp(t, 'updated_at');
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
            timestamp(t, 'created_at');
            t.index(['created_at']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['email_outbox', 'email_settings', 'agent_presence', 'chat_messages', 'chat_sessions']);
    }
};

export default migration;
