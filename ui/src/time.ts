/**
 * Staff times (DESIGN §10 'Times', issue 27): every date or time a staff screen shows is in the store's time zone, named,
 * and formatted for the agent's language — never the browser's zone. One helper for every screen: `useStaffTime()`
 * (the store's zone from /api/admin/organization, the language from the i18n context) or `formatStaffTime` when the
 * zone is known otherwise (the analytics and privacy answers carry it; the organization dashboard's totals too).
 */
import { useAdminOrganization } from './api/console';
import { useLanguage } from './i18n';
import { PSEUDO } from './i18n';

/** dateTime: "27 nov 2026, 14:05 CET"; time: "14:05 CET"; date: "27 nov 2026" (a day has no zone to name); short: "27 nov, 14:05 CET". */
export type TimeStyle = 'dateTime' | 'time' | 'date' | 'short' | 'precise';

const OPTIONS: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
    dateTime: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' },
    time: { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' },
    date: { year: 'numeric', month: 'short', day: 'numeric' },
    short: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' },
    /** A log's time to the millisecond ("14:05:09.123 CET"): the system test's websocket messages. */
    // (fractionalSecondDigits is ES2021's, newer than this app's TypeScript lib; every browser the app supports has it.)
    precise: { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hourCycle: 'h23', timeZoneName: 'short' } as Intl.DateTimeFormatOptions
};

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string | undefined, lang: string, style: TimeStyle): Intl.DateTimeFormat {
    // The pseudo-locale formats as English (its texts are English made longer; Intl does not know en-XA).
    const locale = lang === PSEUDO ? 'en' : lang;
    const key = `${zone ?? ''}|${locale}|${style}`;
    let f = formats.get(key);
    if (!f) {
        try {
            f = new Intl.DateTimeFormat(locale, { ...OPTIONS[style], timeZone: zone });
        }
        catch {
            // A zone this browser does not know: UTC, named as such, rather than the browser's own zone unnamed.
            f = new Intl.DateTimeFormat(locale, { ...OPTIONS[style], timeZone: 'UTC' });
        }
        formats.set(key, f);
    }
    return f;
}

/** An ISO time (or epoch ms) in `zone`, named, for a reader of `lang`; '—' when there is none. */
export function formatStaffTime(when: string | number | Date | null | undefined, zone: string | undefined, lang: string, style: TimeStyle = 'dateTime'): string {
    if (when === null || when === undefined || when === '') {
        return '—';
    }
    const date = when instanceof Date ? when : new Date(when);
    return Number.isNaN(date.getTime()) ? '—' : formatter(zone, lang, style).format(date);
}

/** The store's zone as the admin shell knows it (undefined until loaded: the browser's, still named). */
export function useStoreZone(): string | undefined {
    return useAdminOrganization().data?.timeZone;
}

/** The staff time formatter of this screen: the store's zone (or `zone` when the caller has it) and the agent's language. */
export function useStaffTime(zone?: string): (when: string | number | Date | null | undefined, style?: TimeStyle) => string {
    const lang = useLanguage();
    const storeZone = useStoreZone();
    const z = zone ?? storeZone;
    return (when, style) => formatStaffTime(when, z, lang, style);
}
