import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * The staff console (issue 14): chat_sessions.agent_read_seq, the last message an agent of the store has read
 * (a chat's unread count is its customer messages after it), and the indexes of the History view: ended chats
 * by end time and by phone. Message search is a LIKE over chat_messages of the organization's chats in the
 * window, joined by chat_session_id (its unique index leads with that column).
 */
const migration: MigrationEntry = {
    name: '20261126000000-chat-console',

    async up(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.integer('agent_read_seq').notNullable().defaultTo(0);
            t.index(['organization_id', 'ended_at'], 'chat_sessions_org_ended_at_index');
            t.index(['organization_id', 'phone_number'], 'chat_sessions_org_phone_index');
        });
    },

    async down(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.dropIndex([], 'chat_sessions_org_ended_at_index');
            t.dropIndex([], 'chat_sessions_org_phone_index');
        });
        // Plain DROP COLUMN (see 20261123000000-chat-widget-session): knex's SQLite dropColumn rebuilds the table.
        await knex.raw('alter table chat_sessions drop column agent_read_seq');
    }
};

export default migration;
