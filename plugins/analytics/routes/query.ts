import Boom from '@hapi/boom';
import Joi from 'joi';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import { fields } from '../../../core/http/fields';
import { staffOf } from '../../../core/http/callers';
import { dayKey, dayRange, DayRange } from '../lib/time';
import type { Scope } from '../services/reports';
import type { AnalyticsService } from '../services/analytics-service';

/** The longest range a request may ask for, in days (the default retention is 400 days). */
export const MAX_RANGE_DAYS = 400;
export const PAGE_SIZES = [20, 50, 100, 200];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const date = Joi.string().trim().pattern(DATE).custom((value: string, helpers) => {
    const d = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? helpers.error('date.base') : value;
}).messages({ 'string.pattern.base': '{{#label}} must be a date (YYYY-MM-DD)', 'date.base': '{{#label}} must be a real date' });

export interface RangeQuery {
    organizationId?: number;
    days?: number;
    startDate?: string;
    endDate?: string;
}

export interface PagedQuery extends RangeQuery { page: number; limit: number }

/**
 * SPEC §7 analytics query: `days` (the last N local days, today included) or startDate/endDate (local
 * days, end defaults to start); organizationId for a super admin (an admin's own, or absent).
 */
export const rangeKeys = {
    organizationId: fields.id.description('a super admin names the organization; an admin may only name its own'),
    days: Joi.number().integer().min(1).max(MAX_RANGE_DAYS),
    startDate: date,
    endDate: date
};

export const rangeQuery = Joi.object(rangeKeys).with('endDate', 'startDate').oxor('days', 'startDate');
export const pagedQuery = Joi.object({
    ...rangeKeys,
    page: Joi.number().integer().min(1).max(100000).default(1),
    limit: Joi.number().integer().min(1).max(200).default(20)
}).with('endDate', 'startDate').oxor('days', 'startDate');

/**
 * The organization a staff request reads: an admin's own (naming another answers 404, as if it did not
 * exist), or for a super admin the one named by organizationId (required; unknown: 404).
 */
export async function organizationOf<Refs extends ReqRef>(request: Request<Refs>, server: Server): Promise<number> {
    const staff = staffOf(request);
    const asked = (request.query as RangeQuery).organizationId;
    if (staff.role === 'super_admin') {
        if (asked === undefined) {
            throw Boom.badRequest('"organizationId" is required for a super admin');
        }
        if (!await server.app.services.tenants.getOrganization(asked)) {
            throw Boom.notFound('Organization not found');
        }
        return asked;
    }
    if (staff.organizationId === null || (asked !== undefined && asked !== staff.organizationId)) {
        throw Boom.notFound('Organization not found');
    }
    return staff.organizationId;
}

/** The organization, its zone and the local days a request covers; `defaultDays` when it names no range. */
export async function scopeOf<Refs extends ReqRef>(request: Request<Refs>, server: Server, analytics: AnalyticsService, defaultDays = 30): Promise<Scope & { today: string }> {
    const organizationId = await organizationOf(request, server);
    const timeZone = await analytics.timeZoneOf(organizationId);
    const q = request.query as RangeQuery;
    if (q.startDate && q.endDate && q.endDate < q.startDate) {
        throw Boom.badRequest('"endDate" must not be before "startDate"');
    }
    const range: DayRange = dayRange({ days: q.days ?? defaultDays, startDate: q.startDate, endDate: q.endDate }, timeZone);
    if ((range.to - range.from) / 86400000 > MAX_RANGE_DAYS + 1) {
        throw Boom.badRequest(`A range may cover at most ${MAX_RANGE_DAYS} days`);
    }
    return { organizationId, timeZone, range, today: dayKey(Date.now(), timeZone) };
}
