import { Model as ObjectionModel, ModelOptions, Pojo, QueryContext, snakeCaseMappers } from 'objection';

/**
 * The base of every model, objection used as designed: properties are camelCase and columns snake_case
 * (`snakeCaseMappers`), so a new column is one migration line and one property. Query builder calls still
 * name columns (`where('organization_id', …)`), model instances and inserts use properties.
 *
 * - `booleanAttributes`: SQLite answers 0/1 where PostgreSQL answers booleans; listed properties come back as
 *   booleans on both.
 * - `jsonAttributes` (objection's own): text columns holding JSON, parsed and stringified.
 * - `timestamps`: `createdAt` is set on insert and `updatedAt` on insert and every update or patch, as epoch
 *   milliseconds (the one timestamp representation of every table); a value given explicitly is kept.
 *
 * Use `.throwIfNotFound({ message })` for lookups that must exist: core/http/errors.ts answers objection's
 * NotFoundError with a 404 carrying that message.
 */
export class Model extends ObjectionModel {
    static override get columnNameMappers() {
        return snakeCaseMappers();
    }

    static booleanAttributes: string[] = [];
    static timestamps: { created?: boolean; updated?: boolean } = {};

    override $parseDatabaseJson(json: Pojo): Pojo {
        const parsed = super.$parseDatabaseJson(json);
        for (const name of (this.constructor as typeof Model).booleanAttributes) {
            const value = parsed[name];
            if (value !== null && value !== undefined) {
                parsed[name] = value === true || value === 1 || value === '1';
            }
        }
        return parsed;
    }

    override $beforeInsert(context: QueryContext): void {
        super.$beforeInsert(context);
        const { created, updated } = (this.constructor as typeof Model).timestamps;
        const self = this as unknown as { createdAt?: number; updatedAt?: number };
        const t = Date.now();
        if (created && self.createdAt === undefined) {
            self.createdAt = t;
        }
        if (updated && self.updatedAt === undefined) {
            self.updatedAt = t;
        }
    }

    override $beforeUpdate(options: ModelOptions, context: QueryContext): void {
        super.$beforeUpdate(options, context);
        if ((this.constructor as typeof Model).timestamps.updated) {
            (this as unknown as { updatedAt?: number }).updatedAt = Date.now();
        }
    }
}

/** ISO string of an epoch-ms value (null stays null): what the APIs answer. */
export function iso(ms: number | null | undefined): string | null {
    return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}
