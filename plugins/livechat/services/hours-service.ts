import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import type { Services } from '../../../core/types';
import { hasSchedule, HoursException, hoursStatus, HoursStatus, scheduleProblem, SupportHours, WhenClosed } from '../../../core/shared/support-hours';
import { SupportHoursModel } from '../models';

/** organizations.time_zone's default (DESIGN §5), for a store the tenants service no longer knows. */
const DEFAULT_STORE_ZONE = 'America/New_York';

/** How long an answer is kept at most (the schedule is ~1 ms of Intl work; the rows are read every time). */
const CACHE_MAX_MS = 60_000;

const openOf = (e: HoursException): string => ('open' in e ? e.open : '');

/** GET /api/chat/business-hours: the saved schedule (empty: none, always open), the store's zone and what it means now. */
export interface SupportHoursView extends SupportHours {
    /** The store's IANA zone (organizations.time_zone), in which the schedule is read. */
    timeZone: string;
    /** False while the store has no schedule (always open, today's behaviour). */
    configured: boolean;
    /** Open now, and the next opening (closed) or the end of this one (open), ISO 8601 with the store's offset. */
    status: HoursStatus;
}

/** What live support answers now (the widget's check-availability and the AI agent's hand-off read it). */
export interface SupportAvailability {
    open: boolean;
    opensAt: string | null;
    whenClosed: WhenClosed;
}

export interface HoursServiceDeps {
    db: Db;
    tenants: Pick<Services['tenants'], 'timeZoneOf'>;
    /** The clock (tests may move it). */
    now?: () => number;
}

/**
 * A store's support hours (issue 26): stored in support_hours (no row: always open), read in the store's zone
 * through the tenants service; the schedule itself is core/shared/support-hours.ts.
 */
export class HoursService {
    private readonly now: () => number;

    constructor(private readonly deps: HoursServiceDeps) {
        this.now = deps.now ?? Date.now;
    }

    private async zoneOf(organizationId: number): Promise<string> {
        return (await this.deps.tenants.timeZoneOf(organizationId)) ?? DEFAULT_STORE_ZONE;
    }

    async get(organizationId: number): Promise<SupportHoursView> {
        const [row, timeZone] = await Promise.all([
            SupportHoursModel.query(this.deps.db).findById(organizationId),
            this.zoneOf(organizationId)
        ]);
        const hours: SupportHours = row
            ? { weekly: row.weekly, exceptions: row.exceptions, whenClosed: row.whenClosed }
            : { weekly: [], exceptions: [], whenClosed: 'offline_form' };
        return { ...hours, timeZone, configured: hasSchedule(hours), status: hoursStatus(hours, timeZone, this.now()) };
    }

    /**
     * Replaces the store's schedule in one statement (nothing half-stored): ranges sorted by day and time, exceptions
     * by date. A schedule whose ranges overlap (or a date both closed and open) is a 400 naming the problem.
     */
    async set(organizationId: number, input: SupportHours): Promise<SupportHoursView> {
        const problem = scheduleProblem(input);
        if (problem) {
            throw Boom.badRequest(problem);
        }
        const weekly = [...input.weekly].map((r) => ({ day: r.day, open: r.open, close: r.close }))
            .sort((a, b) => a.day - b.day || a.open.localeCompare(b.open));
        const exceptions = [...input.exceptions]
            .map((e) => ('closed' in e ? { date: e.date, closed: true as const } : { date: e.date, open: e.open, close: e.close }))
            .sort((a, b) => a.date.localeCompare(b.date) || openOf(a).localeCompare(openOf(b)));
        await SupportHoursModel.query(this.deps.db)
            .insert({ organizationId, weekly, exceptions, whenClosed: input.whenClosed })
            .onConflict('organization_id')
            .merge(['weekly', 'exceptions', 'when_closed', 'updated_at']);
        return this.get(organizationId);
    }

    /**
     * The answer per store, kept until the next opening or closing (the only moments it can change) as long as the
     * schedule and the zone read are the same: every node reads both each time, so a change on another node counts at once.
     */
    private readonly statusCache = new Map<number, { key: string; until: number; status: HoursStatus }>();

    /** Is live support open now (always, without a schedule), when it opens next, and what the widget does meanwhile. */
    async availability(organizationId: number): Promise<SupportAvailability> {
        const row = await SupportHoursModel.query(this.deps.db).findById(organizationId);
        if (!row || !hasSchedule(row)) {
            return { open: true, opensAt: null, whenClosed: row?.whenClosed ?? 'offline_form' };
        }
        const zone = await this.zoneOf(organizationId);
        const now = this.now();
        const key = `${zone}|${JSON.stringify(row.weekly)}|${JSON.stringify(row.exceptions)}`;
        let cached = this.statusCache.get(organizationId);
        if (!cached || cached.key !== key || now >= cached.until || now < cached.until - CACHE_MAX_MS) {
            const status = hoursStatus(row, zone, now);
            const next = Date.parse((status.open ? status.closesAt : status.opensAt) ?? '');
            cached = { key, status, until: Math.min(Number.isFinite(next) ? next : Infinity, now + CACHE_MAX_MS) };
            this.statusCache.set(organizationId, cached);
        }
        return { open: cached.status.open, opensAt: cached.status.opensAt, whenClosed: row.whenClosed };
    }
}
