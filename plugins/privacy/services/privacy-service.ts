import Boom from '@hapi/boom';
import { parsePhoneNumberFromString, CountryCode } from 'libphonenumber-js';
import type { Db } from '../../../core/db';
import type { AuditTrail, StoredAuditEntry } from '../../../core/privacy/audit';
import { normalEmail, Person, PersonalDataRegistry, PersonScope, personHash, RetentionCutoffs } from '../../../core/privacy/personal-data';
import { RETENTION_KINDS, RetentionPolicy } from '../../../core/shared/retention';
import type { AuditPage, AuditRow, ErasureResult, ExternalRecord, PersonFound } from '../../../core/types/api';

export type { AuditPage, AuditRow, ErasureResult, PersonFound, RetentionPolicy };

/** What an admin types to find a customer: a phone (in the store's format or international) and/or an email. */
export interface PersonQuery {
    phone?: string | null;
    email?: string | null;
}

export interface PersonExport {
    format: 'loyalty-chat customer export';
    version: 1;
    exportedAt: string;
    organization: { id: number; name: string | null };
    person: { phone: string | null; email: string | null };
    /** Every row the store keeps about the person, by `plugin.table` (timestamps: ms since 1970, UTC). */
    data: Record<string, unknown[]>;
    /** What the store keeps about them outside this product, and what it must do there. */
    external: ExternalRecord[];
}

export interface AuditQuery {
    organizationId?: number | null;
    action?: string;
    actorUserId?: number;
    subject?: string;
    from?: number;
    to?: number;
    limit: number;
    offset: number;
}

interface Deps {
    db: Db;
    secret: string;
    registry: PersonalDataRegistry;
    audit: AuditTrail;
    /** The store's country (for phones typed without a country code) and name; null when there is no such store. */
    organization(organizationId: number): Promise<{ name: string; country: string; timeZone: string | null } | null>;
    /** Staff emails by user id (the audit trail shows who). */
    staffEmails(ids: number[]): Promise<Map<number, string>>;
    /** The days each kind is kept when a store chose nothing. */
    retentionDefaults: RetentionPolicy;
    /** The stores the retention job runs for. */
    organizationIds(): Promise<number[]>;
}

/**
 * Customers' data under their control (issue 25): finds everything a store keeps about one person (through every
 * plugin's holder: core/privacy/personal-data.ts), exports it as one JSON document, and erases it in one transaction.
 * Also the audit trail's store: append-only rows, read by a store's admins (their store) and super admins.
 */
export class PrivacyService {
    constructor(private readonly deps: Deps) {
        deps.audit.plug((entry) => this.append(entry));
    }

    /** The person a query names in this store, or 400 when it names nobody (no valid phone, no email). */
    async person(organizationId: number, query: PersonQuery): Promise<Person> {
        const org = await this.deps.organization(organizationId);
        if (!org) {
            throw Boom.notFound('Organization not found');
        }
        let phone: string | null = null;
        if (query.phone?.trim()) {
            const parsed = parsePhoneNumberFromString(query.phone.trim(), org.country as CountryCode);
            if (!parsed || !parsed.isPossible()) {
                throw Boom.badRequest('Please enter a valid phone number');
            }
            phone = parsed.number;
        }
        const email = normalEmail(query.email);
        if (!phone && !email) {
            throw Boom.badRequest('Give the customer\'s phone number or email address');
        }
        return { organizationId, phone, email };
    }

    /** The person and every widget session any plugin ties to them. */
    private async scope(person: Person, db: Db = this.deps.db): Promise<PersonScope> {
        const sessions = new Set<string>();
        for (const holder of this.deps.registry.holders) {
            for (const id of await holder.sessionsOf?.(person, db) ?? []) {
                sessions.add(id);
            }
        }
        return { ...person, sessionIds: [...sessions] };
    }

    private async collect(scope: PersonScope): Promise<{ data: Record<string, unknown[]>; external: ExternalRecord[] }> {
        const data: Record<string, unknown[]> = {};
        const external: ExternalRecord[] = [];
        for (const holder of this.deps.registry.holders) {
            for (const [table, rows] of Object.entries(await holder.export(scope, this.deps.db))) {
                data[`${holder.plugin}.${table}`] = rows;
            }
            external.push(...await holder.external?.(scope) ?? []);
        }
        return { data, external };
    }

    async find(organizationId: number, query: PersonQuery): Promise<PersonFound> {
        const person = await this.person(organizationId, query);
        const scope = await this.scope(person);
        const { data, external } = await this.collect(scope);
        const counts = Object.fromEntries(Object.entries(data).filter(([, rows]) => rows.length).map(([table, rows]) => [table, rows.length]));
        return {
            phone: person.phone, email: person.email, subject: personHash(this.deps.secret, person), counts,
            total: Object.values(counts).reduce((a, b) => a + b, 0), sessions: scope.sessionIds.length, external
        };
    }

    async export(organizationId: number, query: PersonQuery): Promise<PersonExport> {
        const person = await this.person(organizationId, query);
        const org = await this.deps.organization(organizationId);
        const { data, external } = await this.collect(await this.scope(person));
        return {
            format: 'loyalty-chat customer export', version: 1, exportedAt: new Date().toISOString(),
            organization: { id: organizationId, name: org?.name ?? null },
            person: { phone: person.phone, email: person.email }, data, external
        };
    }

    /**
     * Deletes every row about the person in every plugin's tables, in one transaction (all or nothing); the counts by
     * `plugin.table`. What lives outside (the loyalty provider's account) is named, for the store to do there. The person
     * as `person()` resolved it (the caller audits the erasure with it).
     */
    async erase(person: Person): Promise<ErasureResult> {
        const { erased, scope } = await this.deps.db.transaction(async (trx) => {
            const inTrx = await this.scope(person, trx);
            const counts: Record<string, number> = {};
            for (const holder of this.deps.registry.holders) {
                for (const [table, n] of Object.entries(await holder.erase(inTrx, trx))) {
                    if (n) {
                        counts[`${holder.plugin}.${table}`] = n;
                    }
                }
            }
            return { erased: counts, scope: inTrx };
        });
        const external: ExternalRecord[] = [];
        for (const holder of this.deps.registry.holders) {
            await holder.afterErase?.(scope);
            external.push(...await holder.external?.(scope) ?? []);
        }
        return { erased, total: Object.values(erased).reduce((a, b) => a + b, 0), external };
    }

    // ---- the audit trail -------------------------------------------------------------------------------

    private async append(entry: StoredAuditEntry): Promise<void> {
        await this.deps.db('audit_log').insert({
            organization_id: entry.organizationId,
            actor_user_id: entry.actorUserId,
            actor_role: entry.actorRole,
            action: entry.action,
            target: entry.target ?? null,
            subject_hash: entry.subjectHash,
            details: entry.details ? JSON.stringify(entry.details) : null,
            ip: entry.ip ?? null,
            created_at: Date.now()
        });
    }

    /** The trail, newest first: one store's (organizationId), or every store's and the platform's (undefined). */
    async auditLog(q: AuditQuery): Promise<AuditPage> {
        const base = this.deps.db('audit_log').where((w) => {
            if (q.organizationId !== undefined) {
                if (q.organizationId === null) {
                    w.whereNull('organization_id');
                }
                else {
                    w.where('organization_id', q.organizationId);
                }
            }
            if (q.action) {
                // A prefix: `customers` finds customers.export and customers.erase (its own _ and % taken literally).
                w.whereRaw(`action like ? escape '\\'`, [`${q.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
            }
            if (q.actorUserId !== undefined) {
                w.where('actor_user_id', q.actorUserId);
            }
            if (q.subject) {
                w.where('subject_hash', q.subject);
            }
            if (q.from !== undefined) {
                w.where('created_at', '>=', q.from);
            }
            if (q.to !== undefined) {
                w.where('created_at', '<', q.to);
            }
        });
        const [{ n }] = await base.clone().count({ n: '*' });
        const rows = await base.clone().orderBy('id', 'desc').limit(q.limit).offset(q.offset);
        const emails = await this.deps.staffEmails([...new Set(rows.map((r: { actor_user_id: number | null }) => r.actor_user_id).filter((id: number | null): id is number => id !== null).map(Number))]);
        // Staff read times in the store's zone (DESIGN §10); the platform's trail in UTC.
        const timeZone = q.organizationId ? (await this.deps.organization(q.organizationId))?.timeZone ?? 'UTC' : 'UTC';
        return {
            total: Number(n),
            timeZone,
            rows: rows.map((r: Record<string, unknown>) => ({
                id: Number(r.id),
                organizationId: r.organization_id === null ? null : Number(r.organization_id),
                actorUserId: r.actor_user_id === null ? null : Number(r.actor_user_id),
                actorRole: (r.actor_role as string | null) ?? null,
                actorEmail: r.actor_user_id === null ? null : emails.get(Number(r.actor_user_id)) ?? null,
                action: String(r.action),
                target: (r.target as string | null) ?? null,
                subjectHash: (r.subject_hash as string | null) ?? null,
                details: r.details ? JSON.parse(String(r.details)) as Record<string, unknown> : null,
                ip: (r.ip as string | null) ?? null,
                createdAt: new Date(Number(r.created_at)).toISOString()
            }))
        };
    }

    // ---- retention -------------------------------------------------------------------------------------

    async retention(organizationId: number): Promise<RetentionPolicy & { defaults: RetentionPolicy }> {
        const row = await this.deps.db('retention_settings').where('organization_id', organizationId).first();
        const policy = { ...this.deps.retentionDefaults };
        if (row) {
            for (const kind of RETENTION_KINDS) {
                const days = row[`${kind}_days`];
                policy[kind] = days === null || days === undefined ? null : Number(days);
            }
        }
        return { ...policy, defaults: this.deps.retentionDefaults };
    }

    /** Sets the store's windows (a kind left out keeps its current value; null: forever). */
    async setRetention(organizationId: number, input: Partial<RetentionPolicy>): Promise<RetentionPolicy & { defaults: RetentionPolicy }> {
        const current = await this.retention(organizationId);
        const row: Record<string, unknown> = { organization_id: organizationId, updated_at: Date.now() };
        for (const kind of RETENTION_KINDS) {
            row[`${kind}_days`] = kind in input ? input[kind] : current[kind];
        }
        await this.deps.db('retention_settings').insert(row).onConflict('organization_id').merge();
        return this.retention(organizationId);
    }

    /**
     * One retention run (the daily job): for each store (or one), every plugin deletes what is past the store's windows;
     * the audit trail too. The counts by store and `plugin.table`, only where something went.
     */
    async runRetention(now = Date.now(), only?: number): Promise<Record<number, Record<string, number>>> {
        const out: Record<number, Record<string, number>> = {};
        for (const organizationId of only !== undefined ? [only] : await this.deps.organizationIds()) {
            const policy = await this.retention(organizationId);
            const cutoffs: RetentionCutoffs = {};
            for (const kind of RETENTION_KINDS) {
                const days = policy[kind];
                if (days !== null) {
                    cutoffs[kind] = now - days * 24 * 3600 * 1000;
                }
            }
            const counts: Record<string, number> = {};
            for (const holder of this.deps.registry.holders) {
                for (const [table, n] of Object.entries(await holder.retain?.(organizationId, cutoffs, this.deps.db) ?? {})) {
                    if (n) {
                        counts[`${holder.plugin}.${table}`] = n;
                    }
                }
            }
            if (cutoffs.audit !== undefined) {
                const n = await this.deps.db('audit_log').where('organization_id', organizationId).where('created_at', '<', cutoffs.audit).delete();
                if (n) {
                    counts['privacy.audit_log'] = n;
                }
            }
            if (Object.keys(counts).length) {
                out[organizationId] = counts;
            }
        }
        return out;
    }
}
