import { language, t } from './texts';

/** POST /api/chat/check-availability's answer (issue 26): `reason` and `opensAt` come from the store's support hours. */
export interface Availability {
    available: boolean;
    reason?: 'open' | 'no_agent' | 'closed';
    /** Closed: the next opening, ISO 8601 with the store's offset (null: not within a year). */
    opensAt?: string | null;
    whenClosed?: 'offline_form' | 'ai_only' | 'hide';
}

/** The customer's own zone, named for people: 'New York' from America/New_York (DESIGN §10 'Times'). */
export function zoneName(timeZone: string): string {
    const city = timeZone.split('/').pop() ?? timeZone;
    return city.replace(/_/g, ' ');
}

const dayOf = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);

/**
 * "Our live support team is away right now. We're back tomorrow at 9:00 AM your time (Madrid)." in the widget's
 * language, in the customer's own zone (the browser's), whatever the store's zone is.
 */
export function backAtText(opensAt: string | null | undefined, now = Date.now(), timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'): string {
    const at = opensAt ? Date.parse(opensAt) : NaN;
    if (!Number.isFinite(at)) {
        return t('closedNoTime');
    }
    const lang = language();
    const days = Math.round((Date.parse(dayOf(at, timeZone)) - Date.parse(dayOf(now, timeZone))) / 86_400_000);
    const day = days <= 0 ? 'today' : days === 1 ? 'tomorrow' : 'other';
    const date = new Intl.DateTimeFormat(lang, days < 7 ? { timeZone, weekday: 'long' } : { timeZone, month: 'long', day: 'numeric' }).format(at);
    const time = new Intl.DateTimeFormat(lang, { timeZone, hour: 'numeric', minute: '2-digit' }).format(at);
    return t('closedBackAt', { day, date, time, zone: zoneName(timeZone) });
}
