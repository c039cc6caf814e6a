import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_TOKEN_KEY, apiRequest, getJson } from './client';

/** Issue 25: a customer's data (find, export, erase) and the audit trail, for a store's admins. */
export interface PersonQuery {
    phone?: string;
    email?: string;
}

export interface ExternalRecord {
    holder: string;
    what: string;
    action: string;
}

export interface PersonFound {
    phone: string | null;
    email: string | null;
    subject: string | null;
    counts: Record<string, number>;
    total: number;
    sessions: number;
    external: ExternalRecord[];
}

export interface ErasureResult {
    erased: Record<string, number>;
    total: number;
    external: ExternalRecord[];
}

export interface AuditRow {
    id: number;
    organizationId: number | null;
    actorUserId: number | null;
    actorRole: string | null;
    actorEmail: string | null;
    action: string;
    target: string | null;
    subjectHash: string | null;
    details: Record<string, unknown> | null;
    ip: string | null;
    createdAt: string;
}

export interface AuditPage {
    rows: AuditRow[];
    total: number;
    timeZone: string;
}

function clean(q: PersonQuery): PersonQuery {
    return { ...(q.phone?.trim() ? { phone: q.phone.trim() } : {}), ...(q.email?.trim() ? { email: q.email.trim() } : {}) };
}

export function useFindCustomer() {
    return useMutation({
        mutationFn: (q: PersonQuery) => apiRequest<PersonFound>('/api/privacy/customers/find', { method: 'POST', body: clean(q) })
    });
}

export function useEraseCustomer() {
    return useMutation({
        mutationFn: (q: PersonQuery) => apiRequest<ErasureResult>('/api/privacy/customers/erase', { method: 'POST', body: { ...clean(q), confirm: true } })
    });
}

/** Downloads the export as the browser's own file download (the JSON is not kept in the page). */
export async function downloadExport(q: PersonQuery): Promise<void> {
    const token = localStorage.getItem(ADMIN_TOKEN_KEY);
    const res = await fetch('/api/privacy/customers/export', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(clean(q))
    });
    if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        throw new Error((body as { message?: string }).message ?? `HTTP ${res.status}`);
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'customer-export.json';
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useAuditTrail(filter: { action: string; limit: number }) {
    const params = new URLSearchParams({ limit: String(filter.limit), ...(filter.action ? { action: filter.action } : {}) });
    return useQuery({
        queryKey: ['privacy', 'audit', filter],
        queryFn: () => getJson<AuditPage>(`/api/privacy/audit?${params}`),
        placeholderData: (previous) => previous
    });
}

export async function downloadAuditCsv(action: string): Promise<void> {
    const token = localStorage.getItem(ADMIN_TOKEN_KEY);
    const res = await fetch(`/api/privacy/audit?format=csv${action ? `&action=${encodeURIComponent(action)}` : ''}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!res.ok) {
        throw new Error(`HTTP ${res.status}`);
    }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = 'audit-log.csv';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const RETENTION_KINDS = ['chats', 'ai', 'verifications', 'analytics', 'mail', 'audit'] as const;
export type RetentionKind = typeof RETENTION_KINDS[number];
export type RetentionPolicy = Record<RetentionKind, number | null>;

export function useRetention() {
    return useQuery({ queryKey: ['privacy', 'retention'], queryFn: () => getJson<RetentionPolicy & { defaults: RetentionPolicy }>('/api/privacy/retention') });
}

export function useSaveRetention() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (policy: RetentionPolicy) => apiRequest<RetentionPolicy & { defaults: RetentionPolicy }>('/api/privacy/retention', { method: 'PUT', body: policy }),
        onSuccess: (data) => queryClient.setQueryData(['privacy', 'retention'], data)
    });
}
