import { useQuery } from '@tanstack/react-query';
import { apiRequest, getJson } from './client';

/** The system test dashboard's server side (plugins/system-test). */

export interface RoundTrip {
    ok: boolean;
    ms: number;
    message: string;
}

export interface SystemSummary {
    days: number;
    totalInteractions: number;
    successRate: number;
    activeDomains: number;
    loyaltyChecks: number;
    liveChatSessions: number;
    waitingSessions: Array<{ sessionId: string; phoneNumber: string; startedAt: string; waitSeconds: number; firstMessage: string | null }>;
}

export const runAnalyticsTest = () => apiRequest<RoundTrip>('/api/admin/system-test/analytics', { method: 'POST', body: {} });
export const runAvailabilityTest = () => apiRequest<RoundTrip & { agentsAvailable: boolean }>('/api/admin/system-test/availability');
export const runLoyaltyTest = (phone: string) => apiRequest<RoundTrip & { found: boolean }>('/api/admin/system-test/loyalty', { method: 'POST', body: phone.trim() ? { phone: phone.trim() } : {} });

export function useSystemSummary() {
    return useQuery({ queryKey: ['system-test', 'summary'], queryFn: () => getJson<SystemSummary>('/api/admin/system-test/summary'), refetchInterval: 10_000 });
}
