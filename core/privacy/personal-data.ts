import { createHmac } from 'crypto';
import type { Db } from '../db';
import type { ExternalRecord } from '../types/api';
import type { RetentionKind } from '../shared/retention';

export type { ExternalRecord };

/**
 * Customers' personal data (issue 25, DESIGN §10): who a request for access or erasure is about, and the port every
 * plugin that keeps data about customers plugs into. Core owns no table: each plugin answers for its own tables
 * (export and erasure), the privacy plugin asks them all.
 */

/** The person a request is about, in one store: a phone (E.164) and/or an email address. */
export interface Person {
    organizationId: number;
    phone: string | null;
    email: string | null;
}

/** The person and what ties other rows to them: the widget sessions any holder found (by phone or email). */
export interface PersonScope extends Person {
    sessionIds: string[];
}


export interface PersonalDataHolder {
    /** The plugin that answers for these tables. */
    plugin: string;
    /** Every table of the plugin that holds customers' personal data (the erasure test checks the list is whole). */
    tables: string[];
    /** The widget session ids in the plugin's tables that belong to the person (by phone or email). */
    sessionsOf?(person: Person, db: Db): Promise<string[]>;
    /** The person's rows, by table. */
    export(scope: PersonScope, db: Db): Promise<Record<string, unknown[]>>;
    /** Deletes (or anonymizes) the person's rows, inside the caller's transaction; the counts by table. */
    erase(scope: PersonScope, db: Db): Promise<Record<string, number>>;
    /** After the erasure committed: what lives outside the database (caches), forgotten. */
    afterErase?(scope: PersonScope): Promise<void>;
    /** What the store keeps about the person outside the product, and what it must do there. */
    external?(scope: PersonScope): Promise<ExternalRecord[]>;
    /**
     * Retention (issue 25): deletes the store's rows older than their kind's cutoff (ms since 1970; a kind absent from
     * `cutoffs` is kept forever); the counts by table.
     */
    retain?(organizationId: number, cutoffs: RetentionCutoffs, db: Db): Promise<Record<string, number>>;
}

/** When each kind's rows become too old to keep (RetentionKind: core/shared/retention.ts). */
export type RetentionCutoffs = Partial<Record<RetentionKind, number>>;

/** Deletes a store's rows whose time column is before the cutoff; how many. */
export async function deleteOlder(db: Db, table: string, column: string, organizationId: number, cutoff: number | undefined): Promise<number> {
    if (cutoff === undefined) {
        return 0;
    }
    return db(table).where('organization_id', organizationId).where(column, '<', cutoff).delete();
}

export class PersonalDataRegistry {
    private readonly list: PersonalDataHolder[] = [];

    register(holder: PersonalDataHolder): void {
        if (this.list.some((h) => h.plugin === holder.plugin)) {
            throw new Error(`${holder.plugin} already answers for its personal data`);
        }
        this.list.push(holder);
    }

    get holders(): readonly PersonalDataHolder[] {
        return this.list;
    }

    /** Every table some plugin answers for. */
    get tables(): string[] {
        return this.list.flatMap((h) => h.tables);
    }
}

/** A phone or email in the form the tables keep: E.164 as given, the email trimmed and lower-cased. */
export function normalEmail(email: string | null | undefined): string | null {
    const e = email?.trim().toLowerCase();
    return e ? e : null;
}

/**
 * The name of a person in the audit trail and logs (DESIGN §10): a keyed hash of their phone or email, never the
 * phone or email itself. Keyed with the server's secret, so a list of every phone number does not reverse it.
 */
export function personHash(secret: string, person: { phone?: string | null; email?: string | null }): string | null {
    const key = person.phone ? `phone:${person.phone}` : person.email ? `email:${normalEmail(person.email)}` : null;
    return key ? createHmac('sha256', `${secret}:person`).update(key).digest('hex').slice(0, 32) : null;
}

/** `column LIKE '%value%'` with the value's own `%`, `_` and `\` taken literally (both databases). */
export function containsClause(column: string, value: string): [string, string[]] {
    return [`${column} like ? escape '\\'`, [`%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]];
}

/** Splits a list for `where in` (SQLite allows 999 bound values, PostgreSQL many more: one rule for both). */
export function chunks<T>(values: readonly T[], size = 500): T[][] {
    const out: T[][] = [];
    for (let i = 0; i < values.length; i += size) {
        out.push(values.slice(i, i + size));
    }
    return out;
}

/** Rows as JSON-ready objects (timestamps stay numbers: milliseconds since 1970, as the tables keep them). */
export function plainRows(rows: unknown[]): Record<string, unknown>[] {
    return rows.map((row) => ({ ...(row as Record<string, unknown>) }));
}

/** Where a table names a person: its phone, email and widget-session columns (any may be absent). */
export interface PersonColumns {
    phone?: string;
    email?: string;
    session?: string;
    /** The organization column (default `organization_id`). */
    organization?: string;
}

/**
 * The query of a table's rows about the person in scope: the store's rows whose phone or email is theirs, or that
 * belong to one of their widget sessions. Matches nothing when the scope names nothing the table has.
 */
export function rowsOfPerson(db: Db, table: string, columns: PersonColumns, scope: PersonScope) {
    return db(table).where(columns.organization ?? 'organization_id', scope.organizationId).where((q) => {
        let any = false;
        if (columns.phone && scope.phone) {
            q.orWhere(columns.phone, scope.phone);
            any = true;
        }
        if (columns.email && scope.email) {
            q.orWhereRaw(`lower(${columns.email}) = ?`, [scope.email]);
            any = true;
        }
        if (columns.session) {
            for (const part of chunks(scope.sessionIds)) {
                q.orWhereIn(columns.session, part);
                any = true;
            }
        }
        if (!any) {
            q.whereRaw('1 = 0');
        }
    });
}

/** A holder for tables whose rows stand alone (no child rows): export is every matching row, erasure deletes them. */
export function tableHolder(plugin: string, tables: Record<string, PersonColumns>,
    more: Pick<PersonalDataHolder, 'sessionsOf' | 'external'> = {}): PersonalDataHolder {
    return {
        plugin,
        tables: Object.keys(tables),
        ...more,
        async export(scope, db) {
            const out: Record<string, unknown[]> = {};
            for (const [table, columns] of Object.entries(tables)) {
                out[table] = plainRows(await rowsOfPerson(db, table, columns, scope).select('*'));
            }
            return out;
        },
        async erase(scope, db) {
            const out: Record<string, number> = {};
            for (const [table, columns] of Object.entries(tables)) {
                out[table] = await rowsOfPerson(db, table, columns, scope).delete();
            }
            return out;
        }
    };
}

/** The distinct widget session ids of a table's rows with the person's phone (or email). */
export async function sessionsByPhone(db: Db, table: string, columns: PersonColumns & { session: string }, person: Person): Promise<string[]> {
    const rows = await rowsOfPerson(db, table, { ...columns, session: undefined }, { ...person, sessionIds: [] })
        .whereNotNull(columns.session).distinct(columns.session);
    return rows.map((r: Record<string, string>) => r[columns.session]);
}
