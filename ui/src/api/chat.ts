import { QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgentStatus, ChatMessage, ChatSession, EmailSettings } from '../../../core/types/api';
import { apiRequest, getJson } from './client';

export type { ChatAttachment, ChatMessage, ChatSession, ChatStatus, EmailSettings } from '../../../core/types/api';

export const chatKeys = {
    waiting: ['chat', 'waiting'] as const,
    active: ['chat', 'sessions', 'active'] as const,
    messages: (sessionId: string) => ['chat', 'messages', sessionId] as const,
    emailSettings: ['chat', 'email-settings'] as const,
    agentStatus: ['chat', 'agent-status'] as const
};

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
    return useQuery({ queryKey: chatKeys.agentStatus, queryFn: () => getJson<AgentStatus & { agentId: number }>('/api/chat/agent/status') });
}

export function useSetAvailability() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (available: boolean) => apiRequest<{ available: boolean }>('/api/chat/agent/availability', { method: 'POST', body: { available } }),
        onSuccess: (data) => queryClient.setQueryData(chatKeys.agentStatus, (old: (AgentStatus & { agentId: number }) | undefined) => old && ({
            ...old, available: data.available, ...(data.available ? { awayReason: null, awayAt: null } : {})
        }))
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

/**
 * A command over the agent's socket (SPEC §5: accepting, sending and ending need the open socket): the
 * request frame of a route, answered with the route's result, or rejected with its error.
 */
export type SocketCommand = <T>(method: 'POST', path: string, payload: unknown) => Promise<T>;

const sessionPath = (sessionId: string) => `/api/chat/session/${encodeURIComponent(sessionId)}`;

/** A message into the cached conversation of its chat, once, in sequence order (from a push or a send). */
export function appendMessage(queryClient: QueryClient, m: ChatMessage): void {
    queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(m.sessionId), (old) => {
        if (!old || old.some((x) => x.seq === m.seq)) {
            return old;
        }
        return [...old, m].sort((x, y) => x.seq - y.seq);
    });
}

/** Accept Chat: the waiting list and the active chats are refetched afterwards, whatever the answer. */
export function useAcceptChat(command: SocketCommand) {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (sessionId: string) => command<ChatSession>('POST', `${sessionPath(sessionId)}/accept`, {}),
        onSettled: () => {
            void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
            void queryClient.invalidateQueries({ queryKey: chatKeys.active });
        }
    });
}

function newClientMessageId(): string {
    return `a${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** The agent's reply, with a client message id (a retried send is stored once); shown once stored. */
export function useSendMessage(command: SocketCommand) {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, text, attachments }: { sessionId: string; text: string; attachments?: string[] }) =>
            command<ChatMessage>('POST', `${sessionPath(sessionId)}/messages`, { message: text, clientMessageId: newClientMessageId(), ...(attachments?.length ? { attachments } : {}) }),
        onSuccess: (m) => appendMessage(queryClient, m)
    });
}

/** End: the active chats are refetched afterwards. */
export function useEndChat(command: SocketCommand) {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (sessionId: string) => command<ChatSession>('POST', `${sessionPath(sessionId)}/end`, {}),
        onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.active })
    });
}
