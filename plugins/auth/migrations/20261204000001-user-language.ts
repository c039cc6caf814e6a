import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * users.language (issue 27): the language the staff app speaks to this agent (a BCP 47 tag of a shipped language),
 * set in the profile dialog. Null: the browser's languages decide, else English.
 */
const migration: MigrationEntry = {
    name: '20261204000001-user-language',

    async up(knex: Knex) {
        await knex.schema.alterTable('users', (t) => {
            t.string('language', 35).nullable();
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table users drop column language');
    }
};

export default migration;
