import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProviderCheck, ProviderSettingsUpdate, ProviderSettingsView } from '../../../core/types/loyalty';
import { apiRequest, SUPER_ADMIN_TOKEN_KEY } from './client';

export type { ProviderCheck, ProviderChoice, ProviderSettingsUpdate, ProviderSettingsView } from '../../../core/types/loyalty';

const url = (organizationId: number) => `/api/super-admin/organizations/${organizationId}/loyalty-provider`;

/** An organization's loyalty provider settings (the API key never comes back: `hasApiKey`). */
export function useLoyaltyProvider(organizationId: number | null) {
    return useQuery({
        queryKey: ['super-admin', 'loyalty-provider', organizationId],
        queryFn: () => apiRequest<ProviderSettingsView>(url(organizationId!), { tokenKey: SUPER_ADMIN_TOKEN_KEY }),
        enabled: organizationId !== null
    });
}

export function useSaveLoyaltyProvider(organizationId: number | null) {
    const client = useQueryClient();
    return useMutation({
        mutationFn: (body: ProviderSettingsUpdate) => apiRequest<ProviderSettingsView>(url(organizationId!), { method: 'PUT', body, tokenKey: SUPER_ADMIN_TOKEN_KEY }),
        onSuccess: (saved) => client.setQueryData(['super-admin', 'loyalty-provider', organizationId], saved)
    });
}

/** Asks the organization's provider whether it accepts the saved settings. */
export function useCheckLoyaltyProvider(organizationId: number | null) {
    return useMutation({
        mutationFn: () => apiRequest<ProviderCheck>(`${url(organizationId!)}/check`, { method: 'POST', tokenKey: SUPER_ADMIN_TOKEN_KEY })
    });
}
