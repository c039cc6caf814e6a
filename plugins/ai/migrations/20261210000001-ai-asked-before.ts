import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * ai_chat_history.asked_before (issue 30): on an answer the customer picked among the agent's suggestions, the question
 * the agent did not know just before. Staff see it under the entry that answered ("questions it answered"): the words
 * customers use for what that entry says. Null on every other answer, and on every row from before.
 */
const migration: MigrationEntry = {
    name: '20261210000001-ai-asked-before',

    async up(knex: Knex) {
        await knex.schema.alterTable('ai_chat_history', (t) => {
            t.text('asked_before').nullable();
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table ai_chat_history drop column asked_before');
    }
};

export default migration;
