import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import type { JobQueue } from '../../../core/jobs';
import type { OrganizationTotals } from '../../../core/types/api';

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
    phoneNumber?: string | null;
    success?: boolean | null;
    errorMessage?: string | null;
    pointsRetrieved?: number | null;
    questionId?: number | null;
    domain?: string | null;
    /** Epoch ms; defaults to when track() was called. */
    createdAt?: number;
}


const INGEST_JOB = 'analytics.ingest';
const BATCH_SIZE = 500;

/**
 * Event tracking: `track` batches the events of one tick into one job of the job queue (Bull on Redis or the
 * in-process runner); the job inserts them in chunks. Reads for the organization dashboard live here too.
 */
export class AnalyticsService {
    private buffer: Array<Record<string, unknown>> = [];
    private flushing: Promise<void> | null = null;

    private readonly db: Db;
    private readonly jobs: JobQueue;

    constructor({ db, jobs }: { db: Db; jobs: JobQueue }) {
        this.db = db;
        this.jobs = jobs;
        // Many rows in one statement: knex's batch insert (objection batches on PostgreSQL only).
        jobs.define<{ rows: Array<Record<string, unknown>> }>(INGEST_JOB, async ({ rows }) => {
            for (let i = 0; i < rows.length; i += BATCH_SIZE) {
                await db('analytics_events').insert(rows.slice(i, i + BATCH_SIZE));
            }
        });
    }

    /** Queues one event; resolves once the event's batch is on the job queue. */
    async track(v: AnalyticsEvent): Promise<void> {
        this.buffer.push({
            organization_id: v.organizationId,
            bot_instance_id: v.botInstanceId ?? null,
            session_id: v.sessionId || null,
            action: v.action,
            phone_number: v.phoneNumber || null,
            success: v.success ?? null,
            error_message: v.errorMessage || null,
            points_retrieved: v.pointsRetrieved ?? null,
            question_id: v.questionId ?? null,
            domain: v.domain ? v.domain.toLowerCase() : null,
            created_at: v.createdAt ?? Date.now()
        });
        if (!this.flushing) {
            this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
                const rows = this.buffer;
                this.buffer = [];
                this.flushing = null;
                await this.jobs.add(INGEST_JOB, { rows });
            });
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
     * The organization dashboard's totals (SPEC §2 Organization 'Overview') over [from, to], both inclusive
     * (epoch ms, Date or ISO string). successRate is a percentage with one decimal: codes that showed points
     * out of all verification outcomes (points shown, failed sends, wrong codes); 0 when there were none.
     */
    async organizationTotals(organizationId: number, range: { from: number | Date | string; to: number | Date | string }): Promise<OrganizationTotals> {
        const ms = (v: number | Date | string) => (typeof v === 'number' ? v : new Date(v).getTime());
        const from = ms(range.from);
        const to = ms(range.to);
        if (!Number.isFinite(from) || !Number.isFinite(to)) {
            throw Boom.badRequest('The date range is not valid');
        }
        const rows: Array<{ action: string; n: number | string }> = await this.db('analytics_events')
            .where('organization_id', organizationId)
            .whereBetween('created_at', [from, to])
            .groupBy('action')
            .select('action')
            .count({ n: '*' });
        const count = (actions: string[]) => rows.filter((r) => actions.includes(r.action)).reduce((sum, r) => sum + Number(r.n), 0);
        const totalInteractions = rows.reduce((sum, r) => sum + Number(r.n), 0);
        const succeeded = count(['points_retrieved']);
        const failed = count(['verification_failed', 'code_verification_failed']);
        return {
            totalInteractions,
            loyaltyChecks: count(['verification_sent', 'verification_failed']),
            liveChatSessions: count(['live_chat_requested']),
            successRate: succeeded + failed ? Math.round((succeeded / (succeeded + failed)) * 1000) / 10 : 0
        };
    }
}
