/**
 * Times in a store's zone, named (DESIGN §10 'Times': staff screens, CSV and transcripts in the store's zone), for the
 * server's texts: 'YYYY-MM-DD HH:mm:ss' on the 24-hour clock, which spreadsheets read as a date and time.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
    let f = formatters.get(timeZone);
    if (!f) {
        f = new Intl.DateTimeFormat('en-CA', {
            timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23'
        });
        formatters.set(timeZone, f);
    }
    return f;
}

/** An ISO 8601 UTC instant as the API answers it ('2026-11-27T05:18:13.000Z'). */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** The local date and time of an instant (epoch ms or ISO string) in the zone: '2026-11-27 00:18:13'. */
export function zonedDateTime(at: number | string, timeZone: string): string {
    const ms = typeof at === 'number' ? at : Date.parse(at);
    const p: Record<string, string> = {};
    for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
        p[part.type] = part.value;
    }
    return `${p.year}-${p.month}-${p.day} ${p.hour === '24' ? '00' : p.hour}:${p.minute}:${p.second}`;
}

/** The local date and time with the zone named: '2026-11-27 00:18:13 America/New_York'. */
export function zonedStamp(at: number | string, timeZone: string): string {
    return `${zonedDateTime(at, timeZone)} ${timeZone}`;
}
