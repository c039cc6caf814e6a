import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * chat_sessions.widget_session_id: the widget session a chat belongs to (a later chat of the same widget
 * session has the id `…~N`), so create-session finds them by equality instead of a LIKE pattern that a
 * client's `_` or `%` could widen to other customers' chats.
 */
const migration: MigrationEntry = {
    name: '20261123000000-chat-widget-session',

    async up(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.string('widget_session_id', 100).nullable();
        });
        const rows = await knex('chat_sessions').select('id', 'session_id');
        for (const row of rows as Array<{ id: number; session_id: string }>) {
            const base = /^(.*)~[1-9][0-9]*$/.exec(row.session_id)?.[1] ?? row.session_id;
            await knex('chat_sessions').where('id', row.id).update({ widget_session_id: base });
        }
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.index(['organization_id', 'widget_session_id']);
        });
    },

    async down(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.dropIndex(['organization_id', 'widget_session_id']);
        });
        // Plain DROP COLUMN (SQLite 3.35+ and PostgreSQL): knex's SQLite dropColumn copies the table, drops it and
        // renames the copy, and dropping chat_sessions cascades to every chat message.
        await knex.raw('alter table chat_sessions drop column widget_session_id');
    }
};

export default migration;
