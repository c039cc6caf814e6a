import { useEffect, useState, type ReactNode } from 'react';
import { Button, Callout, HTMLSelect, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { UseQueryResult } from '@tanstack/react-query';

/** SPEC §9 page sizes. */
export const PAGE_SIZES = [20, 50, 100, 200];

/** Times in the organization's zone (SPEC §9: New York by default). */
export function formatTime(iso: string | null | undefined, timeZone: string): string {
    if (!iso) {
        return '—';
    }
    return new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** SPEC §9: a wait of 60 s or more shows as minutes plus seconds. */
export function formatWait(seconds: number): string {
    return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${seconds}s`;
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
    return (
        <div className="lc-pager" role="group" aria-label={`${label} pages`}>
            <label className="lc-pager-size">
                Rows per page{' '}
                <HTMLSelect value={limit} onChange={(e) => onLimit(Number(e.currentTarget.value))} options={PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))} />
            </label>
            <Button icon="chevron-left" text="Previous" disabled={page <= 1} onClick={() => onPage(page - 1)} />
            <span aria-live="polite">Page {page} of {totalPages}</span>
            <Button rightIcon="chevron-right" text="Next" disabled={page >= totalPages} onClick={() => onPage(page + 1)} />
        </div>
    );
}

/** SPEC §5 table badge: above 80% default, above 50% secondary, else destructive. */
export function RateBadge({ rate }: { rate: number }) {
    const intent: Intent = rate > 80 ? 'primary' : rate > 50 ? 'warning' : 'danger';
    return <Tag intent={intent} round minimal={rate > 50 && rate <= 80}>{rate}%</Tag>;
}

/** SPEC §5 card colour: 70% or more green, 40% or more yellow, else red. */
export function rateColor(rate: number): 'green' | 'yellow' | 'red' {
    return rate >= 70 ? 'green' : rate >= 40 ? 'yellow' : 'red';
}

const STATUS_LABELS: Record<string, string> = {
    completed: 'Completed', ai_resolved: 'AI Resolved', ai_unresolved: 'AI Unresolved', agent_connected: 'Agent Connected',
    active: 'Active', waiting: 'Waiting', failed_to_respond: 'Failed to Respond', no_interaction: 'No Interaction'
};

/** SPEC §4 status badges: completed and ai_resolved blue; agent_connected and ai_unresolved orange; failed_to_respond red; others outline. */
export function StatusBadge({ status }: { status: string }) {
    const intent: Intent = status === 'completed' || status === 'ai_resolved' ? 'primary'
        : status === 'agent_connected' || status === 'ai_unresolved' ? 'warning'
            : status === 'failed_to_respond' ? 'danger' : 'none';
    return <Tag intent={intent} round minimal={intent === 'none'} className="lc-status-badge">{STATUS_LABELS[status] ?? status}</Tag>;
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
