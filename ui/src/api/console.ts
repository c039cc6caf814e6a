import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CannedReply, ChatSession, CustomerContext, HistoryPage, LeftMessageReply, LeftMessagesPage } from '../../../core/types/api';
import { apiRequest, getJson } from './client';
import { chatKeys } from './chat';

export type { CannedReply, CustomerContext, CustomerOrder, HistoryPage, LeftMessageReply, LeftMessagesPage } from '../../../core/types/api';

/** The agent console's reads beyond the live queue (GET /api/chat/history, …/context, /api/chat/canned-replies). */

export interface HistoryFilter {
    q?: string;
    phone?: string;
    /** YYYY-MM-DD, the first and last day (inclusive) of chats to show. */
    fromDay?: string;
    toDay?: string;
    starred?: boolean;
    archived?: 'exclude' | 'only' | 'include';
    page?: number;
}

export interface AdminOrganization {
    id: number;
    name: string;
    storeName: string;
    domain: string;
    subdomain: string;
    /** ISO 3166-1 alpha-2: where phones are read, and which ones staff see in national format (issue 23). */
    country?: string;
    /** The store's IANA time zone: staff screens show times in it, named (DESIGN §10 'Times', issue 27). */
    timeZone?: string;
    user: { id: number; email: string; role: string };
}

export const consoleKeys = {
    history: (filter: HistoryFilter) => ['chat', 'history', filter] as const,
    context: (sessionId: string) => ['chat', 'context', sessionId] as const,
    canned: ['chat', 'canned-replies'] as const,
    organization: ['admin', 'organization'] as const
};

/** The local day's start as an ISO instant (the filter's days are the agent's own days). */
function dayStart(day: string, plusDays = 0): string {
    const [y, m, d] = day.split('-').map(Number);
    return new Date(y, m - 1, d + plusDays).toISOString();
}

export function historyQuery(filter: HistoryFilter): string {
    const params = new URLSearchParams();
    if (filter.q?.trim()) {
        params.set('q', filter.q.trim());
    }
    if (filter.phone?.trim()) {
        params.set('phone', filter.phone.trim());
    }
    if (filter.fromDay) {
        params.set('from', dayStart(filter.fromDay));
    }
    if (filter.toDay) {
        params.set('to', dayStart(filter.toDay, 1));
    }
    if (filter.starred) {
        params.set('starred', 'true');
    }
    params.set('archived', filter.archived ?? 'include');
    params.set('page', String(filter.page ?? 1));
    return params.toString();
}

export function useHistory(filter: HistoryFilter) {
    return useQuery({
        queryKey: consoleKeys.history(filter),
        queryFn: () => getJson<HistoryPage>(`/api/chat/history?${historyQuery(filter)}`),
        placeholderData: (previous) => previous
    });
}

export function useTranscript(sessionId: string | null) {
    return useQuery({
        queryKey: ['chat', 'transcript', sessionId ?? ''],
        queryFn: () => getJson<ChatSession>(`/api/chat/session/${encodeURIComponent(sessionId!)}`),
        enabled: !!sessionId
    });
}

export function useCustomerContext(sessionId: string | null) {
    return useQuery({
        queryKey: consoleKeys.context(sessionId ?? ''),
        queryFn: () => getJson<CustomerContext>(`/api/chat/session/${encodeURIComponent(sessionId!)}/context`),
        enabled: !!sessionId
    });
}

export function useCannedReplies(enabled: boolean) {
    return useQuery({ queryKey: consoleKeys.canned, queryFn: () => getJson<CannedReply[]>('/api/chat/canned-replies'), enabled });
}

export function useAdminOrganization() {
    return useQuery({ queryKey: consoleKeys.organization, queryFn: () => getJson<AdminOrganization>('/api/admin/organization') });
}

/** The agent read a chat up to `seq`: its unread count in the cached list drops to what the server says. */
export function useMarkRead() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, seq }: { sessionId: string; seq: number }) =>
            apiRequest<{ sessionId: string; agentReadSeq: number; unreadCount: number }>(`/api/chat/session/${encodeURIComponent(sessionId)}/read`, { method: 'POST', body: { seq } }),
        onSuccess: (r) => queryClient.setQueryData<ChatSession[]>(chatKeys.active, (old) =>
            old?.map((s) => (s.sessionId === r.sessionId ? { ...s, unreadCount: r.unreadCount, agentReadSeq: r.agentReadSeq } : s)))
    });
}

// ---- left messages (issue 23): the Messages inbox ----

export type LeftMessagesState = 'open' | 'done' | 'all';

export const leftMessageKeys = {
    all: ['chat', 'left-messages'] as const,
    list: (state: LeftMessagesState) => ['chat', 'left-messages', state] as const
};

/** The store's left messages in one state, with the inbox's open and unread counts (refetched on pushes). */
export function useLeftMessages(state: LeftMessagesState) {
    return useQuery({
        queryKey: leftMessageKeys.list(state),
        queryFn: () => getJson<LeftMessagesPage>(`/api/chat/left-messages?state=${state}`),
        placeholderData: (previous) => previous
    });
}

function newReplyId(): string {
    return `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** An agent's answer to a left message: mailed to the customer, then kept in the thread. */
export function useReplyToLeftMessage() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, text }: { sessionId: string; text: string }) =>
            apiRequest<LeftMessageReply>(`/api/chat/left-messages/${encodeURIComponent(sessionId)}/reply`, { method: 'POST', body: { message: text, clientMessageId: newReplyId() } }),
        onSettled: (_r, _e, v) => {
            void queryClient.invalidateQueries({ queryKey: leftMessageKeys.all });
            void queryClient.invalidateQueries({ queryKey: ['chat', 'transcript', v.sessionId] });
        }
    });
}

/** Done, or open again. */
export function useSetLeftMessageState() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, state }: { sessionId: string; state: 'open' | 'done' }) =>
            apiRequest<ChatSession>(`/api/chat/left-messages/${encodeURIComponent(sessionId)}`, { method: 'PATCH', body: { state } }),
        onSettled: (_r, _e, v) => {
            void queryClient.invalidateQueries({ queryKey: leftMessageKeys.all });
            void queryClient.invalidateQueries({ queryKey: ['chat', 'transcript', v.sessionId] });
        }
    });
}
