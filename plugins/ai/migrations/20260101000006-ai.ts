import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * The ai plugin's tables as loyalty-chat 0.1.0 created them in core's single initial migration: the AI agent: knowledge entries, chat history, tool calls and settings.
 * `replaces` lets a 0.1.0 database, which has these tables already, adopt this migration without running it.
 */
const migration: MigrationEntry = {
    name: '20260101000006-ai',
    replaces: '20260101000000-initial',

    async up(knex: Knex) {
        await knex.schema.createTable('knowledge_entries', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.string('title', 300).notNullable();
            t.text('content').notNullable();
            t.boolean('is_active').notNullable().defaultTo(true);
            timestamp(t, 'created_at');
            timestamp(t, 'updated_at');
            t.index(['organization_id']);
        });
        await knex.schema.createTable('ai_chat_history', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.string('session_id', 100).nullable();
            t.string('phone_number', 20).nullable();
            t.string('domain', 253).nullable();
            t.text('user_question').notNullable();
            t.text('ai_response').notNullable();
            t.boolean('is_resolved').notNullable().defaultTo(false);
            t.string('fallback_action', 50).nullable();
            timestamp(t, 'created_at');
            t.index(['organization_id', 'is_resolved', 'created_at']);
        });
        await knex.schema.createTable('ai_function_calls', (t) => {
            t.bigIncrements('id');
            organizationColumn(t);
            t.string('session_id', 100).nullable();
            t.string('function_name', 100).notNullable();
            t.boolean('success').notNullable().defaultTo(true);
            timestamp(t, 'created_at');
            t.index(['organization_id', 'created_at']);
        });
        await knex.schema.createTable('ai_agent_settings', (t) => {
            t.integer('organization_id').primary().references('id').inTable('organizations').onDelete('CASCADE');
            t.boolean('is_enabled').notNullable().defaultTo(true);
            timestamp(t, 'updated_at');
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['ai_agent_settings', 'ai_function_calls', 'ai_chat_history', 'knowledge_entries']);
    }
};

export default migration;
