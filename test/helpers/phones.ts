import type { Knex } from 'knex';

/** The phone columns of the schema (a column named like *phone*, but the phone_valid flag), found in the database itself. */
export async function phoneColumns(db: Knex): Promise<Array<[string, string]>> {
    const client = String(db.client.config.client);
    let rows: Array<{ table: string; column: string }>;
    if (/sqlite/.test(client)) {
        const tables = await db.raw(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'knex_%'`) as Array<{ name: string }>;
        rows = [];
        for (const { name } of tables) {
            for (const column of await db.raw(`pragma table_info(??)`, [name]) as Array<{ name: string }>) {
                rows.push({ table: name, column: column.name });
            }
        }
    }
    else {
        const result = await db.raw(`select table_name as "table", column_name as "column" from information_schema.columns where table_schema = current_schema()`);
        rows = result.rows;
    }
    return rows.filter((r) => /phone/.test(r.column) && !/valid/.test(r.column)).map((r): [string, string] => [r.table, r.column])
        .sort((a, b) => `${a[0]}.${a[1]}`.localeCompare(`${b[0]}.${b[1]}`));
}

/**
 * What is stored in any phone column that is neither E.164 nor SPEC's 'Unknown' (chat_sessions' word for none): after
 * issue 23, nothing (DESIGN §8: only parsed, valid numbers are stored as phones).
 */
export async function freeTextInPhoneColumns(db: Knex): Promise<string[]> {
    const found: string[] = [];
    for (const [table, column] of await phoneColumns(db)) {
        const values = (await db(table).distinct(column).whereNotNull(column)).map((r: Record<string, string>) => r[column]);
        for (const value of values) {
            if (!/^\+[1-9]\d{6,14}$/.test(value) && !(table === 'chat_sessions' && value === 'Unknown')) {
                found.push(`${table}.${column}: ${JSON.stringify(value)}`);
            }
        }
    }
    return found;
}
