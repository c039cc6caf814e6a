import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, ChatSession, EmailSettings } from '../../../core/types/api';
import { apiRequest, getJson } from './client';

export type { ChatMessage, ChatSession, ChatStatus, EmailSettings } from '../../../core/types/api';

export interface AgentIdentity {
    id: number;
    email: string;
    role: string;
    organizationId: number;
}

export const chatKeys = {
    me: ['admin', 'verify'] as const,
    waiting: ['chat', 'waiting'] as const,
    active: ['chat', 'sessions', 'active'] as const,
    messages: (sessionId: string) => ['chat', 'messages', sessionId] as const,
    emailSettings: ['chat', 'email-settings'] as const,
    agentStatus: ['chat', 'agent-status'] as const
};

/** The logged-in admin is the agent (GET /api/admin/verify). */
export function useAgentIdentity() {
    return useQuery({
        queryKey: chatKeys.me,
        queryFn: async () => (await getJson<{ user: AgentIdentity }>('/api/admin/verify')).user
    });
}

/** Waiting chats, polled every 5 s (SPEC §9) and refreshed on socket pushes. */
export function useWaitingChats() {
    return useQuery({ queryKey: chatKeys.waiting, queryFn: () => getJson<ChatSession[]>('/api/chat/waiting'), refetchInterval: 5000 });
}

export function useActiveChats() {
    return useQuery({ queryKey: chatKeys.active, queryFn: () => getJson<ChatSession[]>('/api/chat/sessions?status=active') });
}

export function useChatMessages(sessionId: string | null) {
    return useQuery({
        queryKey: chatKeys.messages(sessionId ?? ''),
        queryFn: async () => (await getJson<{ messages: ChatMessage[] }>(`/api/chat/session/${encodeURIComponent(sessionId!)}/messages`)).messages,
        enabled: !!sessionId
    });
}

export function useEmailSettings() {
    return useQuery({ queryKey: chatKeys.emailSettings, queryFn: () => getJson<EmailSettings>('/api/chat/email-settings') });
}

export function useSaveEmailSettings() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (body: EmailSettings) => apiRequest<EmailSettings & { message: string }>('/api/chat/email-settings', { method: 'POST', body }),
        onSuccess: (data) => queryClient.setQueryData(chatKeys.emailSettings, { emailNotificationsEnabled: data.emailNotificationsEnabled, emailRecipient: data.emailRecipient })
    });
}

export function useTestEmail() {
    return useMutation({ mutationFn: () => apiRequest<{ message: string }>('/api/chat/test-email', { method: 'POST', body: {} }) });
}

export function useAgentStatus() {
    return useQuery({ queryKey: chatKeys.agentStatus, queryFn: () => getJson<{ agentId: number; available: boolean }>('/api/chat/agent/status') });
}

export function useSetAvailability() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (available: boolean) => apiRequest<{ available: boolean }>('/api/chat/agent/availability', { method: 'POST', body: { available } }),
        onSuccess: (data) => queryClient.setQueryData(chatKeys.agentStatus, (old: { agentId: number } | undefined) => ({ ...(old ?? { agentId: 0 }), available: data.available }))
    });
}

/** Star / archive: failures are only logged (SPEC §8); the session list is refetched afterwards (SPEC §4). */
export function useSessionFlag(flag: 'star' | 'archive') {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, value }: { sessionId: string; value: boolean }) =>
            apiRequest<ChatSession>(`/api/chat/session/${encodeURIComponent(sessionId)}/${flag}`, {
                method: 'PATCH', body: flag === 'star' ? { isStarred: value } : { isArchived: value }
            }),
        onError: (err) => console.error(`${flag} failed`, err),
        onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.active })
    });
}
