import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * knowledge_entries.phrasings (issue 30, "learns from the store"): other ways customers ask for what an entry says,
 * one per line, written by staff or added in one click from the questions it answered. The agent reads them with the
 * entry's title and text; customers never see them. Null, as every existing entry: none.
 */
const migration: MigrationEntry = {
    name: '20261210000002-ai-knowledge-phrasings',

    async up(knex: Knex) {
        await knex.schema.alterTable('knowledge_entries', (t) => {
            t.text('phrasings').nullable();
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table knowledge_entries drop column phrasings');
    }
};

export default migration;
