import Boom from '@hapi/boom';
import Joi from 'joi';
import { fields } from '../../../core/http/fields';
import type { AppContext } from '../../../core/types';
import type { OrganizationTotals } from '../../../core/types/api';
import { now } from '../../../core/db/base-model';
import { validate } from '../../../core/http/validate';

/** The widget's events (SPEC §7) plus widget_loaded; further actions come from other features through `track`. */
export const WIDGET_ACTIONS = [
    'widget_loaded', 'widget_opened', 'question_clicked', 'live_chat_requested', 'verification_sent',
    'verification_failed', 'points_retrieved', 'code_verification_failed'
] as const;

/** An analytics event as SPEC §3 names it, plus who it belongs to (from credentials, never the body). */
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

export const eventSchema = Joi.object({
    organizationId: fields.id.required(),
    botInstanceId: fields.id.allow(null),
    sessionId: Joi.string().max(100).allow(null, ''),
    action: Joi.string().pattern(/^[a-z][a-z0-9_]{1,49}$/).required(),
    phoneNumber: Joi.string().max(20).allow(null, ''),
    success: Joi.boolean().allow(null),
    errorMessage: Joi.string().max(2000).allow(null, ''),
    pointsRetrieved: Joi.number().integer().min(-2147483648).max(2147483647).allow(null),
    questionId: Joi.number().integer().min(0).max(2147483647).allow(null),
    domain: Joi.string().max(253).allow(null, ''),
    createdAt: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER)
});

const INGEST_JOB = 'analytics.ingest';
const BATCH_SIZE = 500;

/**
 * Event tracking: `track` batches the events of one tick into one job of the job queue (Bull on Redis or the
 * in-process runner); the job inserts them in chunks. Reads for the organization dashboard live here too.
 */
export class AnalyticsService {
    private buffer: Array<Record<string, unknown>> = [];
    private flushing: Promise<void> | null = null;

    constructor(private readonly app: AppContext) {
        app.jobs.define<{ rows: Array<Record<string, unknown>> }>(INGEST_JOB, async ({ rows }) => {
            for (let i = 0; i < rows.length; i += BATCH_SIZE) {
                await app.db('analytics_events').insert(rows.slice(i, i + BATCH_SIZE));
            }
        });
    }

    /** Validates and queues one event; resolves once the event's batch is on the job queue. */
    async track(event: AnalyticsEvent): Promise<void> {
        const v = validate<AnalyticsEvent>(eventSchema, event);
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
            created_at: v.createdAt ?? now()
        });
        if (!this.flushing) {
            this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
                const rows = this.buffer;
                this.buffer = [];
                this.flushing = null;
                await this.app.jobs.add(INGEST_JOB, { rows });
            });
        }
        return this.flushing;
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
        const rows: Array<{ action: string; n: number | string }> = await this.app.db('analytics_events')
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
