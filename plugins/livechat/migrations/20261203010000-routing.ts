import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * Routing, hand-over and internal notes (issue 26):
 * - chat_routing_settings: one row per store, auto-assign on or off (no row: off);
 * - agent_capacity: one row per agent, how many chats they take at once (no row: 3) and when they last got one
 *   (the "longest idle" tie-break);
 * - chat_offers: a chat offered to one agent until a deadline (state offered → accepted | lapsed | cancelled), so an
 *   offer survives a node restart and every node's sweep can lapse it;
 * - chat_notes: staff-only notes of a conversation (and the note of a transfer), never chat_messages, so no customer
 *   path (socket, messages, transcript) can read them;
 * - chat_routing_events: assignment, offer-lapsed, transfer and first-response events, read through livechat's
 *   service (the per-agent report belongs to another issue).
 * Every row goes with its chat (or user, or organization).
 */
const migration: MigrationEntry = {
    name: '20261203010000-routing',

    async up(knex: Knex) {
        await knex.schema.createTable('chat_routing_settings', (t) => {
            t.integer('organization_id').primary().references('id').inTable('organizations').onDelete('CASCADE');
            t.boolean('auto_assign').notNullable().defaultTo(false);
            timestamp(t, 'updated_at');
        });
        await knex.schema.createTable('agent_capacity', (t) => {
            t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
            organizationColumn(t);
            t.integer('capacity').notNullable().defaultTo(3);
            timestamp(t, 'last_assigned_at', true);
            timestamp(t, 'updated_at');
        });
        await knex.schema.createTable('chat_offers', (t) => {
            t.increments('id').primary();
            organizationColumn(t);
            t.integer('chat_session_id').notNullable().references('id').inTable('chat_sessions').onDelete('CASCADE');
            t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
            t.string('state', 12).notNullable();            // offered | accepted | lapsed | cancelled
            timestamp(t, 'offered_at');
            timestamp(t, 'expires_at');
            timestamp(t, 'settled_at', true);
            t.index(['state', 'expires_at']);
            t.index(['user_id', 'state']);
            t.index(['chat_session_id', 'state']);
        });
        // At most one open offer per chat, whichever node makes it.
        await knex.raw(`create unique index chat_offers_one_open on chat_offers (chat_session_id) where state = 'offered'`);
        await knex.schema.createTable('chat_notes', (t) => {
            t.increments('id').primary();
            organizationColumn(t);
            t.integer('chat_session_id').notNullable().references('id').inTable('chat_sessions').onDelete('CASCADE');
            t.integer('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
            t.string('kind', 12).notNullable();             // note | transfer
            t.text('text').notNullable();
            t.integer('to_user_id').nullable();             // a transfer's receiving agent
            t.string('client_note_id', 64).notNullable();
            timestamp(t, 'created_at');
            t.unique(['chat_session_id', 'client_note_id']);
        });
        await knex.schema.createTable('chat_routing_events', (t) => {
            t.increments('id').primary();
            organizationColumn(t);
            t.integer('chat_session_id').notNullable().references('id').inTable('chat_sessions').onDelete('CASCADE');
            t.string('type', 20).notNullable();             // assigned | offer_lapsed | returned_to_queue | transferred | first_response
            t.integer('agent_user_id').nullable();
            t.integer('from_user_id').nullable();
            t.string('how', 12).nullable();                 // assigned: offer | manual | transfer
            t.bigInteger('value_ms').nullable();            // first_response: ms from the chat's request
            timestamp(t, 'at');
            t.index(['organization_id', 'at']);
            t.index(['chat_session_id', 'type']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['chat_routing_events', 'chat_notes', 'chat_offers', 'agent_capacity', 'chat_routing_settings']);
    }
};

export default migration;
