import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * ai_text_meanings (issue 30): the sentence meanings of a store's answer sources (each knowledge entry's and pre-made
 * question's title, whole text and sentences), kept by the text's SHA-256 and the encoder that made them. A node that
 * starts, or a second node behind the load balancer, reads them instead of encoding the store again (about 87 s of CPU
 * for 1,000 entries). The store's content only: a customer's question is never kept here.
 */
const migration: MigrationEntry = {
    name: '20261210000000-ai-text-meanings',

    async up(knex: Knex) {
        await knex.schema.createTable('ai_text_meanings', (t) => {
            organizationColumn(t);
            t.string('model', 100).notNullable();
            t.string('text_hash', 64).notNullable();
            t.binary('vector').notNullable();
            timestamp(t, 'created_at');
            t.primary(['organization_id', 'model', 'text_hash']);
        });
    },

    async down(knex: Knex) {
        await knex.schema.dropTableIfExists('ai_text_meanings');
    }
};

export default migration;
