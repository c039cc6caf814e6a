import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Intent, OverlayToaster } from '@blueprintjs/core';
import type { AgentStatus } from '../../../core/types/api';
import { ADMIN_TOKEN_KEY, apiRequest } from '../api/client';
import { chatKeys, useWaitingChats } from '../api/chat';
import type { WaitingChat } from '../api/routing';
import { leftMessageKeys } from '../api/console';
import { useAdminAuth } from '../auth/AdminGuard';
import { AgentPush, AgentSocket, ConnectionState } from '../components/chat/agent-socket';
import { notifyBrowser, playTwoBeeps } from '../components/chat/alerts';
import { Translate, useT } from '../i18n';
import { useCustomerName } from '../phone';

/** SPEC §9: the new-request banner shows for 6 s. */
const BANNER_MS = 6000;
/** The UI reports the agent's activity at most this often (the server's idle window may ask for more often). */
const ACTIVITY_REPORT_MS = 60_000;
/** The away notice the agent dismissed (or answered by setting Available), by its time: not shown again. */
const AWAY_SEEN_KEY = 'lc-away-seen';
/** What counts as the agent being there: mouse, keyboard, touch in the tab. */
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart'] as const;

export type PushListener = (push: AgentPush) => void;

export interface AgentSocketState {
    /** The tab's one agent socket (null for staff without an organization's agent feed). */
    socket: AgentSocket | null;
    connection: ConnectionState;
    attempt: number;
    /** Every push of the organization's agent feed reaches the listener until the returned function is called. */
    listen(listener: PushListener): () => void;
    /** A waiting chat the agent chose to open from a banner, toast or notification on another page. */
    banner: { sessionId: string; text: string } | null;
    dismissBanner(): void;
    /** A toast of the shell (one at a time, top right). */
    toast(title: string, text: string, intent?: Intent): void;
}

const AgentSocketContext = createContext<AgentSocketState | null>(null);

/** The shell's agent socket (issue 23): /admin-chat and the header use it; never open a second one in a tab. */
export function useAgentSocket(): AgentSocketState {
    const value = useContext(AgentSocketContext);
    if (!value) {
        throw new Error('useAgentSocket() must be used inside <AgentPresenceProvider>');
    }
    return value;
}

/** Calls the handler for every push of the agent feed while the component is mounted (the latest handler). */
export function useAgentPushes(handler: PushListener): void {
    const { listen } = useAgentSocket();
    const ref = useRef(handler);
    ref.current = handler;
    useEffect(() => listen((push) => ref.current(push)), [listen]);
}

/** The sentence that tells the agent why they are Away now. */
export function awayText(t: Translate, reason: string, figures: Record<string, unknown> | AgentStatus): string {
    const f = figures as { idleMinutes?: unknown; graceSeconds?: unknown; idleSeconds?: unknown };
    if (reason === 'idle') {
        const minutes = typeof f.idleMinutes === 'number' ? f.idleMinutes : Number(f.idleSeconds ?? 900) / 60;
        return t('away.idle', { minutes: Math.round(minutes * 100) / 100 });
    }
    if (reason === 'closed') {
        return t('away.closed', { seconds: Math.round(Number(f.graceSeconds ?? 60) * 10) / 10 });
    }
    return t('away.logout');
}

export function awaySeen(): string | null {
    try {
        return localStorage.getItem(AWAY_SEEN_KEY);
    }
    catch {
        return null;
    }
}

export function markAwaySeen(awayAt: string | null): void {
    try {
        if (awayAt) {
            localStorage.setItem(AWAY_SEEN_KEY, awayAt);
        }
    }
    catch {
        // storage unavailable: the notice shows again on the next page
    }
}

/** The agent's presence as the server keeps it (every tab and node): GET /api/chat/agent/status. */
export type AgentStatusView = AgentStatus & { agentId: number };

/**
 * Presence for the whole staff app (issue 23): one agent socket per tab for every staff page, the new-chat alerts
 * (banner, two beeps, toast, browser notification) on any page with one click to the chat in /admin-chat, the agent's
 * activity reported to the server (at most about once a minute, while Available), and the server's `agent_availability`
 * pushes about this agent (another tab, or the away rules) kept in the status every header reads.
 */
export function AgentPresenceProvider({ children }: { children: ReactNode }) {
    const { user, token, logout } = useAdminAuth();
    const queryClient = useQueryClient();
    const navigate = useNavigate();
    const t = useT();
    const customerName = useCustomerName();
    const [socket, setSocket] = useState<AgentSocket | null>(null);
    const [connection, setConnection] = useState<ConnectionState>('connecting');
    const [attempt, setAttempt] = useState(0);
    /** `title`: the banner's own (an offer, a transfer); `accept`: its button accepts the offered chat (issue 26). */
    const [banner, setBanner] = useState<{ sessionId: string; text: string; until: number; title?: string; accept?: boolean; open?: 'chat' } | null>(null);
    const listeners = useRef(new Set<PushListener>());
    const toaster = useRef<OverlayToaster | null>(null);

    const listen = useCallback((listener: PushListener) => {
        listeners.current.add(listener);
        return () => {
            listeners.current.delete(listener);
        };
    }, []);

    const openChat = useCallback((sessionId: string) => {
        setBanner(null);
        navigate('/admin-chat', { state: { openWaiting: sessionId } });
    }, [navigate]);

    /** The chat the 'new-chat' toast is about (one toast at a time under that key). */
    const toastSession = useRef<string | null>(null);
    const socketRef = useRef<AgentSocket | null>(null);
    socketRef.current = socket;
    /** Accepts a chat offered to this agent (over the tab's socket) and opens it in the console. */
    const acceptOffer = useCallback((sessionId: string) => {
        setBanner(null);
        toaster.current?.dismiss('new-chat');
        const current = socketRef.current;
        (current ? current.request('POST', `/api/chat/session/${encodeURIComponent(sessionId)}/accept`, {}) : Promise.reject(new Error(t('presence.disconnected'))))
            .then(() => {
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                void queryClient.invalidateQueries({ queryKey: chatKeys.active });
                navigate('/admin-chat', { state: { openChat: sessionId } });
            })
            .catch((err: unknown) => toaster.current?.show({
                message: <div><strong>{t('offer.acceptFailed')}</strong><div>{err instanceof Error ? err.message : String(err)}</div></div>, intent: 'danger', timeout: 5000
            }));
    }, [navigate, queryClient, t]);
    /** A chat handed to this agent: straight to it in the console. */
    const goToChat = useCallback((sessionId: string) => {
        setBanner(null);
        toaster.current?.dismiss('new-chat');
        navigate('/admin-chat', { state: { openChat: sessionId } });
    }, [navigate]);

    /** The offers this tab has rung for (by chat and deadline), so the waiting list's copy of one rings no second time. */
    const offersRung = useRef(new Set<string>());
    /** Rings the agent (banner, two beeps, toast; a browser notification when the tab is in the background). */
    const ring = useCallback((alert: { sessionId: string; title: string; bannerTitle: string; text: string; ms: number; accept?: boolean; open?: 'chat' }) => {
        const act = () => (alert.accept ? acceptOffer(alert.sessionId) : alert.open === 'chat' ? goToChat(alert.sessionId) : openChat(alert.sessionId));
        playTwoBeeps();
        setBanner({ sessionId: alert.sessionId, text: alert.text, until: Date.now() + alert.ms, title: alert.bannerTitle, accept: alert.accept, open: alert.open });
        toaster.current?.show({
            message: <div><strong>{alert.title}</strong><div>{alert.text}</div></div>,
            intent: alert.accept ? 'warning' : 'primary',
            timeout: Math.min(alert.ms, 10_000),
            action: { text: alert.accept ? t('offer.accept') : t('alert.open'), onClick: act }
        }, 'new-chat');
        toastSession.current = alert.sessionId;
        if (document.visibilityState === 'hidden' || !document.hasFocus()) {
            notifyBrowser(alert.title, alert.text, act);
        }
    }, [acceptOffer, goToChat, openChat, t]);

    /** The customer a push is about, named as on every staff screen (issue 23): phone in the store's format, else the visitor label. */
    const pushCustomer = useCallback((push: AgentPush) => {
        const phone = typeof push.phoneNumber === 'string' && push.phoneNumber !== 'Unknown' ? push.phoneNumber : null;
        const visitor = typeof push.visitorNumber === 'number' ? push.visitorNumber : undefined;
        return phone || visitor ? customerName({ phoneNumber: phone, visitorNumber: visitor })
            : typeof push.visitorLabel === 'string' ? push.visitorLabel : t('alert.aCustomer');
    }, [customerName, t]);

    const onPush = useCallback((push: AgentPush) => {
        switch (push.type) {
            case 'new_customer':
            case 'ai_transfer':
            case 'ai_transfer_request': {
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                if (push.offeredTo !== null && push.offeredTo !== undefined) {
                    break;      // auto-assigned (issue 26): the offered agent is rung by chat_offered, nobody else
                }
                const sessionId = String(push.sessionId ?? '');
                // Named as on every staff screen: the phone in the store's format, else the visitor label (issue 23).
                const phone = typeof push.phoneNumber === 'string' && push.phoneNumber !== 'Unknown' ? push.phoneNumber : null;
                const visitor = typeof push.visitorNumber === 'number' ? push.visitorNumber : undefined;
                const who = phone || visitor ? customerName({ phoneNumber: phone, visitorNumber: visitor }) : t('alert.aCustomer');
                const text = push.type === 'new_customer' ? t('alert.waiting', { who })
                    : phone || visitor ? t('alert.transfer', { who }) : t('alert.transferUnknown');
                // Outside the console, only an Available agent is alerted (an admin reading analytics while Away is not
                // rung for every customer); in the console, every agent sees the queue move.
                const available = queryClient.getQueryData<AgentStatusView>(chatKeys.agentStatus)?.available ?? false;
                if (!available && !window.location.pathname.startsWith('/admin-chat')) {
                    break;
                }
                playTwoBeeps();
                setBanner({ sessionId, text, until: Date.now() + BANNER_MS });
                toaster.current?.show({
                    message: <div><strong>{t('alert.title')}</strong><div>{text}</div></div>,
                    intent: 'primary',
                    timeout: 5000,
                    action: { text: t('alert.open'), onClick: () => openChat(sessionId) }
                }, 'new-chat');
                toastSession.current = sessionId;
                // The banner and the sound are enough while the agent looks at this tab.
                if (document.visibilityState === 'hidden' || !document.hasFocus()) {
                    notifyBrowser(t('alert.title'), text, () => openChat(sessionId));
                }
                break;
            }
            case 'session_accepted':
            case 'session_ended':
            case 'chat_offer_lapsed':
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                setBanner((b) => (b && b.sessionId === push.sessionId && (push.type !== 'chat_offer_lapsed' || b.accept) ? null : b));
                // Its toast goes too once the chat is taken or over, by whoever (a colleague, another tab): left up to its
                // timeout it lay over the reply box on a phone.
                if (push.type !== 'chat_offer_lapsed' && toastSession.current === push.sessionId) {
                    toaster.current?.dismiss('new-chat');
                    toastSession.current = null;
                }
                break;
            case 'left_message': {
                // A customer left a message (no agent was available): the Messages inbox and its count, and the same
                // alerts as a new chat minus the sound, on any staff page (issue 23), one click to the inbox.
                void queryClient.invalidateQueries({ queryKey: leftMessageKeys.all });
                const available = queryClient.getQueryData<AgentStatusView>(chatKeys.agentStatus)?.available ?? false;
                if (!available && !window.location.pathname.startsWith('/admin-chat')) {
                    break;
                }
                const named = typeof push.name === 'string' && push.name ? push.name
                    : typeof push.email === 'string' && push.email ? push.email
                        : customerName({ phoneNumber: null, visitorNumber: typeof push.visitorNumber === 'number' ? push.visitorNumber : undefined });
                const text = t('messages.newToastText', { customer: named });
                const openInbox = () => navigate('/admin-chat/messages');
                toaster.current?.show({
                    message: <div><strong>{t('messages.newToast')}</strong><div>{text}</div></div>,
                    intent: 'primary',
                    timeout: 5000,
                    action: { text: t('messages.view'), onClick: openInbox }
                }, 'left-message');
                if (document.visibilityState === 'hidden' || !document.hasFocus()) {
                    notifyBrowser(t('messages.newToast'), text, openInbox);
                }
                break;
            }
            case 'left_message_updated':
                void queryClient.invalidateQueries({ queryKey: leftMessageKeys.all });
                break;
            case 'chat_offered': {
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                if (push.agentId !== user.id) {
                    break;
                }
                const who = pushCustomer(push);
                const seconds = Number(push.offerSeconds ?? 30);
                const left = typeof push.expiresAt === 'string' ? Date.parse(push.expiresAt) - Date.now() : seconds * 1000;
                offersRung.current.add(`${String(push.sessionId)} ${String(push.expiresAt)}`);
                ring({ sessionId: String(push.sessionId), title: t('offer.title'), bannerTitle: t('offer.bannerTitle'),
                    text: t('offer.text', { who, seconds: Math.round(seconds) }), ms: Math.max(1000, left), accept: true });
                break;
            }
            case 'chat_returned': {
                void queryClient.invalidateQueries({ queryKey: chatKeys.waiting });
                const available = queryClient.getQueryData<AgentStatusView>(chatKeys.agentStatus)?.available ?? false;
                if (!available && !window.location.pathname.startsWith('/admin-chat')) {
                    break;
                }
                const who = pushCustomer(push);
                ring({ sessionId: String(push.sessionId), title: t('returned.title'), bannerTitle: t('returned.title'), text: t('returned.text', { who }), ms: BANNER_MS });
                break;
            }
            case 'chat_transferred': {
                void queryClient.invalidateQueries({ queryKey: chatKeys.active });
                if (push.toAgentId !== user.id || push.byAgentId === user.id) {
                    break;
                }
                const who = pushCustomer(push);
                const from = String(push.fromName ?? '');
                const note = (push.note as { text?: string } | undefined)?.text ?? '';
                ring({ sessionId: String(push.sessionId), title: t('transferred.title'), bannerTitle: t('transferred.title'),
                    text: note ? t('transferred.textNote', { from, who, note }) : t('transferred.text', { from, who }), ms: BANNER_MS * 2, open: 'chat' });
                break;
            }
            case 'agent_availability':
                if (push.agentId === user.id) {
                    const reason = typeof push.reason === 'string' ? push.reason as AgentStatus['awayReason'] : null;
                    queryClient.setQueryData<AgentStatusView>(chatKeys.agentStatus, (old) => old && ({
                        ...old,
                        available: push.available === true,
                        awayReason: push.available === true ? null : reason ?? old.awayReason,
                        awayAt: push.available === true ? null : reason ? String(push.timestamp ?? new Date().toISOString()) : old.awayAt
                    }));
                    if (reason === 'logout' && !localStorage.getItem(ADMIN_TOKEN_KEY)) {
                        logout();       // signed out in another tab: this one leaves too
                    }
                }
                break;
            default:
                break;
        }
        for (const listener of [...listeners.current]) {
            listener(push);
        }
    }, [queryClient, t, openChat, user.id, logout, ring, customerName, navigate, pushCustomer]);

    const onPushRef = useRef(onPush);
    onPushRef.current = onPush;

    useEffect(() => {
        if (user.organizationId === null) {
            return;
        }
        const next = new AgentSocket({
            token,
            organizationId: user.organizationId,
            onPush: (push) => onPushRef.current(push),
            onState: (state, n) => {
                setConnection(state);
                setAttempt(n);
                if (state === 'lost') {
                    toaster.current?.show({ message: <div><strong>{t('presence.lost')}</strong><div>{t('presence.lostText')}</div></div>, intent: 'danger', timeout: 0 });
                }
            },
            // After every (re)connect, and after the server's pub/sub recovered: fetch what may have been missed.
            onConnected: () => void queryClient.invalidateQueries({ queryKey: ['chat'] }),
            onResync: () => void queryClient.invalidateQueries({ queryKey: ['chat'] })
        });
        setSocket(next);
        next.start();
        return () => {
            next.stop();
            setSocket(null);
        };
    }, [token, user.organizationId]);

    // The banner goes after 6 s (SPEC §9); Esc dismisses it on any page.
    useEffect(() => {
        if (!banner) {
            return;
        }
        const timer = setTimeout(() => setBanner(null), Math.max(0, banner.until - Date.now()));
        return () => clearTimeout(timer);
    }, [banner]);
    useEffect(() => {
        const onKey = (e: KeyboardEvent) => {
            if (e.key === 'Escape') {
                setBanner(null);
            }
        };
        window.addEventListener('keydown', onKey);
        return () => window.removeEventListener('keydown', onKey);
    }, []);

    useActivityReports(queryClient);

    // An offer made while this tab was loading or reconnecting (no push reached it): the waiting list names it.
    const waiting = useWaitingChats();
    useEffect(() => {
        for (const chat of (waiting.data ?? []) as WaitingChat[]) {
            const offer = chat.offer;
            const key = offer ? `${chat.sessionId} ${offer.expiresAt}` : '';
            if (!offer || offer.agentId !== user.id || offersRung.current.has(key) || Date.parse(offer.expiresAt) - Date.now() < 2000) {
                continue;
            }
            offersRung.current.add(key);
            const who = chat.phoneNumber && chat.phoneNumber !== 'Unknown' ? chat.phoneNumber : chat.visitorLabel ?? t('alert.aCustomer');
            const left = Date.parse(offer.expiresAt) - Date.now();
            ring({ sessionId: chat.sessionId, title: t('offer.title'), bannerTitle: t('offer.bannerTitle'),
                text: t('offer.text', { who, seconds: Math.round(left / 1000) }), ms: left, accept: true });
        }
    }, [waiting.data, user.id, ring, t]);

    /** The alerted chat was accepted in the console: its banner and its toast go (the toast lay over the reply box on a phone). */
    const dismissBanner = useCallback(() => {
        setBanner(null);
        toaster.current?.dismiss('new-chat');
    }, []);
    const toast = useCallback((title: string, text: string, intent: Intent = 'none') => {
        toaster.current?.show({ message: <div><strong>{title}</strong><div>{text}</div></div>, intent, timeout: 5000 });
    }, []);
    const value = useMemo<AgentSocketState>(() => ({
        socket, connection, attempt, listen, banner: banner && { sessionId: banner.sessionId, text: banner.text }, dismissBanner, toast
    }), [socket, connection, attempt, listen, banner, dismissBanner, toast]);

    return (
        <AgentSocketContext.Provider value={value}>
            {/* Bottom right: the header (Available, Logout) and the new-chat banner stay uncovered. */}
            <OverlayToaster ref={toaster} maxToasts={3} position="bottom-right" />
            {banner && (
                <div className={`lc-banner${banner.accept ? ' is-offer' : ''}`} role="status" aria-live="assertive" data-testid="new-chat-banner"
                    onClick={() => (banner.accept ? undefined : banner.open === 'chat' ? goToChat(banner.sessionId) : openChat(banner.sessionId))}>
                    <span className="lc-banner-text">
                        <strong>{banner.title ?? t('alert.bannerTitle')}</strong>
                        <small>{banner.text}</small>
                    </span>
                    {banner.accept
                        ? <Button small intent="success" className="lc-banner-open" text={t('offer.accept')} data-testid="offer-accept"
                            onClick={(e) => { e.stopPropagation(); acceptOffer(banner.sessionId); }} />
                        : <Button small minimal className="lc-banner-open" text={t('alert.open')} data-testid="new-chat-open"
                            onClick={(e) => { e.stopPropagation(); (banner.open === 'chat' ? goToChat : openChat)(banner.sessionId); }} />}
                    <Button small minimal icon="cross" aria-label={t('alert.dismiss')} className="lc-banner-close" onClick={(e) => { e.stopPropagation(); setBanner(null); }} />
                </div>
            )}
            {children}
        </AgentSocketContext.Provider>
    );
}

/**
 * Tells the server the agent is here (mouse, keyboard or touch in this tab) while they are Available: at most every
 * minute, or more often when the idle window is short (tests); the server sets an agent Away after AGENT_IDLE_MINUTES
 * without a report from any tab.
 */
function useActivityReports(queryClient: ReturnType<typeof useQueryClient>): void {
    useEffect(() => {
        let lastActivity = Date.now();
        let lastReport = Date.now();
        const seen = () => {
            lastActivity = Date.now();
        };
        for (const name of ACTIVITY_EVENTS) {
            window.addEventListener(name, seen, { passive: true, capture: true });
        }
        let timer: ReturnType<typeof setTimeout> | null = null;
        const every = () => {
            const status = queryClient.getQueryData<AgentStatusView>(chatKeys.agentStatus);
            const idleMs = (status?.idleSeconds ?? 900) * 1000;
            return Math.max(250, Math.min(ACTIVITY_REPORT_MS, idleMs / 3));
        };
        const tick = () => {
            const status = queryClient.getQueryData<AgentStatusView>(chatKeys.agentStatus);
            if (status?.available && lastActivity > lastReport) {
                lastReport = Date.now();
                apiRequest<AgentStatusView>('/api/chat/agent/activity', { method: 'POST', body: {} })
                    .then((answer) => queryClient.setQueryData(chatKeys.agentStatus, answer))
                    .catch(() => {});
            }
            timer = setTimeout(tick, every());
        };
        timer = setTimeout(tick, every());
        return () => {
            for (const name of ACTIVITY_EVENTS) {
                window.removeEventListener(name, seen, { capture: true });
            }
            if (timer) {
                clearTimeout(timer);
            }
        };
    }, [queryClient]);
}
