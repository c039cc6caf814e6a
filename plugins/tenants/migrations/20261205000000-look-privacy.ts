import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * The widget's privacy line (issue 25, consent): bot_instances.look_privacy (the store's own line in its default
 * language; other languages in look_texts[lang].privacy) and look_privacy_url (the store's privacy policy). Null: the
 * catalogue's line, without a link.
 */
const migration: MigrationEntry = {
    name: '20261205000000-look-privacy',

    async up(knex: Knex) {
        await knex.schema.alterTable('bot_instances', (t) => {
            t.text('look_privacy').nullable();
            t.string('look_privacy_url', 500).nullable();
        });
    },

    async down(knex: Knex) {
        // Plain DROP COLUMN (see 20261204000000-look-texts).
        await knex.raw('alter table bot_instances drop column look_privacy');
        await knex.raw('alter table bot_instances drop column look_privacy_url');
    }
};

export default migration;
