/**
 * Local day and hour buckets of an organization's time zone (DESIGN §5), for the analytics rollups and
 * ranges. Keys are strings that sort like the times they name: days 'YYYY-MM-DD', hours 'YYYY-MM-DDTHH'.
 */
export const DAY_MS = 24 * 3600 * 1000;
const QUARTER_MS = 15 * 60 * 1000;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Every zone's offset is a multiple of 15 minutes: one formatted answer per quarter hour and zone. */
const hourCache = new Map<string, string>();

function formatter(timeZone: string): Intl.DateTimeFormat {
    let f = formatters.get(timeZone);
    if (!f) {
        f = new Intl.DateTimeFormat('en-CA', {
            timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23'
        });
        formatters.set(timeZone, f);
    }
    return f;
}

/** True when the IANA zone name is one this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
    try {
        formatter(timeZone);
        return true;
    }
    catch {
        return false;
    }
}

function parts(ms: number, timeZone: string): { y: number; m: number; d: number; h: number; min: number } {
    const out: Record<string, number> = {};
    for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
        if (p.type !== 'literal') {
            out[p.type] = Number(p.value);
        }
    }
    return { y: out.year, m: out.month, d: out.day, h: out.hour % 24, min: out.minute };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** 'YYYY-MM-DDTHH' of the local hour that holds the instant. */
export function hourKey(ms: number, timeZone: string): string {
    const quarter = Math.floor(ms / QUARTER_MS);
    const cacheKey = `${timeZone}|${quarter}`;
    let key = hourCache.get(cacheKey);
    if (!key) {
        const p = parts(quarter * QUARTER_MS, timeZone);
        key = `${p.y}-${pad(p.m)}-${pad(p.d)}T${pad(p.h)}`;
        if (hourCache.size > 200_000) {
            hourCache.clear();
        }
        hourCache.set(cacheKey, key);
    }
    return key;
}

/** 'YYYY-MM-DD' of the local day that holds the instant. */
export function dayKey(ms: number, timeZone: string): string {
    return hourKey(ms, timeZone).slice(0, 10);
}

/** The zone's offset from UTC at the instant, in ms (New York in winter: -5 h). */
export function offsetMs(ms: number, timeZone: string): number {
    const p = parts(ms, timeZone);
    const asUtc = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min);
    return asUtc - Math.floor(ms / 60000) * 60000;
}

/** The instant the local day begins (its first existing minute on a day that starts with a DST gap). */
export function startOfDay(day: string, timeZone: string): number {
    const [y, m, d] = day.split('-').map(Number);
    const guess = Date.UTC(y, m - 1, d);
    let t = guess - offsetMs(guess, timeZone);
    t = guess - offsetMs(t, timeZone);
    // A day that begins inside a DST gap: its first local hour is later; step forward to the day.
    while (dayKey(t, timeZone) < day) {
        t += QUARTER_MS;
    }
    return t;
}

/** The day key `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
    const [y, m, d] = day.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Every day key from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
    const out: string[] = [];
    for (let day = from; day <= to && out.length < 4000; day = addDays(day, 1)) {
        out.push(day);
    }
    return out;
}

/**
 * A range of whole local days: [fromDay, toDay] and the instants it spans, [from, to] (ms, both included).
 */
export interface DayRange {
    fromDay: string;
    toDay: string;
    from: number;
    to: number;
}

/**
 * SPEC §5 date filter: startDate..endDate (end defaults to start), else the last `days` local days ending
 * today (today counts as one of them), in the organization's zone.
 */
export function dayRange(query: { days?: number; startDate?: string; endDate?: string }, timeZone: string, nowMs = Date.now()): DayRange {
    let fromDay: string;
    let toDay: string;
    if (query.startDate) {
        fromDay = query.startDate;
        toDay = query.endDate ?? query.startDate;
    }
    else {
        toDay = dayKey(nowMs, timeZone);
        fromDay = addDays(toDay, -((query.days ?? 30) - 1));
    }
    return { fromDay, toDay, from: startOfDay(fromDay, timeZone), to: startOfDay(addDays(toDay, 1), timeZone) - 1 };
}

/** An ISO time shown in the zone, e.g. '2026-01-09 19:00' (for CSV and logs). */
export function localTime(ms: number, timeZone: string): string {
    const p = parts(ms, timeZone);
    return `${p.y}-${pad(p.m)}-${pad(p.d)} ${pad(p.h)}:${pad(p.min)}`;
}
