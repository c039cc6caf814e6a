import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Intent } from '@blueprintjs/core';
import { appendMessage, ChatMessage, ChatSession, chatKeys } from '../../api/chat';
import { consoleKeys } from '../../api/console';
import { addNoteToCache, ChatNote, routingKeys } from '../../api/routing';
import type { Translate } from '../../i18n';
import type { AgentPush } from './agent-socket';

/**
 * The agent console's state that is not the server's (issue 31: out of AdminChat.tsx): each chat's draft, which
 * customers are typing, and what a push of the agent feed changes in the query cache.
 */

/** Drafts outlive a reload of the tab (never shared between tabs or agents). */
const DRAFTS_KEY = 'lc-chat-drafts';

/** How long a customer's typing signal shows (they send one every 2 s while typing). */
export const TYPING_SHOWN_MS = 4000;

function readDrafts(): Record<string, string> {
    try {
        const parsed = JSON.parse(sessionStorage.getItem(DRAFTS_KEY) ?? '{}');
        return parsed && typeof parsed === 'object' ? parsed as Record<string, string> : {};
    }
    catch {
        return {};
    }
}

export interface Drafts {
    /** The draft of each chat by session id. */
    drafts: Record<string, string>;
    setDraft(sessionId: string, text: string): void;
    /**
     * The reply went: the chat's draft is gone, or, given the draft as it was sent, only that text goes (what the agent
     * typed while the reply was on its way stays).
     */
    clearDraft(sessionId: string, sent?: string): void;
    /** The '/' key: the draft starts a canned reply (once). */
    startCannedReply(sessionId: string): void;
}

/** Each chat keeps its own draft, in sessionStorage (this tab only). */
export function useDrafts(): Drafts {
    const [drafts, setDrafts] = useState<Record<string, string>>(readDrafts);
    useEffect(() => {
        sessionStorage.setItem(DRAFTS_KEY, JSON.stringify(drafts));
    }, [drafts]);
    const setDraft = useCallback((sessionId: string, text: string) => setDrafts((d) => ({ ...d, [sessionId]: text })), []);
    const clearDraft = useCallback((sessionId: string, sent?: string) => setDrafts((d) => {
        const now = d[sessionId] ?? '';
        if (sent !== undefined && now !== sent && now.startsWith(sent)) {
            return { ...d, [sessionId]: now.slice(sent.length).replace(/^\s+/, '') };
        }
        if (sent !== undefined && now !== sent && now.trim()) {
            return d;       // rewritten meanwhile: the agent's text, not the sent one
        }
        const rest = { ...d };
        delete rest[sessionId];
        return rest;
    }), []);
    const startCannedReply = useCallback((sessionId: string) => setDrafts((d) => (d[sessionId]?.startsWith('/') ? d : { ...d, [sessionId]: `/${d[sessionId] ?? ''}` })), []);
    return { drafts, setDraft, clearDraft, startCannedReply };
}

/**
 * Which chats' customers are typing: a typing signal shows for TYPING_SHOWN_MS (each chat has its own timer, so
 * nothing re-renders the console every second), and a customer's message ends it at once.
 */
export function useCustomerTyping(): { typing: Record<string, boolean>; setTyping(sessionId: string, typing: boolean): void } {
    const [typing, setTypingState] = useState<Record<string, boolean>>({});
    const timers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});
    useEffect(() => () => Object.values(timers.current).forEach(clearTimeout), []);
    const setTyping = useCallback((sessionId: string, value: boolean) => {
        clearTimeout(timers.current[sessionId]);
        if (value) {
            timers.current[sessionId] = setTimeout(() => setTypingState((t) => ({ ...t, [sessionId]: false })), TYPING_SHOWN_MS);
        }
        setTypingState((t) => (t[sessionId] === value ? t : { ...t, [sessionId]: value }));
    }, []);
    return { typing, setTyping };
}

/** What a push of the agent feed may change besides the query cache: the console's own state and its toasts. */
export interface PushEffects {
    queryClient: QueryClient;
    t: Translate;
    toast(title: string, text: string, intent?: Intent): void;
    /** A chat ended (the just-accepted chat, if it was that one, is forgotten). */
    ended(sessionId: string): void;
    /** The question an AI hand-off started from. */
    aiQuestion(sessionId: string, question: string): void;
    customerTyping(sessionId: string, typing: boolean): void;
}

/**
 * A push of the agent feed, applied to the console: the query cache (queues, chats, messages, notes, team) and the
 * console's state. The shell does the rest on every page (the new-chat banner, sounds, alerts: agent-presence.tsx).
 */
export function applyPush(push: AgentPush, fx: PushEffects): void {
    const { queryClient, t, toast } = fx;
    switch (push.type) {
        case 'new_customer':
        case 'ai_transfer':
        case 'ai_transfer_request': {
            // The shell refreshes the queue, shows the banner, plays the sound, toasts and notifies (on every staff page).
            if (push.type !== 'new_customer' && typeof push.originalQuestion === 'string') {
                const id = String(push.sessionId);
                fx.aiQuestion(id, push.originalQuestion);
                void queryClient.invalidateQueries({ queryKey: consoleKeys.context(id) });
            }
            break;
        }
        case 'session_accepted':
            void queryClient.invalidateQueries({ queryKey: chatKeys.active });
            break;
        case 'session_ended':
            fx.ended(String(push.sessionId));
            void queryClient.invalidateQueries({ queryKey: chatKeys.active });
            void queryClient.invalidateQueries({ queryKey: ['chat', 'history'] });
            if (push.reason === 'customer_disconnected') {
                toast(t('console.customerDisconnected'), t('console.customerLeft'), 'warning');
            }
            break;
        case 'chat_rated':
            // The customer rated a chat (issue 28): told at once, and its transcript shows it.
            void queryClient.invalidateQueries({ queryKey: ['chat', 'transcript', String(push.sessionId)] });
            void queryClient.invalidateQueries({ queryKey: ['chat', 'history'] });
            toast(t('chatRating.toast', { score: Number(push.score) }), typeof push.comment === 'string' && push.comment ? push.comment : t('chatRating.noComment'), 'primary');
            break;
        case 'customer_email': {
            // The customer gave an email in a live chat (issue 28): the customer panel shows it.
            const patch = (old: ChatSession[] | undefined) => old?.map((s) => (s.sessionId === push.sessionId ? { ...s, customerEmail: String(push.customerEmail ?? '') || null } : s));
            queryClient.setQueryData<ChatSession[]>(chatKeys.active, patch);
            queryClient.setQueryData<ChatSession[]>(chatKeys.waiting, patch);
            void queryClient.invalidateQueries({ queryKey: ['chat', 'transcript', String(push.sessionId)] });
            break;
        }
        case 'left_message_updated':
            // The shell refreshes the inbox and alerts (issue 23); the open thread is the console's.
            void queryClient.invalidateQueries({ queryKey: ['chat', 'transcript', String(push.sessionId)] });
            break;
        case 'customer_disconnected':
            toast(t('console.customerDisconnected'), t('console.customerGone'), 'warning');
            break;
        case 'session_read':
            queryClient.setQueryData<ChatSession[]>(chatKeys.active, (old) => old?.map((s) => (s.sessionId === push.sessionId
                ? { ...s, unreadCount: Number(push.unreadCount ?? 0), agentReadSeq: Math.max(s.agentReadSeq ?? 0, Number(push.agentReadSeq ?? 0)) }
                : s)));
            break;
        case 'chat_note':
            addNoteToCache(queryClient, push as unknown as ChatNote);
            break;
        case 'chat_transferred':
            void queryClient.invalidateQueries({ queryKey: chatKeys.active });
            void queryClient.invalidateQueries({ queryKey: routingKeys.notes(String(push.sessionId)) });
            void queryClient.invalidateQueries({ queryKey: routingKeys.team });
            break;
        case 'chat_offered':
        case 'chat_offer_lapsed':
        case 'chat_returned':
            void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
            void queryClient.invalidateQueries({ queryKey: routingKeys.team });
            break;
        case 'team_changed':
        case 'agent_availability':
            void queryClient.invalidateQueries({ queryKey: routingKeys.team });
            break;
        case 'typing':
            if (push.sender === 'customer' && push.sessionId) {
                fx.customerTyping(String(push.sessionId), true);
            }
            break;
        case 'chat_message': {
            const m = push as unknown as ChatMessage;
            if (m.sender === 'customer') {
                fx.customerTyping(m.sessionId, false);
            }
            appendMessage(queryClient, m);
            queryClient.setQueryData<ChatSession[]>(chatKeys.active, (old) =>
                old?.map((s) => (s.sessionId === m.sessionId && m.seq > s.lastSeq
                    ? {
                        ...s, lastSeq: m.seq, messageCount: (s.messageCount ?? 0) + 1,
                        lastMessage: { sender: m.sender, message: m.message, timestamp: m.timestamp },
                        unreadCount: (s.unreadCount ?? 0) + (m.sender === 'customer' ? 1 : 0)
                    }
                    : s)));
            break;
        }
        default:
            break;
    }
}

/** The time now, again every interval: only for a component that shows a running time (a wait, a chat's length). */
export function useNow(intervalMs = 1000): number {
    const [now, setNow] = useState(Date.now());
    useEffect(() => {
        const timer = setInterval(() => setNow(Date.now()), intervalMs);
        return () => clearInterval(timer);
    }, [intervalMs]);
    return now;
}
