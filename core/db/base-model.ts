import { Model, Pojo } from 'objection';

/**
 * Base of every model. Columns are snake_case in the database; booleans come back as 0/1 from SQLite and
 * as true/false from PostgreSQL, so each model lists its boolean and JSON columns and gets real values.
 * Timestamps are epoch milliseconds (bigint) on both databases.
 */
export class BaseModel extends Model {
    static booleanColumns: string[] = [];
    static jsonColumnNames: string[] = [];

    override $parseDatabaseJson(json: Pojo): Pojo {
        const parsed = super.$parseDatabaseJson(json);
        const ctor = this.constructor as typeof BaseModel;
        for (const column of ctor.booleanColumns) {
            if (column in parsed && parsed[column] !== null && parsed[column] !== undefined) {
                parsed[column] = parsed[column] === true || parsed[column] === 1 || parsed[column] === '1';
            }
        }
        for (const column of ctor.jsonColumnNames) {
            if (typeof parsed[column] === 'string') {
                try {
                    parsed[column] = JSON.parse(parsed[column]);
                }
                catch {
                    parsed[column] = null;
                }
            }
        }
        return parsed;
    }

    override $formatDatabaseJson(json: Pojo): Pojo {
        const formatted = super.$formatDatabaseJson(json);
        const ctor = this.constructor as typeof BaseModel;
        for (const column of ctor.jsonColumnNames) {
            if (column in formatted && formatted[column] !== null && typeof formatted[column] !== 'string') {
                formatted[column] = JSON.stringify(formatted[column]);
            }
        }
        return formatted;
    }
}

/** Epoch milliseconds, the one timestamp representation stored in every table. */
export function now(): number {
    return Date.now();
}

/** ISO string of an epoch-ms value (null stays null): what the APIs answer. */
export function iso(ms: number | null | undefined): string | null {
    return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}
