import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/** organizations.time_zone: the IANA zone of the store's day and hour buckets and displayed times (DESIGN §5). */
const migration: MigrationEntry = {
    name: '20261123100000-organization-time-zone',

    async up(knex: Knex) {
        await knex.schema.alterTable('organizations', (t) => {
            t.string('time_zone', 64).notNullable().defaultTo('America/New_York');
        });
    },

    async down(knex: Knex) {
        await knex.raw('alter table organizations drop column time_zone');
    }
};

export default migration;
