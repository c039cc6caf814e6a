import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffProfile } from '../../../core/types/api';
import { apiRequest, getJson } from './client';

export type { StaffProfile };

export const profileKeys = { own: ['profile'] as const };

/** The signed-in agent's profile (GET /api/admin/profile): the name customers see. */
export function useProfile() {
    return useQuery({ queryKey: profileKeys.own, queryFn: () => getJson<StaffProfile>('/api/admin/profile') });
}

export function useSaveProfile() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (body: { displayName: string; language?: string | null }) => apiRequest<StaffProfile>('/api/admin/profile', { method: 'PUT', body }),
        onSuccess: (profile) => queryClient.setQueryData(profileKeys.own, profile)
    });
}
