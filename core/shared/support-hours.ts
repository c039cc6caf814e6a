/**
 * Support hours (issue 26): when a store's live support answers, in the store's IANA zone (organizations.time_zone).
 * Pure functions on `Intl` (the runtime's own zone data, no hand-written tables), shared by the server (availability)
 * and the admin app (the settings page's preview of the unsaved form). Not the shop's opening hours (DESIGN §10).
 *
 * - `weekly`: ranges per weekday (0 = Sunday), several a day; a day without ranges is closed. A range whose close is
 *   not after its open runs across midnight into the next day ("22:00"–"02:00"); "24:00" closes at midnight.
 *   A range belongs to the day it starts on (Friday 22:00–02:00 is Friday's, even when Saturday is a holiday).
 * - `exceptions`: dated (the store's local date): `{ date, closed: true }` closes the day; `{ date, open, close }`
 *   (one or several) replace that day's weekly ranges.
 * - No weekly range at all means no schedule: open around the clock (today's behaviour), holidays still apply.
 * - Local times that do not exist (a spring-forward gap) open at the first minute after it; times that exist twice
 *   (fall back) at the first of the two.
 */
export type WhenClosed = 'offline_form' | 'ai_only' | 'hide';
export const WHEN_CLOSED: WhenClosed[] = ['offline_form', 'ai_only', 'hide'];

export interface WeeklyRange {
    /** 0 = Sunday … 6 = Saturday. */
    day: number;
    /** "HH:MM", 24-hour clock. */
    open: string;
    /** "HH:MM" or "24:00"; not after `open` = the next day. */
    close: string;
}

export type HoursException = { date: string; closed: true } | { date: string; open: string; close: string };

export interface SupportHours {
    weekly: WeeklyRange[];
    exceptions: HoursException[];
    whenClosed: WhenClosed;
}

export interface HoursStatus {
    open: boolean;
    /** Closed: the next opening, ISO 8601 with the store's offset ('2026-11-30T09:00:00-05:00'); null if none within a year. */
    opensAt: string | null;
    /** Open: when the current opening ends (ranges that touch count as one), ISO 8601 with offset; null around the clock. */
    closesAt: string | null;
}

export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
export const CLOSING_TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
export const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How far ahead the next opening is looked for (a year of holidays at most). */
const HORIZON_DAYS = 400;

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
    let f = formatters.get(timeZone);
    if (!f) {
        f = new Intl.DateTimeFormat('en-US', {
            timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', weekday: 'short'
        });
        formatters.set(timeZone, f);
    }
    return f;
}

/** True when the runtime knows the IANA zone. */
export function isTimeZone(timeZone: string): boolean {
    try {
        formatter(timeZone);
        return true;
    }
    catch {
        return false;
    }
}

/** True for a real calendar date 'YYYY-MM-DD'. */
export function isLocalDate(date: string): boolean {
    if (!LOCAL_DATE.test(date)) {
        return false;
    }
    const [y, m, d] = date.split('-').map(Number);
    const t = new Date(Date.UTC(y, m - 1, d));
    return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

interface Local { date: string; minutes: number }

function localOf(ms: number, timeZone: string): Local {
    const p: Record<string, string> = {};
    for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
        p[part.type] = part.value;
    }
    return { date: `${p.year}-${p.month}-${p.day}`, minutes: (Number(p.hour) % 24) * 60 + Number(p.minute) };
}

/** The zone's offset from UTC at the instant, in ms (New York in winter: -5 h). */
export function offsetAt(ms: number, timeZone: string): number {
    const l = localOf(ms, timeZone);
    const [y, m, d] = l.date.split('-').map(Number);
    return Date.UTC(y, m - 1, d) + l.minutes * MINUTE_MS - Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}

function addDays(date: string, n: number): string {
    const [y, m, d] = date.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

function weekday(date: string): number {
    const [y, m, d] = date.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * The instant of a local wall time (`minutes` after the local midnight of `date`, up to 24 h) in the zone: the first
 * of two in a fall-back overlap, the end of the gap in a spring-forward one.
 */
export function instantOf(date: string, minutes: number, timeZone: string): number {
    const [y, m, d] = date.split('-').map(Number);
    const wall = Date.UTC(y, m - 1, d) + minutes * MINUTE_MS;
    const before = offsetAt(wall - DAY_MS, timeZone);
    const after = offsetAt(wall + DAY_MS, timeZone);
    const fits = [wall - before, wall - after].filter((t) => t + offsetAt(t, timeZone) === wall).sort((a, b) => a - b);
    if (fits.length) {
        return fits[0];
    }
    // In a gap: the offset changes between the two guesses; find the first minute of the new offset.
    let lo = Math.min(wall - before, wall - after);
    let hi = Math.max(wall - before, wall - after);
    const first = offsetAt(lo, timeZone);
    while (hi - lo > MINUTE_MS) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
        if (offsetAt(mid, timeZone) === first) {
            lo = mid;
        }
        else {
            hi = mid;
        }
    }
    return hi;
}

/** The instant as ISO 8601 with the zone's offset at that instant: '2026-11-30T09:00:00-05:00'. */
export function isoWithOffset(ms: number, timeZone: string): string {
    const offset = offsetAt(ms, timeZone);
    const local = new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS + offset).toISOString().slice(0, 19);
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset) / MINUTE_MS;
    return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** True when the schedule has weekly hours (without them the store is open around the clock, holidays aside). */
export function hasSchedule(hours: Pick<SupportHours, 'weekly' | 'exceptions'> | null | undefined): boolean {
    return !!hours && (hours.weekly.length > 0 || hours.exceptions.length > 0);
}

/** The local ranges (minutes from the local midnight of `date`; the end may pass 24 h) that start on a date. */
function rangesOn(hours: Pick<SupportHours, 'weekly' | 'exceptions'>, date: string): Array<[number, number]> {
    const special = hours.exceptions.filter((e) => e.date === date);
    if (special.some((e) => 'closed' in e && e.closed)) {
        return [];
    }
    const list: Array<{ open: string; close: string }> = special.length
        ? special as Array<{ open: string; close: string }>
        : hours.weekly.length ? hours.weekly.filter((r) => r.day === weekday(date)) : [{ open: '00:00', close: '24:00' }];
    return list.map((r) => {
        const open = minutesOf(r.open);
        let close = minutesOf(r.close);
        if (close <= open) {
            close += 24 * 60;
        }
        return [open, close] as [number, number];
    });
}

/** The opening intervals (instants) of the ranges starting on each local date from `fromDate`, `days` of them. */
function intervals(hours: Pick<SupportHours, 'weekly' | 'exceptions'>, timeZone: string, fromDate: string, days: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < days; i += 1) {
        const date = addDays(fromDate, i);
        for (const [open, close] of rangesOn(hours, date)) {
            const start = instantOf(date, open, timeZone);
            const end = close > 24 * 60 ? instantOf(addDays(date, 1), close - 24 * 60, timeZone) : instantOf(date, close, timeZone);
            if (end > start) {
                out.push([start, end]);
            }
        }
    }
    return out.sort((a, b) => a[0] - b[0]);
}

/**
 * Open now? And the next opening (closed) or the end of the current opening (open). `hours` null or without any
 * range or exception: always open.
 */
export function hoursStatus(hours: Pick<SupportHours, 'weekly' | 'exceptions'> | null | undefined, timeZone: string, now: number = Date.now()): HoursStatus {
    if (!hours || !hasSchedule(hours)) {
        return { open: true, opensAt: null, closesAt: null };
    }
    const today = localOf(now, timeZone).date;
    // Yesterday's ranges may run past midnight into today.
    const list = intervals(hours, timeZone, addDays(today, -1), 9);
    const current = list.find(([s, e]) => s <= now && now < e);
    if (current) {
        // The opening goes on while ranges touch or overlap.
        let end = current[1];
        let grew = true;
        let days = 9;
        while (grew) {
            grew = false;
            for (const [s, e] of list) {
                if (s <= end && e > end) {
                    end = e;
                    grew = true;
                }
            }
            if (!grew && days < HORIZON_DAYS && end >= instantOf(addDays(today, days - 2), 0, timeZone)) {
                list.push(...intervals(hours, timeZone, addDays(today, days - 1), 30));
                days += 30;
                grew = true;
            }
        }
        return { open: true, opensAt: null, closesAt: days >= HORIZON_DAYS ? null : isoWithOffset(end, timeZone) };
    }
    let next = list.find(([s]) => s > now);
    for (let from = 8; !next && from < HORIZON_DAYS; from += 60) {
        next = intervals(hours, timeZone, addDays(today, from), 60).find(([s]) => s > now);
    }
    return { open: false, opensAt: next ? isoWithOffset(next[0], timeZone) : null, closesAt: null };
}

/**
 * What is wrong with a schedule, in words an admin acts on, or null: ranges of one day (or one exception date) that
 * overlap, an open time equal to its close, a date both closed and with hours, or twice closed.
 */
export function scheduleProblem(hours: Pick<SupportHours, 'weekly' | 'exceptions'>): string | null {
    const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    const overlap = (ranges: Array<{ open: string; close: string }>, name: string): string | null => {
        const spans = ranges.map((r) => {
            const open = minutesOf(r.open);
            const close = minutesOf(r.close);
            return { r, open, close: close <= open ? close + 24 * 60 : close };
        }).sort((a, b) => a.open - b.open);
        for (const s of spans) {
            if (s.r.open === s.r.close) {
                return `${name}: the range ${s.r.open}–${s.r.close} opens and closes at the same time`;
            }
        }
        for (let i = 1; i < spans.length; i += 1) {
            if (spans[i].open < spans[i - 1].close) {
                return `${name}: the ranges ${spans[i - 1].r.open}–${spans[i - 1].r.close} and ${spans[i].r.open}–${spans[i].r.close} overlap`;
            }
        }
        return null;
    };
    for (let day = 0; day < 7; day += 1) {
        const problem = overlap(hours.weekly.filter((r) => r.day === day), DAYS[day]);
        if (problem) {
            return problem;
        }
    }
    const dates = [...new Set(hours.exceptions.map((e) => e.date))];
    for (const date of dates) {
        const list = hours.exceptions.filter((e) => e.date === date);
        const closed = list.filter((e) => 'closed' in e);
        if (closed.length && list.length > 1) {
            return `${date} is listed more than once as closed, or both closed and with hours`;
        }
        const problem = overlap(list.filter((e): e is { date: string; open: string; close: string } => !('closed' in e)), date);
        if (problem) {
            return problem;
        }
    }
    return null;
}
