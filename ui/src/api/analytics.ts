import { useQuery } from '@tanstack/react-query';
import type {
    AnalyticsChatSession, AnalyticsSummary, ChatAnalytics, ChatDurations, ChatStatusFigures, CsatReport, CustomerLookupResult, DailyRow,
    DomainDetail, DomainRow, FailedVerificationRow, HourlyRow, OrderHistoryResponse, Paged, PhoneDetail, PhoneRow,
    QuestionUsageRow, WebsocketStats
} from '../../../core/types/api';
import { downloadFile, getJson } from './client';

export type {
    AnalyticsChatSession, AnalyticsSummary, ChatAnalytics, ChatDurations, CustomerLookupResult, DailyRow, DomainDetail, DomainRow,
    FailedVerificationRow, HourlyRow, OrderHistoryResponse, PhoneDetail, PhoneRow, QuestionUsageRow, WebsocketStats
};

/** The date filter (SPEC §5): both empty = the default window; an end without a start is ignored; end defaults to start. */
export interface DateFilter { startDate: string; endDate: string }

/** The query string of a range: `days` (the default window) or startDate/endDate. */
export function rangeParams(filter: DateFilter, defaultDays: number): string {
    if (filter.startDate) {
        return `startDate=${filter.startDate}&endDate=${filter.endDate && filter.endDate >= filter.startDate ? filter.endDate : filter.startDate}`;
    }
    return `days=${defaultDays}`;
}

const key = (name: string, ...rest: unknown[]) => ['analytics', name, ...rest];

export function useSummary(filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({ queryKey: key('summary', q), queryFn: () => getJson<AnalyticsSummary>(`/api/analytics/summary?${q}`) });
}
/** Ratings and the per-agent report (issue 28). */
export function useCsat(filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({ queryKey: key('csat', q), queryFn: () => getJson<CsatReport>(`/api/analytics/csat?${q}`) });
}
export function useHourly(filter: DateFilter) {
    const q = rangeParams(filter, 7);
    return useQuery({ queryKey: key('hourly', q), queryFn: () => getJson<HourlyRow[]>(`/api/analytics/hourly?${q}`) });
}
export function useDaily(filter: DateFilter) {
    const q = rangeParams(filter, 7);
    return useQuery({ queryKey: key('daily', q), queryFn: () => getJson<DailyRow[]>(`/api/analytics/daily-interactions?${q}`) });
}
export function usePhones(filter: DateFilter, page: number, limit: number) {
    const q = `${rangeParams(filter, 30)}&page=${page}&limit=${limit}`;
    return useQuery({ queryKey: key('phones', q), queryFn: () => getJson<Paged<PhoneRow>>(`/api/analytics/phones?${q}`) });
}
/** SPEC §2: one loyalty customer lookup per listed phone (the server answers from its cached column). */
export function useCustomerLookup(phone: string, known: CustomerLookupResult | null) {
    return useQuery({
        queryKey: key('customer', phone),
        queryFn: async (): Promise<CustomerLookupResult> => {
            try {
                return await getJson<CustomerLookupResult>(`/api/analytics/alpine-customer/${encodeURIComponent(phone)}`);
            }
            catch (err) {
                console.error('customer lookup failed', err);
                return { found: false, email: null, name: null, alpineId: null, error: 'Failed to load' };
            }
        },
        enabled: !known,
        initialData: known ?? undefined
    });
}
export function usePhoneDetails(phone: string | null, filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({
        queryKey: key('phone-details', phone, q),
        queryFn: () => getJson<PhoneDetail>(`/api/analytics/phone-details/${encodeURIComponent(phone!)}?${q}`),
        enabled: !!phone
    });
}
export function useFailedVerifications(filter: DateFilter, enabled: boolean) {
    const q = `${rangeParams(filter, 30)}&page=1&limit=200`;
    return useQuery({ queryKey: key('failed', q), queryFn: () => getJson<Paged<FailedVerificationRow>>(`/api/analytics/failed-verifications?${q}`), enabled });
}
export function useChatSessions(filter: DateFilter, page: number, limit: number) {
    const q = `${rangeParams(filter, 30)}&page=${page}&limit=${limit}`;
    return useQuery({ queryKey: key('chat-sessions', q), queryFn: () => getJson<Paged<AnalyticsChatSession>>(`/api/analytics/chat-sessions?${q}`) });
}
export function useSessionMessages(sessionId: string | null) {
    return useQuery({
        queryKey: key('messages', sessionId),
        queryFn: () => getJson<{ sessionId: string; messages: Array<{ id: number; sender: string; message: string; timestamp: string }> }>(
            `/api/analytics/chat-sessions/${encodeURIComponent(sessionId!)}/messages`),
        enabled: !!sessionId
    });
}
export function useChatAnalytics(filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({ queryKey: key('chat', q), queryFn: () => getJson<ChatAnalytics>(`/api/analytics/chat?${q}`) });
}
export function useChatDurations(filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({ queryKey: key('durations', q), queryFn: () => getJson<ChatDurations>(`/api/analytics/chat-durations?${q}`) });
}
/** Open chats, polled every 30 s (SPEC §9). */
export function useChatStatus() {
    return useQuery({ queryKey: key('chat-status'), queryFn: () => getJson<ChatStatusFigures>('/api/analytics/chat-status'), refetchInterval: 30_000 });
}
export function useOrderHistory(filter: DateFilter, page: number, limit: number) {
    const q = `${rangeParams(filter, 30)}&page=${page}&limit=${limit}`;
    return useQuery({ queryKey: key('orders', q), queryFn: () => getJson<OrderHistoryResponse>(`/api/analytics/order-history?${q}`) });
}
export function useDomains(filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({ queryKey: key('domains', q), queryFn: () => getJson<DomainRow[]>(`/api/analytics/domains?${q}`) });
}
export function useDomainDetail(domain: string | null, filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({
        queryKey: key('domain', domain, q),
        queryFn: () => getJson<DomainDetail>(`/api/analytics/domain/${encodeURIComponent(domain!)}?${q}`),
        enabled: !!domain
    });
}
export function useQuestionUsage(filter: DateFilter) {
    const q = rangeParams(filter, 30);
    return useQuery({ queryKey: key('questions', q), queryFn: () => getJson<QuestionUsageRow[]>(`/api/analytics/questions?${q}`) });
}
/** WebSocket connections on every node, polled every 10 s (SPEC §9). */
export function useWebsocketStats() {
    return useQuery({ queryKey: key('websocket'), queryFn: () => getJson<WebsocketStats>('/api/analytics/websocket'), refetchInterval: 10_000 });
}

/** Downloads a table's CSV export. */
export async function downloadCsv(table: string, filter: DateFilter, defaultDays = 30): Promise<void> {
    await downloadFile(`/api/analytics/export/${table}?${rangeParams(filter, defaultDays)}`, `analytics-${table}.csv`);
}
