import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { cleanPhoneColumn } from '../../../core/db/phone-columns';

/**
 * Only phone numbers are phone numbers (DESIGN §8; issue 23): an AI chat history row keeps its question and answer,
 * and its phone only when it is one (E.164); anything else is dropped. Nothing to undo.
 */
const migration: MigrationEntry = {
    name: '20261201010003-ai-phones-only',

    async up(knex: Knex) {
        await cleanPhoneColumn(knex, 'ai_chat_history', 'phone_number', null);
    },

    async down() {
        // The text that was dropped is gone for good (it was never a phone number).
    }
};

export default migration;
