import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * organizations.country: the store's country (ISO 3166-1 alpha-2, default US), for phone numbers a customer types
 * without their country code ("555-555-0100", "612 34 56 78"): the widget's message decision finds them in that
 * country (plugins/conversation), and staff screens can show numbers in its national format.
 */
const migration: MigrationEntry = {
    name: '20261201000000-organization-country',

    async up(knex: Knex) {
        await knex.schema.alterTable('organizations', (t) => {
            t.string('country', 2).notNullable().defaultTo('US');
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table organizations drop column country');
    }
};

export default migration;
