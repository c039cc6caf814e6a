import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { badPhones } from '../../../core/db/phone-columns';

/**
 * Only phone numbers are phone numbers (DESIGN §8; issue 23). Before, a failed verification kept what the customer
 * typed in the phone step ("never mind what are", "can I pay with apple", "I didn't get a code"), and an older
 * database may hold numbers as typed: they showed in Failed Attempts and the Phones list. Here:
 *
 * - analytics_events: every event stays; its phone becomes its E.164 form, or nothing when it is no phone number
 *   (phone_valid true with a phone, null without);
 * - analytics_phone_daily and analytics_phones (the per-phone rollups): a row of something that is no phone number
 *   goes (the events it counted stay in the hourly and daily rollups, which count no phones); a row of a number as
 *   typed is added into the row of its E.164 form (events, points shown and failures summed, the latest points and
 *   activity kept, the earliest first seen), so the Phones list shows one row per number.
 *
 * The rollups are corrected in place, not rebuilt from the events: events past ANALYTICS_RETENTION_DAYS are pruned
 * while their rollups stay. Nothing to undo: the text dropped was never a phone number.
 */
const migration: MigrationEntry = {
    name: '20261201010000-analytics-phones-only',

    async up(knex: Knex) {
        for (const { value, phone } of await badPhones(knex, 'analytics_events', 'phone_number')) {
            await knex('analytics_events').where('phone_number', value).update({ phone_number: phone, phone_valid: phone ? true : null });
        }
        await knex('analytics_events').whereNotNull('phone_number').where('phone_valid', false).update({ phone_valid: true });
        await knex('analytics_events').whereNull('phone_number').whereNotNull('phone_valid').update({ phone_valid: null });

        for (const { value, phone } of await badPhones(knex, 'analytics_phone_daily', 'phone_number')) {
            if (phone) {
                const rows = await knex('analytics_phone_daily').where('phone_number', value);
                for (const row of rows) {
                    const into = await knex('analytics_phone_daily').where({ organization_id: row.organization_id, day: row.day, phone_number: phone }).first();
                    if (!into) {
                        await knex('analytics_phone_daily').insert({ ...row, phone_number: phone });
                        continue;
                    }
                    const laterPoints = row.last_points_at !== null && (into.last_points_at === null || Number(row.last_points_at) >= Number(into.last_points_at));
                    await knex('analytics_phone_daily').where({ organization_id: row.organization_id, day: row.day, phone_number: phone }).update({
                        events: Number(into.events) + Number(row.events),
                        successes: Number(into.successes) + Number(row.successes),
                        failures: Number(into.failures) + Number(row.failures),
                        last_points: laterPoints ? row.last_points : into.last_points,
                        last_points_at: laterPoints ? row.last_points_at : into.last_points_at,
                        last_activity: Math.max(Number(into.last_activity), Number(row.last_activity))
                    });
                }
            }
            await knex('analytics_phone_daily').where('phone_number', value).delete();
        }

        for (const { value, phone } of await badPhones(knex, 'analytics_phones', 'phone_number')) {
            if (phone) {
                const rows = await knex('analytics_phones').where('phone_number', value);
                for (const row of rows) {
                    const into = await knex('analytics_phones').where({ organization_id: row.organization_id, phone_number: phone }).first();
                    if (!into) {
                        await knex('analytics_phones').insert({ ...row, phone_number: phone });
                        continue;
                    }
                    await knex('analytics_phones').where({ organization_id: row.organization_id, phone_number: phone }).update({
                        first_seen: Math.min(Number(into.first_seen), Number(row.first_seen)),
                        last_activity: Math.max(Number(into.last_activity), Number(row.last_activity)),
                        lookup: into.lookup ?? row.lookup,
                        lookup_at: into.lookup ? into.lookup_at : row.lookup_at
                    });
                }
            }
            await knex('analytics_phones').where('phone_number', value).delete();
        }
    },

    async down() {
        // The text that was dropped is gone for good (it was never a phone number).
    }
};

export default migration;
