import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * A bot instance's look in the widget (issue 11): launcher and header colour, side of the page, panel title and
 * greeting. Empty means the defaults (blue, right, "{store} Support", the SPEC §8 greeting).
 */
const migration: MigrationEntry = {
    name: '20261126060000-bot-look',

    async up(knex: Knex) {
        await knex.schema.alterTable('bot_instances', (t) => {
            t.string('look_color', 7).nullable();
            t.string('look_position', 5).notNullable().defaultTo('right');
            t.string('look_title', 80).nullable();
            t.text('look_greeting').nullable();
        });
    },

    async down(knex: Knex) {
        for (const column of ['look_color', 'look_position', 'look_title', 'look_greeting']) {
            await knex.raw(`alter table bot_instances drop column ${column}`);
        }
    }
};

export default migration;
