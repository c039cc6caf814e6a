import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, timestamp } from '../../../core/db/schema';

/**
 * The auth plugin's tables as loyalty-chat 0.1.0 created them in core's single initial migration: staff accounts (users).
 * `replaces` lets a 0.1.0 database, which has these tables already, adopt this migration without running it.
 */
const migration: MigrationEntry = {
    name: '20260101000001-auth',
    replaces: '20260101000000-initial',

    async up(knex: Knex) {
        await knex.schema.createTable('users', (t) => {
            t.increments('id');
            t.integer('organization_id').nullable().references('id').inTable('organizations').onDelete('CASCADE');
            t.string('email', 320).notNullable().unique();
            t.string('name', 200).nullable();
            t.string('password_hash', 255).notNullable();
            t.string('role', 20).notNullable();          // super_admin | admin | org_user
            t.boolean('is_active').notNullable().defaultTo(true);
            t.integer('token_version').notNullable().defaultTo(0);
            timestamp(t, 'last_login_at', true);
            timestamp(t, 'created_at');
            timestamp(t, 'updated_at');
            t.index(['organization_id', 'role']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['users']);
    }
};

export default migration;
