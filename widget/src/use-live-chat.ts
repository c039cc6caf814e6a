import { useEffect, useRef, useState } from 'react';
import type { MutableRefObject } from 'react';
import { api, ApiError, pageUrl, TrackEvent, WidgetConfig } from './config';
import { Action, FlowState, said } from './flow';
import type { LiveChat, LiveChatOptions, QueueState } from './live-chat';
import { Availability, backAtText } from './hours';
import { lazyLiveChat } from './live-chat-lazy';
import { errorText, language, t, TEXT } from './texts';

/** The leave-a-message form, shown when no agent is available (not part of the flow state: a form shown once). */
export interface OfflineDraft {
    email: string;
    /** Optional: how the agents address the customer in their reply. */
    name?: string;
    text: string;
    error: string | null;
}

export interface LiveChatHost {
    config: WidgetConfig;
    stateRef: MutableRefObject<FlowState>;
    tokenRef: MutableRefObject<string | null>;
    dispatch(action: Action): void;
    emit(event: TrackEvent): void;
    /** Makes the connection (default: live-chat.ts, fetched as its own chunk when first used); tests pass a fake. */
    make?: (options: LiveChatOptions) => LiveChat;
}

/** The chat to rate (issue 28). */
export interface RateFor { chatId: string; token: string }

/** The 'connected' notice comes this long after the session is created (SPEC §9). */
const CONNECTED_NOTICE_MS = 2000;
/** The agent's typing indicator shows this long after their last keystroke signal. */
const TYPING_SHOWN_MS = 4000;

/**
 * The customer's side of a live chat (issue 31: the panel's live chat in one hook): the connection (made on first use,
 * resumed after a reload), asking for a person (availability, then the chat or the leave-a-message form), the form,
 * typing and New Chat's end. Pushes reach the conversation only while it is the one that started the chat.
 */
export function useLiveChat(host: LiveChatHost) {
    const { config, stateRef, tokenRef } = host;
    const live = useRef<LiveChat | null>(null);
    const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
    const [offline, setOffline] = useState<OfflineDraft | null>(null);
    // Waiting for an agent: the place in the queue and the typical wait (issue 26).
    const [queue, setQueue] = useState<QueueState>(null);
    // The rating asked after a chat an agent joined (issue 28): its chat id and the token that names it, kept from its end.
    const [rateFor, setRateFor] = useState<RateFor | null>(null);
    const joined = useRef(false);

    const guard = (session: string) => (action: Action) => {
        if (stateRef.current.sessionId === session) {
            host.dispatch(action);
        }
    };

    function chat(): LiveChat {
        const session = stateRef.current.sessionId;
        const d = guard(session);
        live.current ??= (host.make ?? lazyLiveChat)({
            apiOrigin: config.apiOrigin,
            lang: () => language(),
            widgetKey: config.key,
            sessionId: session,
            customerToken: () => (stateRef.current.sessionId === session ? tokenRef.current : null),
            texts: {
                agentJoined: (name) => (name ? t('agentJoinedNamed', { name }) : t('agentJoined')),
                agentChanged: (name) => (name ? t('agentChangedNamed', { name }) : t('agentChanged')),
                notSent: (reason) => t('notSent', { reason }),
                error: (code, args) => errorText({ code, message: '', args }) || undefined
            },
            onMessage: (m) => {
                // An agent's message, or the notice that one joined (system): someone to rate when it ends.
                joined.current = true;
                d(said(m.message, m.sender === 'agent' ? 'agent' : 'system', m.sender === 'agent' ? m.agentName : undefined, m.attachments));
                if (typeof m.seq === 'number') {
                    d({ type: 'live_seq', seq: m.seq });
                }
            },
            onQueue: (q) => {
                if (stateRef.current.sessionId === session) {
                    setQueue(q);
                }
            },
            onTyping: () => {
                d({ type: 'agent_typing', typing: true });
                if (typingTimer.current) {
                    clearTimeout(typingTimer.current);
                }
                typingTimer.current = setTimeout(() => d({ type: 'agent_typing', typing: false }), TYPING_SHOWN_MS);
            },
            onSession: (s) => {
                // create-session renewed the one customer token: it is the conversation's token from now on.
                if (stateRef.current.sessionId === session) {
                    tokenRef.current = s.token;
                }
                d({ type: 'live_started', chatId: s.chatId, token: s.token, lastSeq: s.lastSeq });
            },
            onEnded: () => {
                if (stateRef.current.sessionId === session && stateRef.current.step === 'live_chat') {
                    d(said(TEXT.liveEnded));
                }
                askRating();
                d({ type: 'live_ended' });
                setQueue(null);
                live.current = null;
            }
        });
        return live.current;
    }

    /** The chat that is ending, if an agent joined it: asked once (the server takes one rating per chat anyway). */
    function askRating(): void {
        const ended = stateRef.current.live;
        const token = tokenRef.current ?? ended?.token;
        if (ended?.chatId && token && joined.current) {
            setRateFor({ chatId: ended.chatId, token });
        }
        joined.current = false;
    }

    // After a reload in the middle of a live chat: reconnect and fetch what was missed.
    useEffect(() => {
        const saved = stateRef.current.live;
        if (saved && saved.chatId && saved.token && !live.current) {
            chat().resume({ chatId: saved.chatId, token: saved.token, lastSeq: saved.lastSeq }).catch((err) => {
                console.warn('loyalty-chat: the live chat could not be resumed', err);
            });
        }
    }, []);

    /**
     * Outside the store's support hours (issue 26): when the team is back, in the customer's own time, then what the
     * store chose: the leave-a-message form, the AI agent alone (the form when the store's AI agent is off), or nothing
     * more (`hide`).
     */
    function closed(status: Availability, offlineText: string, d: (action: Action) => void): void {
        d(said(backAtText(status.opensAt)));
        if (status.whenClosed === 'ai_only' && config.aiEnabled) {
            d(said(t('closedAiOnly')));
        }
        else if (status.whenClosed !== 'hide') {
            // The form, also for `ai_only` in a store whose AI agent is off: the customer is never left with nothing.
            d(said(t('closedLeaveMessage')));
            setOffline({ email: '', text: offlineText, error: null });
        }
        d({ type: 'step', step: 'questions' });
    }

    return {
        offline,
        setOffline,
        queue,
        rateFor,
        setRateFor,

        /** The leave-a-message form, started with `text` (the AI agent did not know and nobody is available). */
        leaveMessage(text: string): void {
            setOffline({ email: '', text, error: null });
        },

        /** `offlineText` starts the leave-a-message form when no agent is available (none for a question's own label). */
        async start(customerMessage: string, offlineText = customerMessage): Promise<void> {
            const d = guard(stateRef.current.sessionId);
            host.emit({ action: 'live_chat_requested', phoneNumber: stateRef.current.verifiedPhone, success: null });
            d(said(TEXT.liveChecking));
            d({ type: 'pending', pending: true });
            try {
                const connection = chat();
                const status = await connection.checkAvailability();
                if (status.reason === 'closed') {
                    closed(status, offlineText, d);
                    return;
                }
                if (!status.available) {
                    d(said(TEXT.liveUnavailable));
                    d({ type: 'step', step: 'questions' });
                    setOffline({ email: '', text: offlineText, error: null });
                    return;
                }
                await connection.start({ phoneNumber: stateRef.current.verifiedPhone, customerMessage });
                d(said(TEXT.liveWaiting));
                d({ type: 'step', step: 'live_chat' });
                setTimeout(() => {
                    if (stateRef.current.step === 'live_chat') {
                        d(said(TEXT.liveConnected));
                    }
                }, CONNECTED_NOTICE_MS);
            }
            catch (err) {
                console.warn('loyalty-chat: live chat failed', err);
                d(said(TEXT.liveError, 'error'));
                d({ type: 'step', step: 'questions' });
            }
            finally {
                d({ type: 'pending', pending: false });
            }
        },

        async sendOffline(): Promise<void> {
            if (!offline) {
                return;
            }
            const session = stateRef.current.sessionId;
            try {
                await api(config, '/api/chat/offline-message', {
                    sessionId: session, email: offline.email, message: offline.text, phoneNumber: stateRef.current.verifiedPhone,
                    name: offline.name?.trim() || null, pageUrl: pageUrl(), lang: language()
                }, { token: tokenRef.current });
                setOffline(null);
                guard(session)(said(TEXT.offlineSent));
            }
            catch (err) {
                setOffline({ ...offline, error: (err instanceof ApiError ? errorText(err) : (err as Error).message) || TEXT.liveError });
            }
        },

        send(text: string, attachments?: string[]): void {
            live.current?.send(text, attachments);
        },

        typing(): void {
            live.current?.typing();
        },

        /** New Chat: the live chat (if any) ends, the form goes. */
        end(): void {
            const connection = live.current;
            live.current = null;
            setQueue(null);
            if (connection && stateRef.current.step === 'live_chat') {
                askRating();
                connection.end().catch(() => undefined);
            }
            setOffline(null);
        }
    };
}
