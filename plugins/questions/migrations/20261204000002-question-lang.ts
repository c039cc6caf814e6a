import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * premade_questions.lang (issue 27): the language a question (label and answer) is written in, a BCP 47 tag of a
 * shipped language. Null, as every existing question: the store's default language. The widget shows the questions of
 * the customer's language, else the default language's.
 */
const migration: MigrationEntry = {
    name: '20261204000002-question-lang',

    async up(knex: Knex) {
        await knex.schema.alterTable('premade_questions', (t) => {
            t.string('lang', 35).nullable();
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table premade_questions drop column lang');
    }
};

export default migration;
