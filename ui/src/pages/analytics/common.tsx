import { useEffect, useState, type ReactNode } from 'react';
import { Button, Callout, HTMLSelect, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { AdminTextKey, PSEUDO, Translate, useLanguage, useT } from '../../i18n';
import { formatStaffTime, TimeStyle } from '../../time';

/** SPEC §9 page sizes. */
export const PAGE_SIZES = [20, 50, 100, 200];

/** Intl's locale for the agent's language (the pseudo-locale formats as English). */
export function intlLocale(lang: string): string {
    return lang === PSEUDO ? 'en' : lang;
}

/** SPEC §9: a wait of 60 s or more shows as minutes plus seconds ("2 min 5 s"), in the agent's language. */
export function formatWait(seconds: number, t: Translate): string {
    return seconds >= 60 ? t('an.wait', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 }) : t('an.waitSeconds', { seconds });
}

/** A calendar day of the store ('2026-11-27', no zone of its own): "27 nov" in Spanish, for a chart's axis. */
export function formatDay(day: string, lang: string, withYear = false): string {
    const [y, m, d] = day.slice(0, 10).split('-').map(Number);
    if (!y || !m || !d) {
        return day;
    }
    return new Intl.DateTimeFormat(intlLocale(lang), { month: 'short', day: 'numeric', year: withYear ? 'numeric' : undefined, timeZone: 'UTC' })
        .format(new Date(Date.UTC(y, m - 1, d)));
}

/** An hour of the day (0–23) as the language writes it on a clock ("14 h", "2 PM"), for the hourly chart's axis. */
export function formatHour(hour: number, lang: string): string {
    return new Intl.DateTimeFormat(intlLocale(lang), { hour: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, 0, 1, hour)));
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A rate given in per cent (the API's 46.2), as the language writes it, to one decimal: "46.2%", "46,2 %", "٤٦٫٢٪؜". */
export function formatPercent(rate: number, lang: string): string {
    return new Intl.NumberFormat(intlLocale(lang), { style: 'percent', maximumFractionDigits: 1 }).format(rate / 100);
}

/** Numbers as the agent's language writes them (at most 2 decimals: averages): "1,250", "1250" (Spanish), "١٬٢٥٠" (Arabic). */
export function numberFormat(lang: string): Intl.NumberFormat {
    const locale = intlLocale(lang);
    let f = numberFormats.get(locale);
    if (!f) {
        f = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
        numberFormats.set(locale, f);
    }
    return f;
}

/**
 * The analytics screens' formatters (issue 27): texts from the catalogue, times in the store's zone (the analytics
 * answers name it) through ui/src/time.ts, numbers, percentages, minutes and waits in the agent's language.
 */
export function useAnalyticsFormat(timeZone?: string) {
    const t = useT();
    const lang = useLanguage();
    return {
        t,
        lang,
        time: (iso: string | null | undefined, style: TimeStyle = 'dateTime') => formatStaffTime(iso, timeZone, lang, style),
        number: (value: number | null | undefined) => (value === null || value === undefined ? '—' : numberFormat(lang).format(value)),
        /** A rate in per cent (45.5 → "45,5 %" in Spanish). */
        percent: (rate: number) => formatPercent(rate, lang),
        minutes: (value: number) => t('an.minutes', { value }),
        wait: (seconds: number) => formatWait(seconds, t),
        day: (day: string) => formatDay(day, lang)
    };
}

export function useMediaQuery(query: string): boolean {
    const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
    useEffect(() => {
        const list = window.matchMedia(query);
        const on = () => setMatches(list.matches);
        list.addEventListener('change', on);
        on();
        return () => list.removeEventListener('change', on);
    }, [query]);
    return matches;
}

/** Loading, error or the content of one query. */
export function Loaded<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
    if (query.isPending) {
        return <div className="lc-analytics-loading"><Spinner size={24} /></div>;
    }
    if (query.isError) {
        return <Callout intent="danger" role="alert">{String((query.error as Error).message)}</Callout>;
    }
    return <>{children(query.data as T)}</>;
}

export function Empty({ text }: { text: string }) {
    return <NonIdealState className="lc-empty" icon="search" description={text} layout="horizontal" />;
}

/** Page size selector and page buttons; the caller resets to page 1 when the size changes (SPEC §4). */
export function Pager({ page, totalPages, limit, onPage, onLimit, label }: {
    page: number; totalPages: number; limit: number; onPage: (page: number) => void; onLimit: (limit: number) => void; label: string;
}) {
    const t = useT();
    return (
        <div className="lc-pager" role="group" aria-label={t('an.pager.label', { label })}>
            <label className="lc-pager-size">
                {t('an.pager.rows')}{' '}
                <HTMLSelect value={limit} onChange={(e) => onLimit(Number(e.currentTarget.value))} options={PAGE_SIZES.map((n) => ({ value: n, label: t('common.number', { value: n }) }))} />
            </label>
            <Button icon="chevron-left" text={t('an.pager.previous')} disabled={page <= 1} onClick={() => onPage(page - 1)} />
            <span aria-live="polite">{t('an.pager.page', { page, pages: totalPages })}</span>
            <Button rightIcon="chevron-right" text={t('an.pager.next')} disabled={page >= totalPages} onClick={() => onPage(page + 1)} />
        </div>
    );
}

/** SPEC §5 table badge: above 80% default, above 50% secondary, else destructive. */
export function RateBadge({ rate }: { rate: number }) {
    const lang = useLanguage();
    const intent: Intent = rate > 80 ? 'primary' : rate > 50 ? 'warning' : 'danger';
    return <Tag intent={intent} round minimal={rate > 50 && rate <= 80}>{formatPercent(rate, lang)}</Tag>;
}

/** SPEC §5 card colour: 70% or more green, 40% or more yellow, else red. */
export function rateColor(rate: number): 'green' | 'yellow' | 'red' {
    return rate >= 70 ? 'green' : rate >= 40 ? 'yellow' : 'red';
}

/** The statuses a chat session has in analytics; their labels are `an.status.<status>` in the catalogue. */
const STATUSES = ['completed', 'ai_resolved', 'ai_unresolved', 'agent_connected', 'active', 'waiting', 'failed_to_respond', 'no_interaction'];

/** A status's label in the agent's language (an unknown one as it came). */
export function statusLabel(status: string, t: Translate): string {
    return STATUSES.includes(status) ? t(`an.status.${status}` as AdminTextKey) : status;
}

/** SPEC §4 status badges: completed and ai_resolved blue; agent_connected and ai_unresolved orange; failed_to_respond red; others outline. */
export function StatusBadge({ status }: { status: string }) {
    const t = useT();
    const intent: Intent = status === 'completed' || status === 'ai_resolved' ? 'primary'
        : status === 'agent_connected' || status === 'ai_unresolved' ? 'warning'
            : status === 'failed_to_respond' ? 'danger' : 'none';
    return <Tag intent={intent} round minimal={intent === 'none'} className="lc-status-badge">{statusLabel(status, t)}</Tag>;
}

export function Stat({ label, value, sub }: { label: string; value: ReactNode; sub?: ReactNode }) {
    return (
        <div className="lc-a-stat">
            <div className="lc-stat-value">{value}</div>
            <div className="lc-stat-label">{label}</div>
            {sub && <div className="lc-stat-sub">{sub}</div>}
        </div>
    );
}

/**
 * A dialog's onOpened: moves the focus into it (to its close button) when Blueprint's own auto focus found no
 * container yet, so Escape and Tab work from the keyboard at once.
 */
export function focusInside(node: HTMLElement): void {
    if (!node.contains(document.activeElement)) {
        (node.querySelector<HTMLElement>('.bp5-dialog-close-button') ?? node.querySelector<HTMLElement>('button, [href], [tabindex]'))?.focus();
    }
}
