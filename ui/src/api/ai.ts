import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AiBulkResolveAnswer, AiChatRecord, AiSessionsSummary, AiSourceUsage, AiStatus, AiTestAnswer, KnowledgeEntry } from '../../../core/types/api';
import { apiRequest, getJson } from './client';

export type { AiBulkResolveAnswer, AiSourceUsage, AiChatRecord, AiSessionsSummary, AiTriage, AiTriageReason, AiStatus, AiTestAnswer, AiTurn, KnowledgeEntry } from '../../../core/types/api';

export interface KnowledgeInput {
    title: string;
    content: string;
    /** The language it is written in (issue 27); null: the store's default. */
    lang?: string | null;
    /** Other ways customers ask (issue 30). */
    phrasings?: string[];
    isActive?: boolean;
}

export const aiKeys = {
    knowledge: ['ai', 'knowledge'] as const,
    history: ['ai', 'history'] as const,
    unresolved: ['ai', 'unresolved'] as const,
    status: ['ai', 'status'] as const,
    sessions: ['ai', 'sessions'] as const,
    usage: ['ai', 'usage'] as const
};

/** Which sources answered customers in the last 30 days, how often, and which questions (issue 30). */
export function useKnowledgeUsage() {
    return useQuery({ queryKey: aiKeys.usage, queryFn: () => getJson<AiSourceUsage[]>('/api/ai/knowledge/usage') });
}

export function useKnowledge() {
    return useQuery({ queryKey: aiKeys.knowledge, queryFn: () => getJson<KnowledgeEntry[]>('/api/ai/knowledge') });
}

function useInvalidate(...keys: ReadonlyArray<readonly string[]>) {
    const client = useQueryClient();
    return () => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useCreateKnowledge() {
    const invalidate = useInvalidate(aiKeys.knowledge, aiKeys.usage);
    return useMutation({
        mutationFn: (input: KnowledgeInput) => apiRequest<KnowledgeEntry>('/api/ai/knowledge', { method: 'POST', body: input }),
        onSuccess: invalidate
    });
}

export function useUpdateKnowledge() {
    const invalidate = useInvalidate(aiKeys.knowledge);
    return useMutation({
        mutationFn: ({ id, ...input }: Partial<KnowledgeInput> & { id: number }) => apiRequest<KnowledgeEntry>(`/api/ai/knowledge/${id}`, { method: 'PUT', body: input }),
        onSuccess: invalidate
    });
}

export function useDeleteKnowledge() {
    const invalidate = useInvalidate(aiKeys.knowledge);
    return useMutation({
        mutationFn: (id: number) => apiRequest<void>(`/api/ai/knowledge/${id}`, { method: 'DELETE' }),
        onSuccess: invalidate
    });
}

export function useImportKnowledge() {
    const invalidate = useInvalidate(aiKeys.knowledge);
    return useMutation({
        mutationFn: (input: { format: 'markdown' | 'csv'; text: string }) =>
            apiRequest<{ created: number; entries: KnowledgeEntry[] }>('/api/ai/knowledge/import', { method: 'POST', body: input }),
        onSuccess: invalidate
    });
}

export function useChatHistory() {
    return useQuery({ queryKey: aiKeys.history, queryFn: () => getJson<AiChatRecord[]>('/api/ai/chat-history?limit=100') });
}

export function useUnresolvedChats() {
    return useQuery({ queryKey: aiKeys.unresolved, queryFn: () => getJson<AiChatRecord[]>('/api/ai/unresolved-chats') });
}

export function useMarkResolved() {
    const invalidate = useInvalidate(aiKeys.history, aiKeys.unresolved, aiKeys.sessions);
    return useMutation({
        mutationFn: ({ id, isResolved }: { id: number; isResolved: boolean }) =>
            apiRequest<AiChatRecord>(`/api/ai/chat-history/${id}`, { method: 'PATCH', body: { isResolved } }),
        onSuccess: invalidate
    });
}

/** Several answers resolved in one call (all, or none when one is not the store's). */
export function useResolveMany() {
    const invalidate = useInvalidate(aiKeys.history, aiKeys.unresolved, aiKeys.sessions);
    return useMutation({
        mutationFn: (ids: number[]) => apiRequest<AiBulkResolveAnswer>('/api/ai/chat-history/resolve', { method: 'POST', body: { ids } }),
        onSuccess: invalidate
    });
}

export function useAiStatus() {
    return useQuery({ queryKey: aiKeys.status, queryFn: () => getJson<AiStatus>('/api/ai-agent/status') });
}

export function useAiSessions() {
    return useQuery({ queryKey: aiKeys.sessions, queryFn: () => getJson<AiSessionsSummary>('/api/ai-agent/sessions') });
}

export function useSetAiEnabled() {
    const invalidate = useInvalidate(aiKeys.status);
    return useMutation({
        mutationFn: (isEnabled: boolean) => apiRequest<AiStatus & { message: string }>('/api/ai-agent/config', { method: 'PUT', body: { isEnabled } }),
        onSuccess: invalidate
    });
}

export function useTestAgent() {
    return useMutation({
        mutationFn: (message: string) => apiRequest<AiTestAnswer>('/api/ai/test', { method: 'POST', body: { message } })
    });
}
