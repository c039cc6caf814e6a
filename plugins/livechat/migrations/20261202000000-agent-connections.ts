import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, organizationColumn, timestamp } from '../../../core/db/schema';

/**
 * Agent presence for the whole staff app (issue 23): one row per open agent socket (agent_connections), refreshed
 * by the node that holds it, so every node counts an agent's tabs on every node, and a crashed node's rows simply
 * expire. agent_presence (one row per agent) gains what the away rules read: the last activity the UI reported,
 * when the agent's last socket closed, and why the server last set the agent Away (told to the agent).
 */
const migration: MigrationEntry = {
    name: '20261202000000-agent-connections',

    async up(knex: Knex) {
        await knex.schema.createTable('agent_connections', (t) => {
            t.string('id', 200).primary();                  // `${nodeId}:${socketId}`
            t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
            organizationColumn(t);
            t.string('node_id', 200).notNullable();
            timestamp(t, 'connected_at');
            timestamp(t, 'last_seen_at');
            t.index(['user_id', 'last_seen_at']);
            t.index(['last_seen_at']);
        });
        await knex.schema.alterTable('agent_presence', (t) => {
            t.bigInteger('last_active_at').nullable();          // epoch ms: the UI's last reported mouse/keyboard activity
            t.bigInteger('disconnected_at').nullable();         // epoch ms: the agent's last socket closed (null while one is open)
            t.string('away_reason', 20).nullable();             // idle | closed | logout: why the server set the agent Away
            t.bigInteger('away_at').nullable();
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['agent_connections']);
        // Plain DROP COLUMN (see 20261123000000-chat-widget-session).
        for (const column of ['last_active_at', 'disconnected_at', 'away_reason', 'away_at']) {
            await knex.raw(`alter table agent_presence drop column ${column}`);
        }
    }
};

export default migration;
