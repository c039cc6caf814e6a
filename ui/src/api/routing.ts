import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatNote, ChatOffer, RoutingSettings, TeamMember } from '../../../core/types/routing';
import type { ChatSession } from '../../../core/types/api';
import { apiRequest, getJson } from './client';
import { chatKeys } from './chat';

export type { ChatNote, ChatOffer, RoutingSettings, TeamMember } from '../../../core/types/routing';

/** A waiting chat with its open offer (issue 26): who has it, until when. */
export type WaitingChat = ChatSession & { offer?: ChatOffer | null };

export const routingKeys = {
    team: ['chat', 'team'] as const,
    settings: ['chat', 'routing-settings'] as const,
    notes: (sessionId: string) => ['chat', 'notes', sessionId] as const
};

const sessionPath = (sessionId: string) => `/api/chat/session/${encodeURIComponent(sessionId)}`;

function clientId(): string {
    return `n${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** The store's staff with presence, open chats and capacity (refreshed on the team's pushes). */
export function useTeam(enabled = true) {
    return useQuery({ queryKey: routingKeys.team, queryFn: () => getJson<TeamMember[]>('/api/chat/team'), enabled, refetchInterval: 15_000 });
}

export function useSetCapacity() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ userId, capacity }: { userId: number; capacity: number }) =>
            apiRequest<TeamMember>(`/api/chat/team/${userId}`, { method: 'PUT', body: { capacity } }),
        onSuccess: (member) => queryClient.setQueryData<TeamMember[]>(routingKeys.team, (old) => old?.map((m) => (m.id === member.id ? member : m)))
    });
}

export function useRoutingSettings() {
    return useQuery({ queryKey: routingKeys.settings, queryFn: () => getJson<RoutingSettings>('/api/chat/routing-settings') });
}

export function useSetRoutingSettings() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: (body: { autoAssign: boolean }) => apiRequest<RoutingSettings>('/api/chat/routing-settings', { method: 'PUT', body }),
        onSuccess: (data) => {
            queryClient.setQueryData(routingKeys.settings, data);
            void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
        }
    });
}

/** A conversation's internal notes (staff only). */
export function useNotes(sessionId: string | null) {
    return useQuery({
        queryKey: routingKeys.notes(sessionId ?? ''),
        queryFn: () => getJson<ChatNote[]>(`${sessionPath(sessionId!)}/notes`),
        enabled: !!sessionId
    });
}

/** A note into the cached notes of its chat, once (from a push or a save). */
export function addNoteToCache(queryClient: ReturnType<typeof useQueryClient>, note: ChatNote): void {
    queryClient.setQueryData<ChatNote[]>(routingKeys.notes(note.sessionId), (old) =>
        (!old || old.some((n) => n.id === note.id) ? old : [...old, note]));
}

export function useAddNote() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, text }: { sessionId: string; text: string }) =>
            apiRequest<ChatNote>(`${sessionPath(sessionId)}/notes`, { method: 'POST', body: { text, clientNoteId: clientId() } }),
        onSuccess: (note) => addNoteToCache(queryClient, note)
    });
}

export function useTransfer() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, toAgentId, note }: { sessionId: string; toAgentId: number; note: string }) =>
            apiRequest<{ session: ChatSession; note: ChatNote }>(`${sessionPath(sessionId)}/transfer`, { method: 'POST', body: { toAgentId, note, clientNoteId: clientId() } }),
        onSuccess: ({ note }) => {
            addNoteToCache(queryClient, note);
            void queryClient.invalidateQueries({ queryKey: chatKeys.active });
            void queryClient.invalidateQueries({ queryKey: routingKeys.team });
        }
    });
}
