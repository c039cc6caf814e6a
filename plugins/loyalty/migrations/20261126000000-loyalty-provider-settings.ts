import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * loyalty_provider_settings: an organization's own loyalty provider (a super admin sets it), so two stores on one
 * server can use two Alpine IQ accounts. No row: the server's LOYALTY_PROVIDER and ALPINEIQ_* variables.
 * The API key is stored sealed (core/crypto/secret-box.ts, the organization id as additional data).
 */
const migration: MigrationEntry = {
    name: '20261126000000-loyalty-provider-settings',

    async up(knex: Knex) {
        await knex.schema.createTable('loyalty_provider_settings', (t) => {
            organizationColumn(t).primary();
            t.string('provider', 20).notNullable();          // builtin | alpineiq
            t.string('uid', 100).nullable();
            t.string('base_url', 300).nullable();
            t.text('api_key_sealed').nullable();
            t.integer('updated_by').nullable();
            timestamp(t, 'updated_at');
        });
    },

    async down(knex: Knex) {
        await knex.schema.dropTableIfExists('loyalty_provider_settings');
    }
};

export default migration;
