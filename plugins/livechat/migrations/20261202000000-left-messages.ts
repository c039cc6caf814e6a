import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/** The reply address the old system line named: 'Offline message: no agent was available. Reply to jo@example.test'. */
const NOTE = /Reply to (\S+@\S+)\s*$/;

/**
 * Left messages are conversations (issue 23, DESIGN §9): a message left with the widget's form when no agent was
 * available is a row of chat_sessions of `kind` 'left_message' (live chats are 'chat'), with the customer's
 * email, name, page and language, and an inbox state ('open' until an agent marks it done; null for live chats). Its thread
 * is its chat_messages: the customer's message, then the agents' replies (each one mailed to the customer).
 * Live chats also keep the page they came from (page_url). email_outbox.reply_to records a mail's Reply-To.
 *
 * Existing rows are kept: the left messages earlier versions filed (no_interaction, end reason offline_message)
 * become left messages, marked done and read (the store had them by mail already), with the reply address read
 * back from their system line, so they can still be answered from the console.
 */
const migration: MigrationEntry = {
    name: '20261202000000-left-messages',

    async up(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.string('kind', 20).notNullable().defaultTo('chat');
            t.string('customer_email', 254).nullable();
            t.string('customer_name', 100).nullable();
            t.string('page_url', 2000).nullable();
            t.string('inbox_state', 10).nullable();
            t.string('lang', 35).nullable();
            t.index(['organization_id', 'kind', 'inbox_state', 'created_at'], 'chat_sessions_org_kind_state_index');
        });
        await knex.schema.alterTable('email_outbox', (t) => {
            t.string('reply_to', 320).nullable();
        });
        await knex('chat_sessions').where('end_reason', 'offline_message')
            .update({ kind: 'left_message', inbox_state: 'done', agent_read_seq: knex.ref('last_seq') });
        // The reply address, from each one's system line, in batches (both databases, any number of rows).
        let after = 0;
        for (;;) {
            const notes = await knex('chat_messages')
                .select('chat_messages.id', 'chat_messages.chat_session_id', 'chat_messages.message')
                .join('chat_sessions', 'chat_sessions.id', 'chat_messages.chat_session_id')
                .where('chat_sessions.kind', 'left_message').where('chat_messages.sender', 'system')
                .where('chat_messages.client_message_id', 'offline-note').where('chat_messages.id', '>', after)
                .orderBy('chat_messages.id', 'asc').limit(500) as Array<{ id: number | string; chat_session_id: number; message: string }>;
            if (!notes.length) {
                break;
            }
            for (const note of notes) {
                const email = NOTE.exec(note.message)?.[1];
                if (email && email.length <= 254) {
                    await knex('chat_sessions').where('id', note.chat_session_id).whereNull('customer_email').update({ customer_email: email });
                }
            }
            after = Number(notes[notes.length - 1].id);
        }
    },

    async down(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.dropIndex([], 'chat_sessions_org_kind_state_index');
        });
        // Plain DROP COLUMN (see 20261123000000-chat-widget-session): knex's SQLite dropColumn rebuilds the table.
        for (const column of ['kind', 'customer_email', 'customer_name', 'page_url', 'inbox_state', 'lang']) {
            await knex.raw(`alter table chat_sessions drop column ${column}`);
        }
        await knex.raw('alter table email_outbox drop column reply_to');
    }
};

export default migration;
