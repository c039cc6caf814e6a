import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Intent } from '@blueprintjs/core';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import {
    ChatSession, SocketCommand, useAcceptChat, useActiveChats, useChatMessages, useEndChat, useSendMessage, useSessionFlag, useWaitingChats
} from '../api/chat';
import { useMarkRead } from '../api/console';
import { AgentPush } from '../components/chat/agent-socket';
import { applyPush, useCustomerTyping, useDrafts } from '../components/chat/console-state';
import { useAgentPushes, useAgentSocket } from '../layout/agent-presence';
import { ActiveChats, WaitingChats } from '../components/chat/ChatLists';
import { LeftMessagesView, MessagesViewLink } from '../components/chat/LeftMessagesView';
import { useCustomerName } from '../phone';
import { useT } from '../i18n';
import { Conversation, ConversationHandle } from '../components/chat/Conversation';
import { CustomerPanel } from '../components/chat/CustomerPanel';
import { HistoryView } from '../components/chat/HistoryView';
import { TeamView } from '../components/chat/TeamView';
import { TransferDialog } from '../components/chat/TransferDialog';
import { useAddNote, useNotes, useTeam } from '../api/routing';
import { useAdminAuth } from '../auth/AdminGuard';
import '../components/chat/chat.css';
import '../components/chat/routing.css';

type Pane = 'list' | 'conversation' | 'customer';

/** How often this console sends the agent's typing signal (the server drops more). */
const TYPING_EVERY_MS = 2000;

function errorText(err: unknown): string {
    return err instanceof Error ? err.message : String(err);
}

/** A key press meant for the page, not typed into a field or a dialog. */
function isTyping(target: EventTarget | null): boolean {
    const el = target as HTMLElement | null;
    return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** Moves focus to the next or previous chat button of the visible list (j/k, ↓/↑); answers whether it moved. */
function moveFocus(delta: 1 | -1, fallback: string | null): boolean {
    const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>('[data-chat-button]')).filter((b) => b.offsetParent !== null);
    if (!buttons.length) {
        return false;
    }
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const from = at >= 0 ? at : buttons.findIndex((b) => b.dataset.chatButton === fallback);
    const next = from < 0 ? (delta > 0 ? 0 : buttons.length - 1) : Math.max(0, Math.min(buttons.length - 1, from + delta));
    buttons[next].focus();
    return true;
}

/**
 * Live chat (SPEC §2 /admin-chat, issue 14): the agent console inside the admin shell. Three columns on wide
 * screens (queue and chats, conversation, customer), one pane at a time at phone width. The open conversation is
 * derived, never synced: the chat the agent picked (or just accepted) if the active list holds it, the
 * just-accepted chat until the list does, else the first active chat. Each chat keeps its own draft.
 * Keys: j/k or ↓/↑ move through the chats, Enter opens, r replies, / opens canned replies, Esc leaves the reply
 * box and closes the new-request banner.
 */
export default function AdminChat({ view = 'inbox' }: { view?: 'inbox' | 'messages' | 'history' | 'team' }) {
    const queryClient = useQueryClient();
    const t = useT();
    const customerLabel = useCustomerName();
    // The shell's agent socket (issue 23): the console never opens one of its own.
    // Its toasts too: bottom right, where they cover none of the console's own buttons.
    const { socket, connection, dismissBanner, toast } = useAgentSocket();
    const location = useLocation();
    const navigate = useNavigate();
    const waiting = useWaitingChats();
    const active = useActiveChats();
    const star = useSessionFlag('star');
    const archive = useSessionFlag('archive');
    const markRead = useMarkRead();
    const [selected, setSelected] = useState<string | null>(null);
    /** The chat this agent just accepted, until the active list holds it. */
    const [accepted, setAccepted] = useState<ChatSession | null>(null);
    const { drafts, setDraft, clearDraft, startCannedReply } = useDrafts();
    const [pane, setPane] = useState<Pane>('list');
    const [archiving, setArchiving] = useState<ChatSession | null>(null);
    /** The question each AI hand-off started from (ai_transfer_request), by chat session. */
    const [aiQuestions, setAiQuestions] = useState<Record<string, string>>({});
    const socketRef = useRef(socket);
    socketRef.current = socket;
    const conversationRef = useRef<ConversationHandle | null>(null);
    /** Which chats' customers are typing (their typing signal, issue 11). */
    const customerTyping = useCustomerTyping();
    /** When this console last told each chat's customer that the agent is typing. */
    const typingSent = useRef<Record<string, number>>({});

    const listed = active.data ?? [];
    if (accepted && listed.some((c) => c.sessionId === accepted.sessionId)) {
        setAccepted(null);      // the list holds it now (state adjusted while rendering, not in an effect)
    }
    const activeChats = accepted && !listed.some((c) => c.sessionId === accepted.sessionId) ? [...listed, accepted] : listed;
    const selectedSession = activeChats.find((c) => c.sessionId === selected) ?? activeChats[0] ?? null;
    const selectedId = selectedSession?.sessionId ?? null;
    const messages = useChatMessages(view === 'inbox' ? selectedId : null);
    // Internal notes and hand-over (issue 26).
    const notes = useNotes(view === 'inbox' ? selectedId : null);
    const addNote = useAddNote();
    const [transferring, setTransferring] = useState(false);
    const { user } = useAdminAuth();
    const team = useTeam(view === 'inbox');
    const ownerOf = (c: ChatSession): string | null => {
        if (c.agentId === null || c.agentId === user.id) {
            return null;
        }
        const name = team.data?.find((m) => m.id === c.agentId)?.agentName;
        return name ? t('chat.withAgent', { name }) : null;
    };

    // The open chat is read up to its newest message while the tab is visible.
    const lastSeq = selectedSession?.lastSeq ?? 0;
    const readSeq = selectedSession?.agentReadSeq ?? 0;
    const unread = selectedSession?.unreadCount ?? 0;
    const markReadRef = useRef(markRead.mutate);
    markReadRef.current = markRead.mutate;
    useEffect(() => {
        if (view !== 'inbox' || !selectedId || (!unread && readSeq >= lastSeq)) {
            return;
        }
        const mark = () => {
            if (document.visibilityState === 'visible') {
                markReadRef.current({ sessionId: selectedId, seq: lastSeq });
            }
        };
        mark();
        document.addEventListener('visibilitychange', mark);
        return () => document.removeEventListener('visibilitychange', mark);
    }, [view, selectedId, lastSeq, readSeq, unread]);

    const command = useCallback<SocketCommand>((method, path, payload) => {
        const current = socketRef.current;
        return current ? current.request(method, path, payload) : Promise.reject(new Error(t('console.notConnectedServer')));
    }, [t]);
    const acceptChat = useAcceptChat(command);
    const sendMessage = useSendMessage(command);
    const endChat = useEndChat(command);


    const setTyping = customerTyping.setTyping;
    const onPush = useCallback((push: AgentPush) => applyPush(push, {
        queryClient, t, toast,
        ended: (sessionId) => setAccepted((a) => (a?.sessionId === sessionId ? null : a)),
        aiQuestion: (sessionId, question) => setAiQuestions((q) => ({ ...q, [sessionId]: question })),
        customerTyping: setTyping
    }), [queryClient, toast, t, setTyping]);

    useAgentPushes(onPush);

    // Opened from a new-chat banner, toast or notification on another page: the chat's Accept Chat has the focus.
    const openWaiting = (location.state as { openWaiting?: string } | null)?.openWaiting ?? null;
    const waitingIds = (waiting.data ?? []).map((c) => c.sessionId).join(' ');
    useEffect(() => {
        if (!openWaiting || view !== 'inbox') {
            return;
        }
        const item = document.querySelector<HTMLElement>(`[data-session="${CSS.escape(openWaiting)}"]`);
        if (item) {
            item.scrollIntoView({ block: 'nearest' });
            item.querySelector<HTMLButtonElement>('button')?.focus();
            navigate('.', { replace: true, state: null });
        }
    }, [openWaiting, waitingIds, view, navigate]);

    const open = useCallback((sessionId: string) => {
        setSelected(sessionId);
        setPane('conversation');
    }, []);

    // Accepted from the shell's offer alert, or handed over by a colleague: that chat opens (issue 26).
    const openChat = (location.state as { openChat?: string } | null)?.openChat ?? null;
    useEffect(() => {
        if (openChat && view === 'inbox') {
            open(openChat);
            navigate('.', { replace: true, state: null });
        }
    }, [openChat, view, open, navigate]);

    // The console's keys (never while typing in a field, or with a dialog or drawer open).
    const keyState = useRef({ selectedId, view, pane });
    keyState.current = { selectedId, view, pane };
    useEffect(() => {
        const onKey = (e: KeyboardEvent) => {
            const target = e.target as HTMLElement | null;
            if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || target?.closest?.('.bp5-overlay')) {
                return;
            }
            if (e.key === 'Escape') {
                if (!isTyping(target) && keyState.current.pane !== 'list') {
                    setPane(keyState.current.pane === 'customer' ? 'conversation' : 'list');
                }
                return;
            }
            if (isTyping(target)) {
                return;
            }
            const state = keyState.current;
            if (e.key === 'j' || e.key === 'ArrowDown' || e.key === 'k' || e.key === 'ArrowUp') {
                if (moveFocus(e.key === 'j' || e.key === 'ArrowDown' ? 1 : -1, state.selectedId)) {
                    e.preventDefault();
                }
            }
            else if (state.view === 'inbox' && (e.key === 'r' || e.key === '/') && state.selectedId) {
                e.preventDefault();
                setPane('conversation');
                if (e.key === '/') {
                    startCannedReply(state.selectedId);
                }
                setTimeout(() => conversationRef.current?.focusReply(), 0);
            }
        };
        window.addEventListener('keydown', onKey);
        return () => window.removeEventListener('keydown', onKey);
    }, [startCannedReply]);

    const connected = connection === 'connected';

    const accept = (sessionId: string) => acceptChat.mutate(sessionId, {
        onSuccess: (session) => {
            setAccepted(session);
            open(session.sessionId);
            dismissBanner();
        },
        onError: (err) => toast(t('console.acceptFailed'), errorText(err), 'danger')
    });
    const send = async (text: string, attachments?: string[]) => {
        if (!selectedSession) {
            return;
        }
        const sessionId = selectedSession.sessionId;
        // The draft as sent: keystrokes typed while the reply (and its files) is on its way stay in the box.
        const sent = drafts[sessionId] ?? '';
        await sendMessage.mutateAsync({ sessionId, text, attachments }, {
            onSuccess: () => clearDraft(sessionId, sent),
            onError: (err) => toast(t('console.sendFailed'), errorText(err), 'danger')
        });
    };
    const end = (sessionId: string) => endChat.mutate(sessionId, {
        onError: (err) => toast(t('console.endFailed'), errorText(err), 'danger')
    });
    const leaveReply = () => {
        const button = document.querySelector<HTMLButtonElement>(`[data-chat-button="${CSS.escape(selectedId ?? '')}"]`);
        if (button && button.offsetParent !== null) {
            button.focus();
        }
        else {
            (document.activeElement as HTMLElement | null)?.blur();
        }
    };

    return (
        <div className={`lc-console${view === 'history' ? ' is-history' : ''}`}>
            <div className="lc-console-head">
                <h1 className="lc-h1 lc-console-title">{t('section.liveChat')}</h1>
                <nav className="lc-console-views" aria-label={t('console.views')}>
                    <NavLink end to="/admin-chat" className={({ isActive }) => `lc-view-link${isActive ? ' is-current' : ''}`}>{t('chat.viewInbox')}</NavLink>
                    <MessagesViewLink />
                    <NavLink to="/admin-chat/history" className={({ isActive }) => `lc-view-link${isActive ? ' is-current' : ''}`}>{t('chat.viewHistory')}</NavLink>
                    <NavLink to="/admin-chat/hours" className="lc-view-link">{t('hours.link')}</NavLink>
                    <NavLink to="/admin-chat/team" className={({ isActive }) => `lc-view-link${isActive ? ' is-current' : ''}`}>{t('chat.viewTeam')}</NavLink>
                </nav>
                <span className="lc-keys-hint" aria-hidden="true">{t('console.keysHint')}</span>
            </div>
            {view === 'history' && <HistoryView pane={pane} setPane={setPane} />}
            {view === 'messages' && <LeftMessagesView pane={pane} setPane={setPane} toast={toast} />}
            {view === 'team' && <TeamView />}
            {view === 'inbox' && (
                    <div className={`lc-console-columns lc-pane-${pane}`}>
                        <div className="lc-queue lc-pane" aria-label={t('console.chats')}>
                            <WaitingChats chats={waiting.data ?? []} canAccept={connected} onAccept={accept} />
                            <ActiveChats
                                chats={activeChats}
                                selected={selectedId}
                                canEnd={connected}
                                onSelect={open}
                                onStar={(c) => star.mutate({ sessionId: c.sessionId, value: !c.isStarred })}
                                onArchive={(c) => setArchiving(c)}
                                onEnd={end}
                                ownerOf={ownerOf}
                            />
                        </div>
                        <Conversation
                            ref={conversationRef}
                            key={selectedId ?? 'none'}
                            session={selectedSession}
                            messages={messages.data ?? []}
                            canSend={connected && !!selectedSession}
                            draft={selectedId ? drafts[selectedId] ?? '' : ''}
                            onDraft={(text) => {
                                if (!selectedId) {
                                    return;
                                }
                                setDraft(selectedId, text);
                                if (text && !text.startsWith('/') && Date.now() - (typingSent.current[selectedId] ?? 0) >= TYPING_EVERY_MS) {
                                    typingSent.current[selectedId] = Date.now();
                                    socketRef.current?.typing(selectedId);
                                }
                            }}
                            customerTyping={!!selectedId && !!customerTyping.typing[selectedId]}
                            onSend={send}
                            onLeave={leaveReply}
                            onBack={() => setPane('list')}
                            onShowCustomer={() => setPane('customer')}
                            notes={notes.data}
                            onAddNote={async (text) => {
                                if (selectedId) {
                                    await addNote.mutateAsync({ sessionId: selectedId, text }, { onError: (err) => toast(t('notes.failed'), errorText(err), 'danger') });
                                }
                            }}
                            headActions={selectedSession && (
                                <Button minimal icon="exchange" className="lc-transfer-open" aria-label={t('transfer.button')} text={<span className="lc-transfer-text">{t('transfer.button')}</span>}
                                    onClick={() => setTransferring(true)} data-testid="transfer-open" />
                            )}
                        />
                        <CustomerPanel session={selectedSession} originalQuestion={selectedSession ? aiQuestions[selectedSession.sessionId] : null} onBack={() => setPane('conversation')} />
                    </div>
                )}
            {selectedSession && view === 'inbox' && (
                <TransferDialog key={selectedSession.sessionId} session={selectedSession} isOpen={transferring} onClose={() => setTransferring(false)}
                    onDone={(name) => {
                        setTransferring(false);
                        toast(t('transfer.done'), t('transfer.doneText', { name }), 'success');
                    }} />
            )}
            <Alert
                isOpen={archiving !== null}
                icon="archive"
                intent={Intent.WARNING}
                cancelButtonText={t('console.cancel')}
                confirmButtonText={t('console.endAndArchive')}
                onCancel={() => setArchiving(null)}
                aria-labelledby="lc-archive-question"
                onConfirm={() => {
                    if (archiving) {
                        archive.mutate({ sessionId: archiving.sessionId, value: true });
                    }
                    setArchiving(null);
                }}
            >
                <p id="lc-archive-question">{t('console.archiveQuestion', { customer: archiving ? customerLabel(archiving) : '' })}</p>
            </Alert>
        </div>
    );
}
