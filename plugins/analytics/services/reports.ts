import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type {
    AnalyticsSummary, CustomerLookupResult, DailyRow, DomainActivityRow, DomainDetail, DomainRow, FailedVerificationRow,
    FailureType, HourlyRow, Paged, Pagination, PhoneActivityRow, PhoneDetail, PhoneRow
} from '../../../core/types/api';
import { FAILURE_ACTIONS, isFailure, isSuccess, VERIFY_ACTIONS } from '../lib/rollup';
import { daysBetween, DayRange } from '../lib/time';
import { ActionTotals } from './analytics-service';
import type { ChatSessionCounter } from './analytics-service';

/** What a report is about: an organization, its zone and a range of its local days. */
export interface Scope {
    organizationId: number;
    timeZone: string;
    range: DayRange;
}

export interface PageQuery { page: number; limit: number }

/** SPEC §4 failure-type labels. */
export const FAILURE_LABELS: Record<FailureType, string> = {
    verify_failed: 'Failed to Send Code',
    verification_failed: 'Invalid Code Entered',
    code_failed: 'Code Verification Failed',
    loyalty_verify_attempt: 'Verification Attempted (No Success)',
    no_success_after_attempt: 'No Successful Verification'
};

/** A domain activity row's words for its action. */
export const ACTION_DESCRIPTIONS: Record<string, string> = {
    widget_loaded: 'Widget loaded',
    widget_opened: 'Widget opened',
    question_clicked: 'Question clicked',
    live_chat_requested: 'Live chat requested',
    verification_sent: 'Verification code sent',
    verification_failed: 'Verification failed',
    points_retrieved: 'Points viewed',
    code_verification_failed: 'Wrong code entered',
    order_history_viewed: 'Order history viewed',
    loyalty_verify_attempt: 'Verification attempted'
};

/** The most rows a list answer that is not paged by the server returns (domain activity, phone activity). */
export const ACTIVITY_LIMIT = 1000;

const n = (v: unknown) => Number(v ?? 0);
const flag = (v: unknown) => (v === null || v === undefined ? null : !!v);

export function pagination(page: number, limit: number, total: number): Pagination {
    const totalPages = Math.max(1, Math.ceil(total / limit));
    return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

function rate(succeeded: number, failed: number): number {
    return succeeded + failed ? Math.round((succeeded / (succeeded + failed)) * 1000) / 10 : 0;
}

/**
 * The analytics answers of SPEC §3 for one organization. Summary, hourly, daily, domains, question usage and
 * the phone list read the rollups; lists of single events (activity, failures, phone details) read the raw
 * events through their (organization, …, created_at) indexes.
 */
export class AnalyticsReports {
    /** chatSessionCount: livechat's count of chat sessions (AnalyticsDeps.chatSessionCount); 0 without it. */
    constructor(private readonly db: Db, private readonly chatSessionCount: ChatSessionCounter = async () => 0) {}

    private events(s: Scope) {
        return this.db('analytics_events').where('organization_id', s.organizationId).whereBetween('created_at', [s.range.from, s.range.to]);
    }

    async summary(s: Scope): Promise<AnalyticsSummary> {
        const rows: Array<{ domain: string; action: string; events: number; failures: number }> = await this.db('analytics_daily')
            .where('organization_id', s.organizationId).whereBetween('day', [s.range.fromDay, s.range.toDay])
            .groupBy('domain', 'action').select('domain', 'action').sum({ events: 'events', failures: 'failures' });
        const byAction = new Map<string, { action: string; events: number; failures: number }>();
        const byDomain = new Map<string, number>();
        for (const r of rows) {
            const a = byAction.get(r.action) ?? { action: r.action, events: 0, failures: 0 };
            a.events += n(r.events);
            a.failures += n(r.failures);
            byAction.set(r.action, a);
            if (r.domain) {
                byDomain.set(r.domain, (byDomain.get(r.domain) ?? 0) + n(r.events));
            }
        }
        const t = new ActionTotals([...byAction.values()]);
        // A chat session is a live chat that was created (livechat's definition), the same rows the Chat tab lists.
        const chatSessions = await this.chatSessionCount(s.organizationId, { from: s.range.from, to: s.range.to });
        const topDomains = [...byDomain].map(([domain, count]) => ({ domain, count }))
            .sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain)).slice(0, 10);
        return {
            totalInteractions: t.total,
            successfulVerifications: t.succeeded,
            failedVerifications: t.failed,
            pointsViewed: t.succeeded,
            totalChatSessions: chatSessions,
            topDomains,
            successRate: t.successRate,
            activeDomains: byDomain.size,
            loyaltyChecks: t.loyaltyChecks,
            liveChatSessions: chatSessions,
            range: { startDate: s.range.fromDay, endDate: s.range.toDay, timeZone: s.timeZone }
        };
    }

    /** SPEC §3 'Hourly row': the 24 local hours of the day, summed over the range's days. */
    async hourly(s: Scope): Promise<HourlyRow[]> {
        // Summed per hour of the day in the database: 24 × 4 rows come back, not one per hour of the range.
        const hourOfDay = this.db.raw('substr(hour, 12, 2)');
        const rows: Array<{ h: string; action: string; events: number; failures: number }> = await this.db('analytics_hourly')
            .where('organization_id', s.organizationId).whereBetween('hour', [`${s.range.fromDay}T00`, `${s.range.toDay}T23`])
            .whereIn('action', ['widget_loaded', 'widget_opened', 'verification_sent', 'points_retrieved'])
            .groupBy(hourOfDay).groupBy('action').select({ h: hourOfDay }, 'action').sum({ events: 'events', failures: 'failures' });
        const out: HourlyRow[] = Array.from({ length: 24 }, (_, hour) => ({ hour, widget_loaded: 0, widget_opened: 0, verified: 0, points_viewed: 0 }));
        for (const r of rows) {
            const row = out[Number(r.h)];
            const ok = n(r.events) - n(r.failures);
            switch (r.action) {
                case 'widget_loaded': row.widget_loaded += n(r.events); break;
                case 'widget_opened': row.widget_opened += n(r.events); break;
                case 'verification_sent': row.verified += ok; break;
                case 'points_retrieved': row.points_viewed += ok; break;
            }
        }
        return out;
    }

    /** SPEC §3 'Daily row', one per local day of the range (days without events too). */
    async daily(s: Scope): Promise<DailyRow[]> {
        const rows: Array<{ day: string; action: string; events: number; failures: number }> = await this.db('analytics_daily')
            .where('organization_id', s.organizationId).whereBetween('day', [s.range.fromDay, s.range.toDay])
            .groupBy('day', 'action').select('day', 'action').sum({ events: 'events', failures: 'failures' });
        const byDay = new Map<string, DailyRow>(daysBetween(s.range.fromDay, s.range.toDay).map((date) => [date, {
            date, widget_loaded: 0, widget_opened: 0, verified: 0, loyalty: 0, points_viewed: 0, order_history_viewed: 0, live_chat_requested: 0
        }]));
        for (const r of rows) {
            const row = byDay.get(r.day);
            if (!row) {
                continue;
            }
            const events = n(r.events);
            const ok = events - n(r.failures);
            switch (r.action) {
                case 'widget_loaded': row.widget_loaded += events; break;
                case 'widget_opened': row.widget_opened += events; break;
                case 'verification_sent': row.verified += ok; row.loyalty += events; break;
                case 'verification_failed': row.loyalty += events; break;
                case 'points_retrieved': row.points_viewed += ok; break;
                case 'order_history_viewed': row.order_history_viewed += events; break;
                case 'live_chat_requested': row.live_chat_requested += events; break;
            }
        }
        return [...byDay.values()];
    }

    /** SPEC §7 timeline (the dashboard does not use it): events per local day. */
    async timeline(s: Scope): Promise<Array<{ date: string; total: number }>> {
        const rows: Array<{ day: string; events: number }> = await this.db('analytics_daily')
            .where('organization_id', s.organizationId).whereBetween('day', [s.range.fromDay, s.range.toDay])
            .groupBy('day').select('day').sum({ events: 'events' });
        const byDay = new Map(rows.map((r) => [r.day, n(r.events)]));
        return daysBetween(s.range.fromDay, s.range.toDay).map((date) => ({ date, total: byDay.get(date) ?? 0 }));
    }

    /** The domains with events in the range, busiest first. */
    async domains(s: Scope, only?: string): Promise<DomainRow[]> {
        const q = this.db('analytics_daily')
            .where('organization_id', s.organizationId).whereBetween('day', [s.range.fromDay, s.range.toDay]).whereNot('domain', '')
            .groupBy('domain', 'action').select('domain', 'action').sum({ events: 'events', failures: 'failures' });
        if (only !== undefined) {
            q.where('domain', only);
        }
        const rows = await q as Array<{ domain: string; action: string; events: number; failures: number }>;
        const lastQ = this.db('analytics_hourly')
            .where('organization_id', s.organizationId).whereBetween('hour', [`${s.range.fromDay}T00`, `${s.range.toDay}T23`]).whereNot('domain', '')
            .groupBy('domain').select('domain').max({ last: 'hour' });
        if (only !== undefined) {
            lastQ.where('domain', only);
        }
        const last = new Map((await lastQ as Array<{ domain: string; last: string }>).map((r) => [r.domain, r.last]));
        const grouped = new Map<string, Array<{ action: string; events: number; failures: number }>>();
        for (const r of rows) {
            grouped.set(r.domain, [...(grouped.get(r.domain) ?? []), { action: r.action, events: n(r.events), failures: n(r.failures) }]);
        }
        return [...grouped].map(([domain, list]) => {
            const t = new ActionTotals(list);
            return {
                domain,
                totalInteractions: t.total,
                successfulVerifications: t.succeeded,
                failedVerifications: t.failed,
                pointsViewed: t.succeeded,
                liveChatRequests: t.count('live_chat_requested'),
                lastActivity: last.get(domain) ? `${last.get(domain)}:00` : null
            };
        }).sort((a, b) => b.totalInteractions - a.totalInteractions || a.domain.localeCompare(b.domain));
    }

    /** One domain: its figures and its latest events (at most ACTIVITY_LIMIT; the screen pages them). */
    async domain(s: Scope, domain: string): Promise<DomainDetail | null> {
        const [row] = await this.domains(s, domain);
        if (!row) {
            return null;
        }
        const events = await this.events(s).where('domain', domain).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(ACTIVITY_LIMIT)
            .select('action', 'success', 'phone_number', 'created_at');
        const activity: DomainActivityRow[] = events.map((e: Record<string, unknown>) => ({
            action: String(e.action),
            actionDescription: ACTION_DESCRIPTIONS[String(e.action)] ?? String(e.action).replace(/_/g, ' '),
            success: flag(e.success),
            phoneNumber: (e.phone_number as string | null) ?? null,
            timestamp: iso(n(e.created_at))!
        }));
        return { ...row, activity };
    }

    /**
     * SPEC §3 phone list, most recent activity first. With a range that reaches today, the page comes from
     * analytics_phones (latest activity per phone, indexed); else from grouping the per-phone daily rollup.
     */
    async phones(s: Scope, p: PageQuery, today: string): Promise<Paged<PhoneRow>> {
        const offset = (p.page - 1) * p.limit;
        let total: number;
        let page: Array<{ phone_number: string; lookup?: string | null }>;
        if (s.range.toDay >= today) {
            const base = () => this.db('analytics_phones').where('organization_id', s.organizationId).where('last_activity', '>=', s.range.from);
            total = n((await base().count({ n: '*' }).first() as { n: number } | undefined)?.n);
            page = await base().orderBy('last_activity', 'desc').orderBy('phone_number').offset(offset).limit(p.limit).select('phone_number', 'lookup');
        }
        else {
            const grouped = () => this.db('analytics_phone_daily').where('organization_id', s.organizationId)
                .whereBetween('day', [s.range.fromDay, s.range.toDay]);
            total = n((await this.db.count({ n: '*' }).from(grouped().distinct('phone_number').as('p')).first() as { n: number } | undefined)?.n);
            page = await grouped().groupBy('phone_number').select('phone_number').max({ last: 'last_activity' })
                .orderBy('last', 'desc').orderBy('phone_number').offset(offset).limit(p.limit) as Array<{ phone_number: string }>;
            const lookups: Array<{ phone_number: string; lookup: string | null }> = page.length
                ? await this.db('analytics_phones').where('organization_id', s.organizationId).whereIn('phone_number', page.map((r) => r.phone_number)).select('phone_number', 'lookup')
                : [];
            page = page.map((r) => ({ ...r, lookup: lookups.find((l) => l.phone_number === r.phone_number)?.lookup ?? null }));
        }
        const days: Array<Record<string, number | string | null>> = page.length
            ? await this.db('analytics_phone_daily').where('organization_id', s.organizationId)
                .whereIn('phone_number', page.map((r) => r.phone_number)).whereBetween('day', [s.range.fromDay, s.range.toDay])
            : [];
        const data = page.map((r) => {
            const mine = days.filter((d) => d.phone_number === r.phone_number);
            const sum = (k: string) => mine.reduce((acc, d) => acc + n(d[k]), 0);
            const lastPoints = mine.filter((d) => d.last_points_at !== null).sort((a, b) => n(b.last_points_at) - n(a.last_points_at))[0];
            const succeeded = sum('successes');
            const failed = sum('failures');
            return {
                phoneNumber: r.phone_number,
                totalInteractions: sum('events'),
                successfulVerifications: succeeded,
                failedVerifications: failed,
                lastPointsShown: lastPoints ? n(lastPoints.last_points) : null,
                lastActivity: iso(Math.max(0, ...mine.map((d) => n(d.last_activity))))!,
                successRate: rate(succeeded, failed),
                lookup: r.lookup ? JSON.parse(r.lookup) as CustomerLookupResult : null
            };
        });
        return { data, pagination: pagination(p.page, p.limit, total) };
    }

    /** SPEC §3 'Phone activity row': a phone's events in the range, newest first (at most ACTIVITY_LIMIT). */
    async phoneActivity(s: Scope, phone: string): Promise<PhoneActivityRow[]> {
        const rows = await this.events(s).where('phone_number', phone).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(ACTIVITY_LIMIT)
            .select('action', 'success', 'points_retrieved', 'domain', 'created_at');
        return rows.map((e: Record<string, unknown>) => ({
            action: String(e.action), success: flag(e.success), pointsRetrieved: (e.points_retrieved as number | null) ?? null,
            domain: (e.domain as string | null) ?? null, timestamp: iso(n(e.created_at))!
        }));
    }

    /** SPEC §3 'Phone detail' over the range. */
    async phoneDetail(s: Scope, phone: string): Promise<PhoneDetail> {
        const breakdown: Array<{ action: string; n: number }> = await this.events(s).where('phone_number', phone).groupBy('action').select('action').count({ n: '*' });
        const points = await this.events(s).where('phone_number', phone).where('action', 'points_retrieved').whereNotNull('points_retrieved')
            .where((q) => q.whereNull('success').orWhere('success', true))
            .orderBy('created_at', 'desc').limit(ACTIVITY_LIMIT).select('points_retrieved', 'domain', 'created_at');
        const values = points.map((r: Record<string, unknown>) => n(r.points_retrieved));
        return {
            phoneNumber: phone,
            summary: {
                totalInteractions: breakdown.reduce((acc, r) => acc + n(r.n), 0),
                pointsViewings: values.length,
                latestPoints: values.length ? values[0] : null,
                averagePoints: values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : null
            },
            pointsHistory: points.map((r: Record<string, unknown>) => ({ points: n(r.points_retrieved), domain: (r.domain as string | null) ?? null, timestamp: iso(n(r.created_at))! })),
            actionBreakdown: Object.fromEntries(breakdown.map((r) => [r.action, n(r.n)]))
        };
    }

    /**
     * SPEC §3 'Failed verification row' (§4 failure types), newest first: failed sends (verify_failed), wrong
     * codes (verification_failed), verification steps that reported failure (code_failed), attempts other
     * features record (loyalty_verify_attempt), and once per phone that had a code sent but never saw its
     * points in the range (no_success_after_attempt).
     */
    async failedVerifications(s: Scope, p: PageQuery): Promise<Paged<FailedVerificationRow>> {
        const failures = this.events(s).where((q) => q
            .whereIn('action', [...FAILURE_ACTIONS, 'loyalty_verify_attempt'])
            .orWhere((w) => w.whereIn('action', VERIFY_ACTIONS).where('success', false)));
        // The count from the daily rollup (issue 28): every wrong number or code and verification attempt, and the
        // verification steps whose success flag says false (the rollup's failures), as the rows below are chosen.
        const counted = [...FAILURE_ACTIONS, 'loyalty_verify_attempt'];
        const [{ n: failureCount }] = await this.db('analytics_daily')
            .where('organization_id', s.organizationId).whereBetween('day', [s.range.fromDay, s.range.toDay])
            .select(this.db.raw(`coalesce(sum(case when action in (${counted.map(() => '?').join(', ')}) then events
                when action in (${VERIFY_ACTIONS.map(() => '?').join(', ')}) then failures else 0 end), 0) as n`, [...counted, ...VERIFY_ACTIONS])) as Array<{ n: number }>;
        // Phones sent a code and never shown points in the range: the phone rollup names the phones without points
        // (a few; before, a NOT EXISTS over the raw events probed every code sent), and only their codes are read.
        const quiet: string[] = (await this.db('analytics_phone_daily')
            .where('organization_id', s.organizationId).whereBetween('day', [s.range.fromDay, s.range.toDay])
            .groupBy('phone_number').havingRaw('sum(successes) = 0').select('phone_number') as Array<{ phone_number: string }>).map((r) => r.phone_number);
        const attempts: Array<{ phone_number: string; last: number; domain: string | null }> = [];
        for (let i = 0; i < quiet.length; i += 500) {
            attempts.push(...await this.events(s).where('action', 'verification_sent').whereIn('phone_number', quiet.slice(i, i + 500))
                .groupBy('phone_number').select('phone_number').max({ last: 'created_at' }).max({ domain: 'domain' }) as Array<{ phone_number: string; last: number; domain: string | null }>);
        }
        const total = n(failureCount) + attempts.length;
        // Newest first over both kinds: the page's window of the failures, merged with the attempts.
        const offset = (p.page - 1) * p.limit;
        const failureRows = await failures.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(offset + p.limit)
            .select('phone_number', 'phone_valid', 'action', 'success', 'domain', 'created_at');
        const rows: FailedVerificationRow[] = [
            ...failureRows.map((e: Record<string, unknown>) => ({
                phoneNumber: (e.phone_number as string | null) ?? null,
                action: String(e.action),
                failureType: failureTypeOf(String(e.action), flag(e.success)),
                domain: (e.domain as string | null) ?? null,
                timestamp: iso(n(e.created_at))!,
                phoneValid: flag(e.phone_valid) !== false
            })),
            ...attempts.map((a) => ({
                phoneNumber: a.phone_number, action: 'verification_sent', failureType: 'no_success_after_attempt' as const,
                domain: a.domain ?? null, timestamp: iso(n(a.last))!, phoneValid: true
            }))
        ].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
        return { data: rows.slice(offset, offset + p.limit), pagination: pagination(p.page, p.limit, total) };
    }

    /** The summary's event figures counted on the raw events, for the rollup = raw test and the bench (chat sessions are livechat's, not events). */
    async summaryFromEvents(s: Scope): Promise<Pick<AnalyticsSummary, 'totalInteractions' | 'successfulVerifications' | 'failedVerifications' | 'activeDomains'>> {
        const rows: Array<{ action: string; success: unknown; domain: string | null; n: number }> = await this.events(s)
            .groupBy('action', 'success', 'domain').select('action', 'success', 'domain').count({ n: '*' });
        let total = 0;
        let ok = 0;
        let failed = 0;
        const domains = new Set<string>();
        for (const r of rows) {
            const e = { action: r.action, success: flag(r.success) };
            total += n(r.n);
            ok += isSuccess(e) ? n(r.n) : 0;
            failed += isFailure(e) ? n(r.n) : 0;
            if (r.domain) {
                domains.add(r.domain);
            }
        }
        return { totalInteractions: total, successfulVerifications: ok, failedVerifications: failed, activeDomains: domains.size };
    }

    // ---- the cached loyalty customer lookup (analytics_phones.lookup) ----------------------------------

    /** Clicks per pre-made question in the range (the question_daily rollup), by question id. */
    async questionCounts(s: Scope): Promise<Array<{ questionId: number; count: number }>> {
        const rows: Array<{ question_id: number; events: number | string }> = await this.db('analytics_question_daily')
            .where('organization_id', s.organizationId).whereBetween('day', [s.range.fromDay, s.range.toDay])
            .groupBy('question_id').select('question_id').sum({ events: 'events' });
        return rows.map((r) => ({ questionId: Number(r.question_id), count: Number(r.events) }));
    }

    /** SPEC §3 order history: the order_history_viewed events of the range (a page of them, and the totals). */
    async orderHistoryViews(s: Scope, page: number, limit: number): Promise<{
        totalViews: number; successfulViews: number; uniquePhones: number; uniqueDomains: number;
        rows: Array<{ phoneNumber: string | null; createdAt: number; success: boolean | null; errorMessage: string | null; domain: string | null; sessionId: string | null }>;
    }> {
        const base = () => this.db('analytics_events').where('organization_id', s.organizationId).where('action', 'order_history_viewed')
            .whereBetween('created_at', [s.range.from, s.range.to]);
        const totals = await base().first()
            .count({ total: '*' })
            .countDistinct({ phones: 'phone_number' })
            .countDistinct({ domains: 'domain' }) as Record<string, number | string>;
        const [{ ok }] = await base().where((q) => q.whereNull('success').orWhere('success', true)).count({ ok: '*' }) as Array<{ ok: number }>;
        const rows = await base().orderBy('created_at', 'desc').orderBy('id', 'desc').offset((page - 1) * limit).limit(limit)
            .select('phone_number', 'created_at', 'success', 'error_message', 'domain', 'session_id');
        return {
            totalViews: Number(totals.total ?? 0),
            successfulViews: Number(ok),
            uniquePhones: Number(totals.phones ?? 0),
            uniqueDomains: Number(totals.domains ?? 0),
            rows: rows.map((r: Record<string, unknown>) => ({
                phoneNumber: (r.phone_number as string | null) ?? null,
                createdAt: Number(r.created_at),
                success: r.success === null || r.success === undefined ? null : !!r.success,
                errorMessage: (r.error_message as string | null) ?? null,
                domain: (r.domain as string | null) ?? null,
                sessionId: (r.session_id as string | null) ?? null
            }))
        };
    }

    async cachedLookup(organizationId: number, phone: string, maxAgeMs: number): Promise<{ known: boolean; lookup: CustomerLookupResult | null }> {
        const row = await this.db('analytics_phones').where({ organization_id: organizationId, phone_number: phone }).first('lookup', 'lookup_at');
        if (!row) {
            return { known: false, lookup: null };
        }
        const fresh = row.lookup && n(row.lookup_at) > Date.now() - maxAgeMs;
        return { known: true, lookup: fresh ? JSON.parse(row.lookup) as CustomerLookupResult : null };
    }

    async storeLookup(organizationId: number, phone: string, lookup: CustomerLookupResult): Promise<void> {
        await this.db('analytics_phones').where({ organization_id: organizationId, phone_number: phone })
            .update({ lookup: JSON.stringify(lookup), lookup_at: Date.now() });
    }
}

export function failureTypeOf(action: string, success: boolean | null): FailureType {
    switch (action) {
        case 'verification_failed': return 'verify_failed';
        case 'code_verification_failed': return 'verification_failed';
        case 'loyalty_verify_attempt': return 'loyalty_verify_attempt';
        case 'verification_sent': return success === false ? 'verify_failed' : 'loyalty_verify_attempt';
        default: return 'code_failed';
    }
}
