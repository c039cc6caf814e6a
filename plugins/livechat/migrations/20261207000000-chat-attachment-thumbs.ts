import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * chat_attachments.thumb_key (issue 29): where a photo's thumbnail is stored (the same storage as the photo, disk or
 * S3): a rendition that fits in 400×400, WebP, without metadata, made at upload. Null for a PDF, and for every photo
 * uploaded before: those show the full photo as their thumbnail.
 */
const migration: MigrationEntry = {
    name: '20261207000000-chat-attachment-thumbs',

    async up(knex: Knex) {
        await knex.schema.alterTable('chat_attachments', (t) => {
            t.string('thumb_key', 100).nullable();
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table chat_attachments drop column thumb_key');
    }
};

export default migration;
