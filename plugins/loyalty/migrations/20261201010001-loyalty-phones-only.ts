import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { badPhones, cleanPhoneColumn } from '../../../core/db/phone-columns';

/**
 * Only phone numbers are phone numbers (DESIGN §8; issue 23), in the loyalty plugin's tables: codes, verified widget
 * sessions and the SMS outbox hold E.164 numbers. A code or an outbox entry for something that is no phone number
 * could never be checked or delivered: it goes; a widget session keeps its row without the phone. A member of the
 * built-in provider is only rewritten to E.164 (never removed: the store imported them), unless the number is taken.
 * Nothing to undo.
 */
const migration: MigrationEntry = {
    name: '20261201010001-loyalty-phones-only',

    async up(knex: Knex) {
        await cleanPhoneColumn(knex, 'verification_codes', 'phone', 'delete');
        await cleanPhoneColumn(knex, 'widget_sessions', 'verified_phone', null);
        await cleanPhoneColumn(knex, 'sms_outbox', 'to_phone', 'delete');
        for (const { value, phone } of await badPhones(knex, 'loyalty_customers', 'phone')) {
            if (!phone) {
                continue;
            }
            const rows = await knex('loyalty_customers').where('phone', value).select('id', 'organization_id');
            for (const row of rows) {
                const taken = await knex('loyalty_customers').where({ organization_id: row.organization_id, phone }).first('id');
                if (!taken) {
                    await knex('loyalty_customers').where('id', row.id).update({ phone });
                }
            }
        }
    },

    async down() {
        // Nothing kept to restore.
    }
};

export default migration;
