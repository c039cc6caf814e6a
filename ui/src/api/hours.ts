import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HoursStatus, SupportHours } from '../../../core/shared/support-hours';
import { apiRequest, getJson } from './client';

export type { HoursException, SupportHours, WeeklyRange, WhenClosed } from '../../../core/shared/support-hours';

/** GET /api/chat/business-hours (issue 26). */
export interface SupportHoursView extends SupportHours {
    timeZone: string;
    configured: boolean;
    status: HoursStatus;
}

const key = ['chat', 'business-hours'] as const;

export function useSupportHours() {
    return useQuery({ queryKey: key, queryFn: () => getJson<SupportHoursView>('/api/chat/business-hours') });
}

export function useSaveSupportHours() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (body: SupportHours) => apiRequest<SupportHoursView>('/api/chat/business-hours', { method: 'PUT', body }),
        onSuccess: (data) => queryClient.setQueryData(key, data)
    });
}
