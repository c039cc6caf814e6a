import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * bot_instances.look_texts (issue 27): the widget's title and greeting per language, as JSON
 * (`{ "es": { "title": …, "greeting": … } }`); null: none, every language gets its catalogue's text (and the store's
 * default language the look's own title and greeting). The store's languages themselves live in organizations.settings.
 */
const migration: MigrationEntry = {
    name: '20261204000000-look-texts',

    async up(knex: Knex) {
        await knex.schema.alterTable('bot_instances', (t) => {
            t.text('look_texts').nullable();
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table bot_instances drop column look_texts');
    }
};

export default migration;
