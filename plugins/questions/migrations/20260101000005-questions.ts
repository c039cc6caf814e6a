import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * The questions plugin's tables as loyalty-chat 0.1.0 created them in core's single initial migration: pre-made questions.
 * `replaces` lets a 0.1.0 database, which has these tables already, adopt this migration without running it.
 */
const migration: MigrationEntry = {
    name: '20260101000005-questions',
    replaces: '20260101000000-initial',

    async up(knex: Knex) {
        await knex.schema.createTable('premade_questions', (t) => {
            t.increments('id');
            organizationColumn(t);
            t.text('question').notNullable();
            t.text('answer').notNullable();
            t.boolean('is_active').notNullable().defaultTo(true);
            t.integer('sort_order').notNullable().defaultTo(0);
            timestamp(t, 'created_at');
            timestamp(t, 'updated_at');
            t.index(['organization_id', 'sort_order']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['premade_questions']);
    }
};

export default migration;
