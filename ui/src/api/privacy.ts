import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuditPage, ErasureResult, PersonFound } from '../../../core/types/api';
import type { RetentionPolicy } from '../../../core/shared/retention';
import { apiRequest, downloadFile, getJson } from './client';

export type { AuditRow, ErasureResult, PersonFound } from '../../../core/types/api';
export { RETENTION_KINDS } from '../../../core/shared/retention';
export type { RetentionPolicy };

/** Issue 25: a customer's data (find, export, erase) and the audit trail, for a store's admins. */
export interface PersonQuery {
    phone?: string;
    email?: string;
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
    await downloadFile('/api/privacy/customers/export', 'customer-export.json', { method: 'POST', body: clean(q) });
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
    await downloadFile(`/api/privacy/audit?format=csv${action ? `&action=${encodeURIComponent(action)}` : ''}`, 'audit-log.csv');
}

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
