import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * Which source answered each AI answer (issue 30, "learns from the store"): the knowledge entry, pre-made question or
 * the store's information the built-in agent (or the model, citing retrieval) answered from, and its title then. The
 * admin sees which entries answered which questions and how often. Rows from before stay without (null).
 */
const migration: MigrationEntry = {
    name: '20261203000000-ai-answered-from',

    async up(knex: Knex) {
        await knex.schema.alterTable('ai_chat_history', (t) => {
            t.string('source_kind', 12).nullable();
            t.integer('source_id').nullable();
            t.string('source_title', 300).nullable();
            t.index(['organization_id', 'source_kind', 'source_id']);
        });
    },

    async down(knex: Knex) {
        await knex.schema.alterTable('ai_chat_history', (t) => {
            t.dropIndex(['organization_id', 'source_kind', 'source_id']);
        });
        for (const column of ['source_title', 'source_id', 'source_kind']) {
            await knex.raw(`alter table ai_chat_history drop column ${column}`);
        }
    }
};

export default migration;
