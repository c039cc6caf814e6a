import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Intent, Navbar, OverlayToaster } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import {
    appendMessage, ChatMessage, ChatSession, chatKeys, SocketCommand, useAcceptChat, useActiveChats, useChatMessages, useEndChat, useSendMessage,
    useSessionFlag, useWaitingChats
} from '../api/chat';
import { useAdminAuth } from '../auth/AdminGuard';
import { AgentPush, AgentSocket, ConnectionState } from '../components/chat/agent-socket';
import { AgentStatusPanel } from '../components/chat/AgentStatusPanel';
import { ActiveChats, WaitingChats } from '../components/chat/ChatLists';
import { Conversation } from '../components/chat/Conversation';
import { notifyBrowser, playTwoBeeps } from '../components/chat/alerts';
import '../components/chat/chat.css';

/** SPEC §9: the new-request banner shows for 6 s. */
const BANNER_MS = 6000;

function useNow(intervalMs = 1000): number {
    const [now, setNow] = useState(Date.now());
    useEffect(() => {
        const timer = setInterval(() => setNow(Date.now()), intervalMs);
        return () => clearInterval(timer);
    }, [intervalMs]);
    return now;
}

function errorText(err: unknown): string {
    return err instanceof Error ? err.message : String(err);
}

/**
 * Live chat management (SPEC §2 /admin-chat): the agent console, inside the admin guard (which sends a visitor
 * without a valid token to /admin-login). The open conversation is derived, never synced: the chat whose id the
 * agent picked (or just accepted) if the active list holds it, the just-accepted chat until the list does,
 * else the first active chat. The pane and the reply's target are that one chat.
 */
export default function AdminChat() {
    const queryClient = useQueryClient();
    const { user, token } = useAdminAuth();
    const waiting = useWaitingChats();
    const active = useActiveChats();
    const star = useSessionFlag('star');
    const archive = useSessionFlag('archive');
    const [selected, setSelected] = useState<string | null>(null);
    /** The chat this agent just accepted, until the active list holds it. */
    const [accepted, setAccepted] = useState<ChatSession | null>(null);
    const [connection, setConnection] = useState<ConnectionState>('connecting');
    const [attempt, setAttempt] = useState(0);
    const [banner, setBanner] = useState<{ phone: string; until: number } | null>(null);
    const socketRef = useRef<AgentSocket | null>(null);
    const toasterRef = useRef<OverlayToaster | null>(null);
    const now = useNow();

    const listed = active.data ?? [];
    if (accepted && listed.some((c) => c.sessionId === accepted.sessionId)) {
        setAccepted(null);      // the list holds it now (state adjusted while rendering, not in an effect)
    }
    const activeChats = accepted && !listed.some((c) => c.sessionId === accepted.sessionId) ? [...listed, accepted] : listed;
    const selectedSession = activeChats.find((c) => c.sessionId === selected) ?? activeChats[0] ?? null;
    const messages = useChatMessages(selectedSession?.sessionId ?? null);

    const command = useCallback<SocketCommand>((method, path, payload) => {
        const socket = socketRef.current;
        return socket ? socket.request(method, path, payload) : Promise.reject(new Error('Not connected to the chat server'));
    }, []);
    const acceptChat = useAcceptChat(command);
    const sendMessage = useSendMessage(command);
    const endChat = useEndChat(command);

    const toast = useCallback((title: string, message: string, intent: Intent = 'none') => {
        toasterRef.current?.show({
            message: <div><strong>{title}</strong><div>{message}</div></div>,
            intent,
            timeout: 5000
        });
    }, []);

    const onPush = useCallback((push: AgentPush) => {
        switch (push.type) {
            case 'new_customer':
            case 'ai_transfer':
            case 'ai_transfer_request': {
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                const phone = String(push.phoneNumber ?? 'Unknown');
                playTwoBeeps();
                setBanner({ phone, until: Date.now() + BANNER_MS });
                const who = phone === 'Unknown' ? 'A customer' : `Customer ${phone}`;
                const text = push.type === 'new_customer' ? `${who} is waiting for an agent` : `The AI agent is transferring ${phone === 'Unknown' ? 'a customer' : phone} to you`;
                toast('New chat request', text, 'primary');
                notifyBrowser('New chat request', text);
                break;
            }
            case 'session_accepted':
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                void queryClient.invalidateQueries({ queryKey: chatKeys.active });
                break;
            case 'session_ended':
                setAccepted((a) => (a?.sessionId === push.sessionId ? null : a));
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                void queryClient.invalidateQueries({ queryKey: chatKeys.active });
                if (push.reason === 'customer_disconnected') {
                    toast('Customer Disconnected', `The customer left the chat …${String(push.sessionId ?? '').slice(-8)}`, 'warning');
                }
                break;
            case 'chat_message': {
                const m = push as unknown as ChatMessage;
                appendMessage(queryClient, m);
                queryClient.setQueryData<ChatSession[]>(chatKeys.active, (old) =>
                    old?.map((s) => (s.sessionId === m.sessionId && m.seq > s.lastSeq ? { ...s, lastSeq: m.seq, messageCount: (s.messageCount ?? 0) + 1 } : s)));
                break;
            }
            default:
                break;
        }
    }, [queryClient, toast]);

    useEffect(() => {
        if (user.organizationId === null) {
            return;
        }
        const socket = new AgentSocket({
            token,
            organizationId: user.organizationId,
            onPush: (push) => onPushRef.current(push),
            onState: (state, n) => {
                setConnection(state);
                setAttempt(n);
                if (state === 'lost') {
                    toastRef.current('Connection Lost', 'The connection to the chat server was lost. Please refresh the page.', 'danger');
                }
            },
            onConnected: () => {
                void queryClient.invalidateQueries({ queryKey: ['chat'] });
            },
            // Pushes may have been lost while the server's pub/sub was down: the waiting list, the active chats,
            // the open conversation's messages (and the agent's status) are fetched again.
            onResync: () => {
                void queryClient.invalidateQueries({ queryKey: ['chat'] });
            }
        });
        socketRef.current = socket;
        socket.start();
        return () => {
            socket.stop();
            socketRef.current = null;
        };
    }, [token, user.organizationId]);

    // Keep the socket's callbacks current without reconnecting.
    const onPushRef = useRef(onPush);
    onPushRef.current = onPush;
    const toastRef = useRef(toast);
    toastRef.current = toast;

    useEffect(() => {
        if (!banner) {
            return;
        }
        const timer = setTimeout(() => setBanner(null), Math.max(0, banner.until - Date.now()));
        // Esc closes it too (WCAG 2.1.1: not by mouse only).
        const onKey = (e: KeyboardEvent) => {
            if (e.key === 'Escape') {
                setBanner(null);
            }
        };
        document.addEventListener('keydown', onKey);
        return () => {
            clearTimeout(timer);
            document.removeEventListener('keydown', onKey);
        };
    }, [banner]);

    const connected = connection === 'connected';

    const accept = (sessionId: string) => acceptChat.mutate(sessionId, {
        onSuccess: (session) => {
            setAccepted(session);
            setSelected(session.sessionId);
            setBanner(null);
        },
        onError: (err) => toast('Could not accept the chat', errorText(err), 'danger')
    });
    const send = async (text: string) => {
        if (!selectedSession) {
            return;
        }
        await sendMessage.mutateAsync({ sessionId: selectedSession.sessionId, text }, {
            onError: (err) => toast('Message not sent', errorText(err), 'danger')
        });
    };
    const end = (sessionId: string) => endChat.mutate(sessionId, {
        onError: (err) => toast('Could not end the chat', errorText(err), 'danger')
    });

    return (
        <>
            <header>
                <Navbar>
                    <Navbar.Group>
                        <Navbar.Heading><h1 className="lc-navbar-title">Live Chat</h1></Navbar.Heading>
                        <Link to="/admin-dashboard">Dashboard</Link>
                    </Navbar.Group>
                </Navbar>
            </header>
            <OverlayToaster ref={toasterRef} maxToasts={1} position="top-right" />
            <main className="lc-chat">
            {banner && (
                <div className="lc-banner" role="alert" data-testid="new-chat-banner" onClick={() => setBanner(null)}>
                    New chat request!
                    <small>{banner.phone === 'Unknown' ? 'A customer' : banner.phone} is waiting for an agent</small>
                    <button type="button" className="lc-banner-close" onClick={() => setBanner(null)}>Close (Esc)</button>
                </div>
            )}
                <div className="lc-chat-side">
                    <AgentStatusPanel connection={connection} attempt={attempt} toast={toast} agentEmail={user.email} />
                    <WaitingChats chats={waiting.data ?? []} now={now} canAccept={connected} onAccept={accept} />
                    <ActiveChats
                        chats={activeChats}
                        now={now}
                        selected={selectedSession?.sessionId ?? null}
                        canEnd={connected}
                        onSelect={setSelected}
                        onStar={(c) => star.mutate({ sessionId: c.sessionId, value: !c.isStarred })}
                        onArchive={(c) => archive.mutate({ sessionId: c.sessionId, value: !c.isArchived })}
                        onEnd={end}
                    />
                </div>
                <Conversation session={selectedSession} messages={messages.data ?? []} canSend={connected && !!selectedSession} onSend={send} />
            </main>
        </>
    );
}
