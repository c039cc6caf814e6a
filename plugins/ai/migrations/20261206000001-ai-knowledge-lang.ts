import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * knowledge_entries.lang (issue 27): the language a knowledge entry (title and content) is written in, a BCP 47 tag of
 * a shipped language. Null, as every existing entry: the store's default language. The AI agent answers from the
 * entries in the customer's language first, else from the default language's.
 */
const migration: MigrationEntry = {
    name: '20261206000001-ai-knowledge-lang',

    async up(knex: Knex) {
        await knex.schema.alterTable('knowledge_entries', (t) => {
            t.string('lang', 35).nullable();
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table knowledge_entries drop column lang');
    }
};

export default migration;
