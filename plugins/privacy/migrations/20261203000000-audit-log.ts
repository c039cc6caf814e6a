import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { dropTables, timestamp } from '../../../core/db/schema';

/**
 * The audit trail (issue 25): one row per action, never changed (the service has no update; only the retention
 * sweep deletes). The store is a plain number, not a reference: the trail of a deleted store stays readable by super
 * admins. The person an action was about is a keyed hash (subject_hash), never a phone or an email.
 */
const migration: MigrationEntry = {
    name: '20261203000000-audit-log',

    async up(knex: Knex) {
        await knex.schema.createTable('audit_log', (t) => {
            t.bigIncrements('id');
            t.integer('organization_id').nullable();
            t.integer('actor_user_id').nullable();
            t.string('actor_role', 20).nullable();
            t.string('action', 60).notNullable();
            t.string('target', 100).nullable();
            t.string('subject_hash', 64).nullable();
            t.text('details').nullable();                // JSON: counts, field names; no personal data
            t.string('ip', 64).nullable();
            timestamp(t, 'created_at');
            t.index(['organization_id', 'created_at']);
            t.index(['created_at']);
        });
    },

    async down(knex: Knex) {
        await dropTables(knex, ['audit_log']);
    }
};

export default migration;
