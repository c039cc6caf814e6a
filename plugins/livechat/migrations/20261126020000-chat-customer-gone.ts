import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/**
 * Live chat continuity (issue 11): chat_sessions.customer_gone_at, when the customer's last socket of an open
 * chat closed (null while connected), and customer_gone_notified, set once the agents were told 'Customer
 * Disconnected'. Every node's sweep reads them, so a customer who left through another node is still noticed.
 */
const migration: MigrationEntry = {
    name: '20261126020000-chat-customer-gone',

    async up(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.bigInteger('customer_gone_at').nullable();        // epoch ms, like every timestamp (core/db/schema.ts)
            t.boolean('customer_gone_notified').notNullable().defaultTo(false);
            t.index(['status', 'customer_gone_at'], 'chat_sessions_status_gone_index');
        });
    },

    async down(knex: Knex) {
        await knex.schema.alterTable('chat_sessions', (t) => {
            t.dropIndex([], 'chat_sessions_status_gone_index');
        });
        // Plain DROP COLUMN (see 20261123000000-chat-widget-session): knex's SQLite dropColumn rebuilds the table.
        await knex.raw('alter table chat_sessions drop column customer_gone_at');
        await knex.raw('alter table chat_sessions drop column customer_gone_notified');
    }
};

export default migration;
