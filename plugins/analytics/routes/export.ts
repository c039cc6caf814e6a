import { PassThrough } from 'stream';
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import type { AnalyticsReports, Scope } from '../services/reports';
import type { AnalyticsService } from '../services/analytics-service';
import { pagedQuery, PagedQuery, scopeOf } from './query';
import { chatDurations, csatOf, orderHistory } from './dashboard';
import { csvCell, csvLine } from '../../../core/shared/csv';
import { ISO_INSTANT, zonedDateTime } from '../../../core/shared/zoned-time';

/** The one CSV writer's cells (core/shared/csv.ts), re-exported for the tests that import them from here. */
export { csvCell, csvLine };

export const EXPORT_TABLES = ['summary', 'hourly', 'daily', 'domains', 'questions', 'phones', 'failed-verifications', 'chat-sessions', 'chat-durations', 'order-history', 'csat'] as const;
type Table = typeof EXPORT_TABLES[number];
const PAGE = 500;

type Rows = AsyncGenerator<Array<Record<string, unknown>>>;

async function* pages<T>(fetch: (page: number) => Promise<{ rows: T[]; totalPages: number }>): AsyncGenerator<T[]> {
    for (let page = 1; ; page++) {
        const { rows, totalPages } = await fetch(page);
        yield rows;
        if (page >= totalPages || !rows.length) {
            return;
        }
    }
}

function rowsOf(server: Server, analytics: AnalyticsService, reports: AnalyticsReports, table: Table, s: Scope & { today: string }): Rows {
    const one = async function* (rows: Promise<Array<object>>): Rows {
        yield (await rows) as Array<Record<string, unknown>>;
    };
    switch (table) {
        case 'summary': return one(reports.summary(s).then(({ topDomains: _top, range: _range, ...figures }) => [figures]));
        case 'hourly': return one(reports.hourly(s));
        case 'daily': return one(reports.daily(s));
        case 'domains': return one(reports.domains(s));
        case 'questions': return questionRows(server, reports, s);
        case 'phones': return pages(async (page) => {
            const r = await reports.phones(s, { page, limit: PAGE }, s.today);
            return { rows: r.data.map(({ lookup, ...row }) => ({ ...row, customerName: lookup?.name ?? '', customerEmail: lookup?.email ?? '' })), totalPages: r.pagination.totalPages };
        }) as Rows;
        case 'failed-verifications': return pages(async (page) => {
            const r = await reports.failedVerifications(s, { page, limit: PAGE });
            return { rows: r.data, totalPages: r.pagination.totalPages };
        }) as Rows;
        case 'chat-sessions': return pages(async (page) => {
            const r = await server.app.services.livechat.analyticsSessions(s.organizationId, s.range, { offset: (page - 1) * PAGE, limit: PAGE });
            return { rows: r.rows, totalPages: Math.max(1, Math.ceil(r.total / PAGE)) };
        }) as Rows;
        // The per-agent report (issue 28): one row per agent with their ratings, chats and median times.
        case 'csat': return one(csatOf(server, s).then((r) => r.byAgent));
        case 'chat-durations': return one(server.app.services.livechat.analyticsSessions(s.organizationId, s.range)
            .then(({ rows }) => chatDurations(rows).recentSessions));
        case 'order-history': return pages(async (page) => {
            const r = await orderHistory(server, reports, s, page, 100);
            return {
                rows: r.orderHistory.map(({ orderDetails, ...row }) => ({
                    ...row, customerName: orderDetails?.customerName ?? '', totalOrders: orderDetails?.totalOrders ?? ''
                })),
                totalPages: r.pagination.totalPages
            };
        }) as Rows;
    }
}

async function* questionRows(server: Server, reports: AnalyticsReports, s: Scope): Rows {
    const counts = await reports.questionCounts(s);
    const questions = await server.app.services.questions.list(s.organizationId);
    yield counts.map((r) => {
        const q = questions.find((x) => x.id === r.questionId);
        return { questionId: r.questionId, question: q?.question ?? '', answer: q?.answer ?? '', count: r.count };
    });
}

/** The columns that hold instants, even on a page where they are all empty (an open chat's endedAt). */
const TIME_COLUMNS = new Set(['timestamp', 'startedAt', 'endedAt', 'createdAt', 'updatedAt', 'acceptedAt', 'lastSeen', 'firstSeen', 'lastActivity']);

/**
 * The CSV's header and cells with every instant in the store's zone (DESIGN §10 'Times'): a time column is named
 * with the zone ('startedAt (America/New_York)') and holds '2026-11-27 00:18:13', which spreadsheets read as is.
 * The header is stable English column names whatever the agent's language (issue 27): the file is machine-readable
 * (scripts and spreadsheets key on these names); only the screens around it are translated.
 */
export function zonedCsv(keys: string[], firstRows: Array<Record<string, unknown>>, timeZone: string) {
    const timeKeys = new Set(keys.filter((k) => TIME_COLUMNS.has(k) || firstRows.some((r) => typeof r[k] === 'string' && ISO_INSTANT.test(r[k] as string))));
    return {
        header: keys.map((k) => (timeKeys.has(k) ? `${k} (${timeZone})` : k)),
        cells: (row: Record<string, unknown>) => keys.map((k) => {
            const v = row[k];
            return timeKeys.has(k) && typeof v === 'string' && ISO_INSTANT.test(v) ? zonedDateTime(v, timeZone) : v;
        })
    };
}

/** GET /api/analytics/export/{table}: a dashboard table as CSV, streamed page by page, with the table's filters. */
export function registerExportRoute(server: Server, analytics: AnalyticsService, reports: AnalyticsReports): void {
    server.route<{ Query: PagedQuery; Params: { table: Table } }>({
        method: 'GET',
        path: '/api/analytics/export/{table}',
        options: {
            id: 'analytics.export.get',
            auth: allow('admin', 'super_admin'),
            description: 'A dashboard table as CSV (the same range filters as the table)',
            validate: {
                params: Joi.object({ table: Joi.string().valid(...EXPORT_TABLES).required() }),
                query: pagedQuery
            },
            handler: async (request, h) => {
                const { table } = request.params;
                const s = await scopeOf(request, server, analytics, table === 'hourly' || table === 'daily' ? 7 : 30);
                const source = rowsOf(server, analytics, reports, table, s);
                // The first page is read before answering, so a failure is still a clean error status.
                const first = await source.next();
                const stream = new PassThrough();
                const keys = first.done || !first.value.length ? null : Object.keys(first.value[0]);
                const csv = keys ? zonedCsv(keys, first.value!, s.timeZone) : null;
                void (async () => {
                    try {
                        if (csv) {
                            stream.write(csvLine(csv.header));
                            for (const row of first.value!) {
                                stream.write(csvLine(csv.cells(row)));
                            }
                            for await (const rows of source) {
                                for (const row of rows) {
                                    if (!stream.write(csvLine(csv.cells(row)))) {
                                        await new Promise((resolve) => stream.once('drain', resolve));
                                    }
                                }
                            }
                        }
                        stream.end();
                    }
                    catch (err) {
                        server.app.log.error({ err }, 'analytics export failed');
                        stream.destroy(err as Error);
                    }
                })();
                return h.response(stream)
                    .type('text/csv; charset=utf-8')
                    .header('content-disposition', `attachment; filename="analytics-${table}-${s.range.fromDay}-to-${s.range.toDay}.csv"`)
                    .header('cache-control', 'no-store');
            }
        }
    });
}
