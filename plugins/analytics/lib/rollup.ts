import type { Knex } from 'knex';
import { dayKey, hourKey } from './time';

/** An analytics_events row as the ingest job inserts it and the rebuild reads it. */
export interface EventRow {
    organization_id: number;
    created_at: number;
    action: string;
    domain: string | null;
    success: boolean | number | null;
    phone_number: string | null;
    phone_valid?: boolean | number | null;
    points_retrieved: number | null;
    question_id: number | null;
}

/** Wrong numbers and wrong codes: every such event is a failed verification (SPEC §4 failure types). */
export const FAILURE_ACTIONS = ['verification_failed', 'code_verification_failed'];
/** Verification steps whose own success flag says false: failed too (code_failed). */
export const VERIFY_ACTIONS = ['verification_sent', 'points_retrieved'];

const flag = (v: boolean | number | null | undefined) => (v === null || v === undefined ? null : !!v);

/** Points shown: a points_retrieved event that did not fail. */
export function isSuccess(e: Pick<EventRow, 'action' | 'success'>): boolean {
    return e.action === 'points_retrieved' && flag(e.success) !== false;
}

export function isFailure(e: Pick<EventRow, 'action' | 'success'>): boolean {
    return FAILURE_ACTIONS.includes(e.action) || (VERIFY_ACTIONS.includes(e.action) && flag(e.success) === false);
}

interface Counts { events: number; successes: number; failures: number }
interface PhoneDay { events: number; successes: number; failures: number; last_points: number | null; last_points_at: number | null; last_activity: number }
interface PhoneAll { first_seen: number; last_activity: number }

/** The rollup rows one batch of events adds to (summed in memory first, then one upsert per table). */
export class RollupBatch {
    readonly hourly = new Map<string, Counts>();
    readonly daily = new Map<string, Counts>();
    readonly phoneDaily = new Map<string, PhoneDay>();
    readonly phones = new Map<string, PhoneAll>();
    readonly questions = new Map<string, number>();

    add(e: EventRow, timeZone: string): void {
        const org = e.organization_id;
        const hour = hourKey(Number(e.created_at), timeZone);
        const day = hour.slice(0, 10);
        const domain = e.domain ?? '';
        const success = flag(e.success);
        const bump = (map: Map<string, Counts>, key: string) => {
            const c = map.get(key) ?? { events: 0, successes: 0, failures: 0 };
            c.events += 1;
            c.successes += success === true ? 1 : 0;
            c.failures += success === false ? 1 : 0;
            map.set(key, c);
        };
        bump(this.hourly, JSON.stringify([org, hour, domain, e.action]));
        bump(this.daily, JSON.stringify([org, day, domain, e.action]));
        const at = Number(e.created_at);
        if (e.phone_number && flag(e.phone_valid) !== false) {
            const key = JSON.stringify([org, day, e.phone_number]);
            const p = this.phoneDaily.get(key) ?? { events: 0, successes: 0, failures: 0, last_points: null, last_points_at: null, last_activity: at };
            p.events += 1;
            p.successes += isSuccess(e) ? 1 : 0;
            p.failures += isFailure(e) ? 1 : 0;
            if (isSuccess(e) && e.points_retrieved !== null && (p.last_points_at === null || at >= p.last_points_at)) {
                p.last_points = e.points_retrieved;
                p.last_points_at = at;
            }
            p.last_activity = Math.max(p.last_activity, at);
            this.phoneDaily.set(key, p);
            const allKey = JSON.stringify([org, e.phone_number]);
            const all = this.phones.get(allKey) ?? { first_seen: at, last_activity: at };
            all.first_seen = Math.min(all.first_seen, at);
            all.last_activity = Math.max(all.last_activity, at);
            this.phones.set(allKey, all);
        }
        if (e.action === 'question_clicked' && e.question_id !== null && e.question_id !== undefined) {
            const key = JSON.stringify([org, day, e.question_id]);
            this.questions.set(key, (this.questions.get(key) ?? 0) + 1);
        }
    }

    /** Adds the batch to the rollup tables (inside the caller's transaction). */
    async write(trx: Knex | Knex.Transaction): Promise<void> {
        const sum = (table: string, col: string) => trx.raw(`?? + excluded.??`, [`${table}.${col}`, col]);
        const later = (table: string, value: string, at: string) => trx.raw(
            `case when excluded.?? is not null and (?? is null or excluded.?? >= ??) then excluded.?? else ?? end`,
            [at, `${table}.${at}`, at, `${table}.${at}`, value, `${table}.${value}`]
        );
        const max = (table: string, col: string) => trx.raw(`case when ?? is null or excluded.?? > ?? then excluded.?? else ?? end`,
            [`${table}.${col}`, col, `${table}.${col}`, col, `${table}.${col}`]);
        const min = (table: string, col: string) => trx.raw(`case when excluded.?? < ?? then excluded.?? else ?? end`, [col, `${table}.${col}`, col, `${table}.${col}`]);

        const counts = async (table: string, bucket: 'hour' | 'day', map: Map<string, Counts>) => {
            const rows = [...map].map(([key, c]) => {
                const [organization_id, b, domain, action] = JSON.parse(key) as [number, string, string, string];
                return { organization_id, [bucket]: b, domain, action, ...c };
            });
            await upsert(trx, table, rows, ['organization_id', bucket, 'domain', 'action'], {
                events: sum(table, 'events'), successes: sum(table, 'successes'), failures: sum(table, 'failures')
            });
        };
        await counts('analytics_hourly', 'hour', this.hourly);
        await counts('analytics_daily', 'day', this.daily);

        const phoneDaily = [...this.phoneDaily].map(([key, p]) => {
            const [organization_id, day, phone_number] = JSON.parse(key) as [number, string, string];
            return { organization_id, day, phone_number, ...p };
        });
        await upsert(trx, 'analytics_phone_daily', phoneDaily, ['organization_id', 'day', 'phone_number'], {
            events: sum('analytics_phone_daily', 'events'),
            successes: sum('analytics_phone_daily', 'successes'),
            failures: sum('analytics_phone_daily', 'failures'),
            last_points: later('analytics_phone_daily', 'last_points', 'last_points_at'),
            last_points_at: max('analytics_phone_daily', 'last_points_at'),
            last_activity: max('analytics_phone_daily', 'last_activity')
        });
        const phones = [...this.phones].map(([key, p]) => {
            const [organization_id, phone_number] = JSON.parse(key) as [number, string];
            return { organization_id, phone_number, ...p };
        });
        await upsert(trx, 'analytics_phones', phones, ['organization_id', 'phone_number'], {
            first_seen: min('analytics_phones', 'first_seen'),
            last_activity: max('analytics_phones', 'last_activity')
        });
        const questions = [...this.questions].map(([key, events]) => {
            const [organization_id, day, question_id] = JSON.parse(key) as [number, string, number];
            return { organization_id, day, question_id, events };
        });
        await upsert(trx, 'analytics_question_daily', questions, ['organization_id', 'day', 'question_id'], {
            events: sum('analytics_question_daily', 'events')
        });
    }
}

/** Insert-or-add in chunks (both SQLite and PostgreSQL take ON CONFLICT … DO UPDATE with `excluded`). */
async function upsert(trx: Knex | Knex.Transaction, table: string, rows: Array<Record<string, unknown>>, keys: string[], merge: Record<string, Knex.Raw>): Promise<void> {
    // Sorted so that concurrent batches on PostgreSQL take the row locks in one order (no deadlocks).
    rows.sort((a, b) => (JSON.stringify(keys.map((k) => a[k])) < JSON.stringify(keys.map((k) => b[k])) ? -1 : 1));
    for (let i = 0; i < rows.length; i += 400) {
        await trx(table).insert(rows.slice(i, i + 400)).onConflict(keys).merge(merge);
    }
}

/** Day key helper re-exported for callers that bucket one instant. */
export { dayKey };
