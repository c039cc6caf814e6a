import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import { e164 } from '../../../core/http/fields';
import type { JobQueue } from '../../../core/jobs';
import type { OrganizationTotals } from '../../../core/types/api';
import { EventRow, FAILURE_ACTIONS, isFailure, isSuccess, RollupBatch } from '../lib/rollup';
import { dayKey } from '../lib/time';

/** The widget's events (SPEC §7) plus widget_loaded; further actions come from other features through `track`. */
export const WIDGET_ACTIONS = [
    'widget_loaded', 'widget_opened', 'question_clicked', 'live_chat_requested', 'verification_sent',
    'verification_failed', 'points_retrieved', 'code_verification_failed'
] as const;

/**
 * An analytics event as SPEC §3 names it, plus who it belongs to (from credentials, never the body). The widget's
 * events are validated by the track route; other features pass their own.
 */
export interface AnalyticsEvent {
    organizationId: number;
    botInstanceId?: number | null;
    sessionId?: string | null;
    action: string;
    /** Stored in E.164 when it is a phone number, else not at all (DESIGN §8; toRow). */
    phoneNumber?: string | null;
    /**
     * Ignored: before issue 23 a failed verification kept what the customer typed, marked false here. Only phone
     * numbers are stored now, so a stored event's phone_valid is true (or null without a phone).
     */
    phoneValid?: boolean;
    success?: boolean | null;
    errorMessage?: string | null;
    pointsRetrieved?: number | null;
    questionId?: number | null;
    domain?: string | null;
    /** Epoch ms; defaults to when track() was called. */
    createdAt?: number;
}

const phones = new Map<string, string | null>();
/** E.164 or null (DESIGN §8), remembered for the few thousand numbers a busy store's events repeat. */
function storedPhone(text: string | null | undefined): string | null {
    if (!text) {
        return null;
    }
    let phone = phones.get(text);
    if (phone === undefined) {
        if (phones.size >= 10_000) {
            phones.clear();
        }
        phone = e164(text);
        phones.set(text, phone);
    }
    return phone;
}

export const INGEST_JOB = 'analytics.ingest';
export const PRUNE_JOB = 'analytics.prune';
const BATCH_SIZE = 500;
/** How long track() gathers events before one ingest job takes them all (or until MAX_BUFFER are waiting). */
const FLUSH_MS = 10;
const MAX_BUFFER = 2000;
export const PRUNE_BATCH = 5000;
const ROLLUP_TABLES = ['analytics_hourly', 'analytics_daily', 'analytics_phone_daily', 'analytics_question_daily'];
const ZONE_TTL_MS = 60_000;
export const DEFAULT_TIME_ZONE = 'America/New_York';

export interface AnalyticsDeps {
    db: Db;
    jobs: JobQueue;
    /** The organization's IANA zone (services.tenants.timeZoneOf); null for an unknown organization. */
    timeZoneOf: (organizationId: number) => Promise<string | null>;
    /**
     * How many chat sessions [from, to] holds: livechat's one definition (services.livechat.chatSessionCount; issue 23),
     * never the `live_chat_requested` events. Without it (no livechat plugin) the figure is 0.
     */
    chatSessionCount?: ChatSessionCounter;
}

/** Counts a range's chat sessions (livechat's declared service; analytics never reads livechat's tables). */
export type ChatSessionCounter = (organizationId: number, range: { from: number; to: number }) => Promise<number>;

/**
 * Event tracking: `track` batches the events of one tick into one job of the job queue (Bull on Redis or the
 * in-process runner); the job inserts them and adds them to the rollups in one transaction, so a rollup
 * never counts an event that is not stored, nor misses one that is.
 */
export class AnalyticsService {
    private buffer: Array<Record<string, unknown>> = [];
    private flushing: Promise<void> | null = null;
    private release: (() => void) | null = null;
    private readonly zones = new Map<number, { zone: string; at: number }>();

    readonly db: Db;
    private readonly jobs: JobQueue;
    private readonly timeZoneLookup: AnalyticsDeps['timeZoneOf'];

    private readonly chatSessionCount: ChatSessionCounter;

    constructor({ db, jobs, timeZoneOf, chatSessionCount }: AnalyticsDeps) {
        this.chatSessionCount = chatSessionCount ?? (async () => 0);
        this.db = db;
        this.jobs = jobs;
        this.timeZoneLookup = timeZoneOf;
        // Two batches at once per node: their upserts take row locks in one sorted order (rollup.ts), so they wait for
        // each other at worst and never deadlock.
        jobs.define<{ rows: Array<Record<string, unknown>> }>(INGEST_JOB, async ({ rows }) => this.ingest(rows), { concurrency: 2 });
    }

    /** The organization's time zone, cached for a minute (rollup buckets, ranges, display). */
    async timeZoneOf(organizationId: number): Promise<string> {
        const cached = this.zones.get(organizationId);
        if (cached && Date.now() - cached.at < ZONE_TTL_MS) {
            return cached.zone;
        }
        const zone = (await this.timeZoneLookup(organizationId)) ?? DEFAULT_TIME_ZONE;
        this.zones.set(organizationId, { zone, at: Date.now() });
        return zone;
    }

    /** Stores events and adds them to the rollups, all or nothing (the ingest job; also the demo generator). */
    async ingest(rows: Array<Record<string, unknown>>): Promise<void> {
        const batch = new RollupBatch();
        for (const row of rows) {
            batch.add(row as unknown as EventRow, await this.timeZoneOf(Number(row.organization_id)));
        }
        await this.db.transaction(async (trx) => {
            // Many rows in one statement: knex's batch insert (objection batches on PostgreSQL only).
            for (let i = 0; i < rows.length; i += BATCH_SIZE) {
                await trx('analytics_events').insert(rows.slice(i, i + BATCH_SIZE));
            }
            await batch.write(trx);
        });
    }

    /** The stored row of an event. */
    static toRow(v: AnalyticsEvent): Record<string, unknown> {
        const phone = storedPhone(v.phoneNumber);
        return {
            organization_id: v.organizationId,
            bot_instance_id: v.botInstanceId ?? null,
            session_id: v.sessionId || null,
            action: v.action,
            phone_number: phone,
            phone_valid: phone ? true : null,
            success: v.success ?? null,
            error_message: v.errorMessage || null,
            points_retrieved: v.pointsRetrieved ?? null,
            question_id: v.questionId ?? null,
            domain: v.domain ? v.domain.toLowerCase() : null,
            created_at: v.createdAt ?? Date.now()
        };
    }

    /**
     * Queues one event; resolves once the event's batch is on the job queue. The events of about 10 ms (at most
     * 2000) go into one job: one transaction and one upsert per rollup table for all of them.
     */
    async track(v: AnalyticsEvent): Promise<void> {
        this.buffer.push(AnalyticsService.toRow(v));
        if (!this.flushing) {
            let release!: () => void;
            const gathered = new Promise<void>((resolve) => {
                release = resolve;
                setTimeout(resolve, FLUSH_MS);
            });
            this.release = release;
            this.flushing = gathered.then(async () => {
                const rows = this.buffer;
                this.buffer = [];
                this.flushing = null;
                this.release = null;
                await this.jobs.add(INGEST_JOB, { rows }, { personalData: true });     // the rows carry phones
            });
        }
        else if (this.buffer.length >= MAX_BUFFER) {
            this.release?.();
        }
        return this.flushing;
    }

    /** How many distinct page domains sent events in [from, to] (epoch ms, both inclusive): the /test page's 'active domains'. */
    async activeDomains(organizationId: number, range: { from: number; to: number }): Promise<number> {
        const [row] = await this.db('analytics_events')
            .where('organization_id', organizationId)
            .whereBetween('created_at', [range.from, range.to])
            .whereNotNull('domain')
            .countDistinct({ n: 'domain' });
        return Number((row as { n?: number | string } | undefined)?.n ?? 0);
    }

    /**
     * Recomputes the rollups from the raw events (`loyalty-chat analytics rebuild`, after a time zone change),
     * of one organization or all, in one transaction: readers see the old rollups until it commits. The
     * cached customer lookups of analytics_phones are kept. Returns the number of events read.
     */
    async rebuild(organizationId?: number, onProgress?: (events: number) => void): Promise<number> {
        // Zones first: inside the transaction every query must use it (SQLite has one connection).
        const ids = organizationId === undefined
            ? (await this.db('analytics_events').distinct('organization_id')).map((r: { organization_id: number }) => Number(r.organization_id))
            : [organizationId];
        const zones = new Map<number, string>();
        for (const id of ids) {
            zones.set(id, await this.timeZoneOf(id));
        }
        return this.db.transaction(async (trx) => {
            const scoped = (table: string) => (organizationId === undefined ? trx(table) : trx(table).where('organization_id', organizationId));
            for (const table of ROLLUP_TABLES) {
                await scoped(table).delete();
            }
            await scoped('analytics_phones').update({ first_seen: Number.MAX_SAFE_INTEGER, last_activity: 0 });
            let lastId = 0;
            let total = 0;
            for (;;) {
                const rows = await scoped('analytics_events')
                    .where('id', '>', lastId).orderBy('id').limit(PRUNE_BATCH)
                    .select('id', 'organization_id', 'created_at', 'action', 'domain', 'success', 'phone_number', 'phone_valid', 'points_retrieved', 'question_id') as Array<EventRow & { id: number }>;
                if (!rows.length) {
                    break;
                }
                const batch = new RollupBatch();
                for (const row of rows) {
                    batch.add(row, zones.get(Number(row.organization_id)) ?? DEFAULT_TIME_ZONE);
                }
                await batch.write(trx);
                lastId = Number(rows[rows.length - 1].id);
                total += rows.length;
                onProgress?.(total);
            }
            await scoped('analytics_phones').where('last_activity', 0).delete();
            return total;
        });
    }

    /**
     * Deletes raw events older than `retentionDays` in batches of 5000 (each its own short statement, so the
     * table is never locked for long). The rollups stay. Returns the number deleted.
     */
    async prune(retentionDays: number, nowMs = Date.now()): Promise<number> {
        const cutoff = nowMs - retentionDays * 24 * 3600 * 1000;
        let deleted = 0;
        for (;;) {
            const ids = (await this.db('analytics_events').where('created_at', '<', cutoff).orderBy('id').limit(PRUNE_BATCH).pluck('id')) as number[];
            if (!ids.length) {
                return deleted;
            }
            deleted += await this.db('analytics_events').whereIn('id', ids).delete();
            if (ids.length < PRUNE_BATCH) {
                return deleted;
            }
        }
    }

    /**
     * The organization dashboard's totals (SPEC §2 Organization 'Overview') over the local days that [from, to]
     * touches (epoch ms, Date or ISO string), read from the daily rollup. successRate is a percentage with one
     * decimal: points shown out of all verification outcomes (points shown, failed sends, wrong codes); 0
     * when there were none.
     */
    async organizationTotals(organizationId: number, range: { from: number | Date | string; to: number | Date | string }): Promise<OrganizationTotals> {
        const ms = (v: number | Date | string) => (typeof v === 'number' ? v : new Date(v).getTime());
        const from = ms(range.from);
        const to = ms(range.to);
        if (!Number.isFinite(from) || !Number.isFinite(to)) {
            throw Boom.badRequest('The date range is not valid');
        }
        const zone = await this.timeZoneOf(organizationId);
        const [totals, chats] = await Promise.all([
            this.actionTotals(organizationId, dayKey(from, zone), dayKey(to, zone)),
            this.chatSessionCount(organizationId, { from, to })
        ]);
        return {
            totalInteractions: totals.total,
            loyaltyChecks: totals.loyaltyChecks,
            liveChatSessions: chats,
            successRate: totals.successRate
        };
    }

    /** Per-action sums of the daily rollup over [fromDay, toDay] and the figures built from them. */
    async actionTotals(organizationId: number, fromDay: string, toDay: string): Promise<ActionTotals> {
        const rows: Array<{ action: string; events: number | string; failures: number | string }> = await this.db('analytics_daily')
            .where('organization_id', organizationId).whereBetween('day', [fromDay, toDay])
            .groupBy('action').select('action').sum({ events: 'events', failures: 'failures' });
        return new ActionTotals(rows.map((r) => ({ action: r.action, events: Number(r.events), failures: Number(r.failures) })));
    }
}

/** The figures of SPEC §3 'Summary' from per-action event and failure counts (one definition for every answer). */
export class ActionTotals {
    constructor(readonly rows: Array<{ action: string; events: number; failures: number }>) {}

    count(action: string): number {
        return this.rows.filter((r) => r.action === action).reduce((s, r) => s + r.events, 0);
    }

    private failuresOf(action: string): number {
        return this.rows.filter((r) => r.action === action).reduce((s, r) => s + r.failures, 0);
    }

    get total(): number {
        return this.rows.reduce((s, r) => s + r.events, 0);
    }

    /** Points shown: points_retrieved events that did not fail. */
    get succeeded(): number {
        return this.count('points_retrieved') - this.failuresOf('points_retrieved');
    }

    /** Failed sends and wrong codes, plus verification steps that report failure. */
    get failed(): number {
        return FAILURE_ACTIONS.reduce((s, a) => s + this.count(a), 0) + this.failuresOf('verification_sent') + this.failuresOf('points_retrieved');
    }

    get loyaltyChecks(): number {
        return this.count('verification_sent') + this.count('verification_failed');
    }

    get successRate(): number {
        const outcomes = this.succeeded + this.failed;
        return outcomes ? Math.round((this.succeeded / outcomes) * 1000) / 10 : 0;
    }
}

export { isFailure, isSuccess };
