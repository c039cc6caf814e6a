import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * users.display_name (issue 23): what customers call an agent, set in the agent's profile dialog. Empty for existing
 * users, who are then called by the first word of their name (else of their email), as before.
 */
const migration: MigrationEntry = {
    name: '20261202000001-user-display-name',

    async up(knex: Knex) {
        await knex.schema.alterTable('users', (t) => {
            t.string('display_name', 40).nullable();
        });
    },

    async down(knex: Knex) {
        // Plain DROP COLUMN (see plugins/livechat/migrations/20261123000000-chat-widget-session.ts).
        await knex.raw('alter table users drop column display_name');
    }
};

export default migration;
