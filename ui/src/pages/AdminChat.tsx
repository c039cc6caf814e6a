import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Intent, Navbar, OverlayToaster, Spinner } from '@blueprintjs/core';
import { Link, Navigate } from 'react-router-dom';
import { ADMIN_TOKEN_KEY, ApiError } from '../api/client';
import { ChatMessage, ChatSession, chatKeys, useActiveChats, useAgentIdentity, useChatMessages, useSessionFlag, useWaitingChats } from '../api/chat';
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

function newId(): string {
    return `a${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

function errorText(err: unknown): string {
    return err instanceof Error ? err.message : String(err);
}

/** Live chat management (SPEC §2 /admin-chat): the agent console. */
export default function AdminChat() {
    const queryClient = useQueryClient();
    const identity = useAgentIdentity();
    const waiting = useWaitingChats();
    const active = useActiveChats();
    const star = useSessionFlag('star');
    const archive = useSessionFlag('archive');
    const [selected, setSelected] = useState<string | null>(null);
    const messages = useChatMessages(selected);
    const [connection, setConnection] = useState<ConnectionState>('connecting');
    const [attempt, setAttempt] = useState(0);
    const [banner, setBanner] = useState<{ phone: string; until: number } | null>(null);
    const socketRef = useRef<AgentSocket | null>(null);
    const toasterRef = useRef<OverlayToaster | null>(null);
    const now = useNow();

    const toast = useCallback((title: string, message: string, intent: Intent = 'none') => {
        toasterRef.current?.show({
            message: <div><strong>{title}</strong><div>{message}</div></div>,
            intent,
            timeout: 5000
        });
    }, []);

    const appendMessage = useCallback((m: ChatMessage) => {
        queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(m.sessionId), (old) => {
            if (!old) {
                return old;
            }
            if (old.some((x) => x.seq === m.seq)) {
                return old;
            }
            return [...old, m].sort((x, y) => x.seq - y.seq);
        });
    }, [queryClient]);

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
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                void queryClient.invalidateQueries({ queryKey: chatKeys.active });
                if (push.reason === 'customer_disconnected') {
                    toast('Customer Disconnected', `The customer left the chat …${String(push.sessionId ?? '').slice(-8)}`, 'warning');
                }
                break;
            case 'chat_message': {
                const m = push as unknown as ChatMessage;
                appendMessage(m);
                queryClient.setQueryData<ChatSession[]>(chatKeys.active, (old) =>
                    old?.map((s) => (s.sessionId === m.sessionId && m.seq > s.lastSeq ? { ...s, lastSeq: m.seq, messageCount: (s.messageCount ?? 0) + 1 } : s)));
                break;
            }
            default:
                break;
        }
    }, [queryClient, toast, appendMessage]);

    const user = identity.data;
    useEffect(() => {
        const token = localStorage.getItem(ADMIN_TOKEN_KEY);
        if (!user || !token) {
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
    }, [user?.id, user?.organizationId]);

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
        return () => clearTimeout(timer);
    }, [banner]);

    const activeChats = active.data ?? [];
    useEffect(() => {
        if (selected && active.data && !active.data.some((c) => c.sessionId === selected)) {
            setSelected(null);
        }
        if (!selected && active.data?.length) {
            setSelected(active.data[0].sessionId);
        }
    }, [active.data, selected]);

    const connected = connection === 'connected';
    const selectedSession = activeChats.find((c) => c.sessionId === selected) ?? null;

    const accept = async (sessionId: string) => {
        try {
            const session = await socketRef.current!.request<ChatSession>('POST', `/api/chat/session/${encodeURIComponent(sessionId)}/accept`, {});
            // Into the active list first, then selected: selected while the list does not hold it yet, the effect
            // above would drop the selection and open another chat, and the agent's reply would go to that customer.
            queryClient.setQueryData<ChatSession[]>(chatKeys.active, (old) =>
                old?.some((c) => c.sessionId === sessionId) ? old : [...(old ?? []), session]);
            setSelected(sessionId);
            setBanner(null);
        }
        catch (err) {
            toast('Could not accept the chat', errorText(err), 'danger');
        }
        void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
        void queryClient.invalidateQueries({ queryKey: chatKeys.active });
    };

    const send = async (text: string) => {
        if (!selected) {
            return;
        }
        try {
            const m = await socketRef.current!.request<ChatMessage>('POST', `/api/chat/session/${encodeURIComponent(selected)}/messages`,
                { message: text, clientMessageId: newId() });
            appendMessage(m);
        }
        catch (err) {
            toast('Message not sent', errorText(err), 'danger');
            throw err;
        }
    };

    const end = async (sessionId: string) => {
        try {
            await socketRef.current!.request('POST', `/api/chat/session/${encodeURIComponent(sessionId)}/end`, {});
        }
        catch (err) {
            toast('Could not end the chat', errorText(err), 'danger');
        }
        void queryClient.invalidateQueries({ queryKey: chatKeys.active });
    };

    if (identity.isLoading) {
        return <div className="lc-center"><Spinner /></div>;
    }
    if (identity.error instanceof ApiError && identity.error.status === 401) {
        // SPEC §2: /admin-chat redirects to /admin-login when unauthenticated (the guard normally does it first).
        return <Navigate to="/admin-login" replace />;
    }

    return (
        <>
            <Navbar>
                <Navbar.Group>
                    <Navbar.Heading>Live Chat</Navbar.Heading>
                    <Link to="/admin-dashboard">Dashboard</Link>
                </Navbar.Group>
            </Navbar>
            <OverlayToaster ref={toasterRef} maxToasts={1} position="top-right" />
            {banner && (
                <div className="lc-banner" role="alert" data-testid="new-chat-banner" onClick={() => setBanner(null)}>
                    New chat request!
                    <small>{banner.phone === 'Unknown' ? 'A customer' : banner.phone} is waiting for an agent</small>
                </div>
            )}
            <div className="lc-chat">
                <div className="lc-chat-side">
                    <AgentStatusPanel connection={connection} attempt={attempt} toast={toast} agentEmail={user?.email} />
                    <WaitingChats chats={waiting.data ?? []} now={now} canAccept={connected} onAccept={(id) => void accept(id)} />
                    <ActiveChats
                        chats={activeChats}
                        now={now}
                        selected={selected}
                        canEnd={connected}
                        onSelect={setSelected}
                        onStar={(c) => star.mutate({ sessionId: c.sessionId, value: !c.isStarred })}
                        onArchive={(c) => archive.mutate({ sessionId: c.sessionId, value: !c.isArchived })}
                        onEnd={(id) => void end(id)}
                    />
                </div>
                <Conversation session={selectedSession} messages={messages.data ?? []} canSend={connected && !!selectedSession} onSend={send} />
            </div>
        </>
    );
}
