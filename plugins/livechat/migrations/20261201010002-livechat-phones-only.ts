import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { cleanPhoneColumn } from '../../../core/db/phone-columns';

/**
 * Only phone numbers are phone numbers (DESIGN §8; issue 23): a chat's phone_number is E.164, or 'Unknown' (SPEC §3's
 * word for none) when what create-session or an offline message carried was no phone number. The chat and its
 * messages stay. Nothing to undo.
 */
const migration: MigrationEntry = {
    name: '20261201010002-livechat-phones-only',

    async up(knex: Knex) {
        await cleanPhoneColumn(knex, 'chat_sessions', 'phone_number', 'Unknown');
    },

    async down() {
        // The text that was dropped is gone for good (it was never a phone number).
    }
};

export default migration;
