import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BotInstance, Organization, OrganizationAnalytics, User } from '../../../core/types/api';
import { apiRequest, ORG_TOKEN_KEY, SUPER_ADMIN_TOKEN_KEY } from './client';

export type { BotInstance, Organization, OrganizationAnalytics, User } from '../../../core/types/api';

export const PLANS = ['free', 'basic', 'pro', 'enterprise'] as const;

// ---- super admin ----

const sa = <T,>(url: string) => apiRequest<T>(url, { tokenKey: SUPER_ADMIN_TOKEN_KEY });

export function useOrganizations(enabled = true) {
    return useQuery({ queryKey: ['super-admin', 'organizations'], queryFn: () => sa<Organization[]>('/api/super-admin/organizations'), enabled });
}

export function useBotInstances(enabled = true) {
    return useQuery({ queryKey: ['super-admin', 'bot-instances'], queryFn: () => sa<BotInstance[]>('/api/super-admin/bot-instances'), enabled });
}

export function useUsers(enabled = true) {
    return useQuery({ queryKey: ['super-admin', 'users'], queryFn: () => sa<User[]>('/api/super-admin/users'), enabled });
}

export type Resource = 'organizations' | 'bot-instances' | 'users';

/** Create (no id), update (id + patch) or deactivate (id, deactivate) one super-admin resource; refetches the lists. */
export function useSuperAdminMutation(resource: Resource) {
    const client = useQueryClient();
    return useMutation({
        mutationFn: (input: { id?: number; body?: Record<string, unknown>; deactivate?: boolean }) => {
            const base = `/api/super-admin/${resource}`;
            if (input.id === undefined) {
                return apiRequest(base, { method: 'POST', body: input.body, tokenKey: SUPER_ADMIN_TOKEN_KEY });
            }
            if (input.deactivate) {
                return apiRequest(`${base}/${input.id}/deactivate`, { method: 'POST', tokenKey: SUPER_ADMIN_TOKEN_KEY });
            }
            return apiRequest(`${base}/${input.id}`, { method: 'PATCH', body: input.body, tokenKey: SUPER_ADMIN_TOKEN_KEY });
        },
        onSuccess: () => client.invalidateQueries({ queryKey: ['super-admin'] })
    });
}

// ---- organization user ----

export function useOrgBotInstances(organizationId: number | null) {
    return useQuery({
        queryKey: ['org', 'bot-instances', organizationId],
        queryFn: () => apiRequest<BotInstance[]>(`/api/org/bot-instances?organizationId=${organizationId}`, { tokenKey: ORG_TOKEN_KEY }),
        enabled: organizationId !== null
    });
}

export function useOrgAnalytics(organizationId: number | null, days = 30) {
    return useQuery({
        queryKey: ['org', 'analytics', organizationId, days],
        queryFn: () => apiRequest<OrganizationAnalytics>(`/api/org/analytics?organizationId=${organizationId}&days=${days}`, { tokenKey: ORG_TOKEN_KEY }),
        enabled: organizationId !== null
    });
}
