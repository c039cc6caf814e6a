import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * Photos and files in live chat (issue 29): one row per uploaded file, in its chat, by the customer or an agent.
 * `file_id` is the random id the URLs name; `storage_key` where the bytes are (disk or S3); `message_id` the message
 * that carries it (null until sent: the sweep removes uploads never sent after FILES_UNSENT_MINUTES).
 */
const migration: MigrationEntry = {
    name: '20261204000000-chat-attachments',

    async up(knex: Knex) {
        await knex.schema.createTable('chat_attachments', (t) => {
            t.increments('id').primary();
            t.string('file_id', 64).notNullable().unique();
            organizationColumn(t);
            t.integer('chat_session_id').notNullable().references('id').inTable('chat_sessions').onDelete('CASCADE');
            t.bigInteger('message_id').nullable();
            t.string('uploader', 10).notNullable();             // customer | agent
            t.integer('uploader_user_id').nullable();
            t.string('mime', 40).notNullable();
            t.integer('size').notNullable();
            t.string('name', 120).notNullable();
            t.integer('width').nullable();
            t.integer('height').nullable();
            t.string('storage_key', 100).notNullable();
            timestamp(t, 'created_at');
            t.index(['chat_session_id', 'message_id']);
            t.index(['message_id']);
            t.index(['created_at']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['chat_attachments']);
    }
};

export default migration;
