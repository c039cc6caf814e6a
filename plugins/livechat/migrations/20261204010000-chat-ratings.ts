import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * Ratings after a chat (issue 28): at most one per chat (the unique chat_session_id makes a second one a conflict on
 * every node), its score 1–5 and the customer's optional comment, the agent who had the chat when it was rated (the
 * per-agent report), and whether it came from the widget or the mailed link. It goes with its chat (export, erasure,
 * retention: services/personal-data.ts).
 */
const migration: MigrationEntry = {
    name: '20261204010000-chat-ratings',

    async up(knex: Knex) {
        await knex.schema.createTable('chat_ratings', (t) => {
            t.increments('id').primary();
            organizationColumn(t);
            t.integer('chat_session_id').notNullable().unique().references('id').inTable('chat_sessions').onDelete('CASCADE');
            t.integer('agent_user_id').nullable();
            t.integer('score').notNullable();
            t.text('comment').nullable();
            t.string('source', 8).notNullable();            // widget | mail
            timestamp(t, 'created_at');
            t.index(['organization_id', 'created_at']);
        });
        // Which chats were asked by mail (once per chat): the link's nonce, so a link is single-purpose.
        await knex.schema.alterTable('chat_sessions', (t) => {
            timestamp(t, 'rating_mailed_at', true);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['chat_ratings']);
        await knex.raw('alter table chat_sessions drop column rating_mailed_at');
    }
};

export default migration;
