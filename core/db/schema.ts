import type { Knex } from 'knex';

/**
 * Column helpers every plugin's migrations share. Timestamps are epoch milliseconds (bigint) so that range
 * filters and hour/day buckets are plain integer arithmetic on both SQLite and PostgreSQL; every row of
 * tenant data carries organization_id (DESIGN §5).
 */
export function timestamp(t: Knex.CreateTableBuilder, name: string, nullable = false): Knex.ColumnBuilder {
    const column = t.bigInteger(name);
    return nullable ? column.nullable() : column.notNullable();
}

/** organization_id referencing organizations (tenants plugin), deleted with the organization. */
export function organizationColumn(t: Knex.CreateTableBuilder): Knex.ReferencingColumnBuilder {
    return t.integer('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
}

/** Drops the tables in the order given (dependents first). */
export async function dropTables(knex: Knex, tables: string[]): Promise<void> {
    for (const table of tables) {
        await knex.schema.dropTableIfExists(table);
    }
}
