import type { Knex } from 'knex';
import { e164 } from '../http/fields';

/**
 * For the migrations that clean what is already stored as a phone (DESIGN §8: only parsed, valid numbers, E.164; issue
 * 23): every distinct value of a phone column read once, and rewritten as its E.164 form, or, when it is no phone
 * number at all ("never mind what are", "can I pay with apple"), as `otherwise` (null, a placeholder such as
 * 'Unknown', or 'delete': the rows go). Values read in the US (the default every phone was normalised with).
 */
export interface PhoneCleanup {
    /** Values rewritten to their E.164 form. */
    normalized: number;
    /** Values that were no phone number. */
    dropped: number;
}

/** The column's distinct stored values that are not what e164() makes of them, with their E.164 form or null. */
export async function badPhones(knex: Knex, table: string, column: string): Promise<Array<{ value: string; phone: string | null }>> {
    const values = (await knex(table).distinct(column).whereNotNull(column)).map((row: Record<string, string>) => row[column]);
    return values.map((value) => ({ value, phone: e164(value) })).filter((v) => v.phone !== v.value);
}

export async function cleanPhoneColumn(knex: Knex, table: string, column: string, otherwise: null | string | 'delete'): Promise<PhoneCleanup> {
    const result: PhoneCleanup = { normalized: 0, dropped: 0 };
    for (const { value, phone } of await badPhones(knex, table, column)) {
        if (phone) {
            await knex(table).where(column, value).update({ [column]: phone });
            result.normalized++;
        }
        else if (otherwise === 'delete') {
            await knex(table).where(column, value).delete();
            result.dropped++;
        }
        else if (value !== otherwise) {
            await knex(table).where(column, value).update({ [column]: otherwise });
            result.dropped++;
        }
    }
    return result;
}
