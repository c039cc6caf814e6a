/**
 * The chat panel (the chunk loaded on the first hover, focus or click of the launcher): React in the loader's
 * Shadow DOM, its flow the one reducer of flow.ts, saved per store in sessionStorage (SPEC §2 'Customer widget',
 * §4 'Widget chat flow'; issue 11). Customer and agent text is always rendered as text, never HTML.
 */
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { CSSProperties, KeyboardEvent as ReactKeyboardEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { api, ApiError, track, TrackEvent, WidgetConfig } from './config';
import { Action, FlowState, initialState, Message, newSessionId, reduce, Step } from './flow';
import type { LiveChat, LiveChatOptions } from './live-chat';
import { lazyLiveChat } from './live-chat-lazy';
import { adoptStyles } from './styles';
import { DEFAULT_QUESTIONS, errorText, FaqItem, language, LIVE_WORDS, LOYALTY_WORDS, Messages, setLanguage, t, TEXT } from './texts';

export interface MountOptions {
    config: WidgetConfig;
    root: ShadowRoot;
    /** The conversation saved by an earlier page of this store (persist.ts), or null. */
    saved: FlowState | null;
    /** Where the state is saved after every change. */
    save(state: FlowState): void;
    onToggle(open: boolean): void;
    /** The launcher's unread count (messages that came while the panel was closed). */
    onUnread(count: number): void;
    /** The customer's language (languages.ts) and its texts (null or absent: English, which this chunk carries). */
    lang?: string;
    messages?: Messages | null;
    /** Makes the live chat connection (default: live-chat.ts, fetched as its own chunk when first used); tests pass a fake. */
    liveChat?: (options: LiveChatOptions) => LiveChat;
}

export interface PanelController {
    open(): void;
    close(): void;
    toggle(): void;
}

/** The longest message a customer can send; longer text shows a counter instead of being cut silently. */
export const MAX_LENGTH = 2000;

interface AiAnswer {
    answer: string;
    /** null when nothing was stored (the store's AI budget is spent). */
    historyId: number | null;
    fallbackAction: 'live_chat' | 'verify_phone' | 'questions' | null;
    sources?: Array<{ id: number; title: string }>;
    /** 'ai_budget_reached': the store's AI questions are used up for now; the questions stay. */
    code?: string;
}

type Bus = { dispatch: ((action: Action) => void) | null; queue: Action[]; state: FlowState };

function time(ms: number): string {
    return t('messageTime', { time: ms });
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function Panel(props: { options: MountOptions; bus: Bus }) {
    const { options, bus } = props;
    const { config } = options;
    const [state, dispatch] = useReducer(reduce, bus.state);
    const stateRef = useRef(state);
    stateRef.current = state;
    // The customer's token (issue 25), read by requests made before React renders the state that holds it.
    const tokenRef = useRef<string | null>(state.token);
    const [questions, setQuestions] = useState<FaqItem[] | null>(null);
    const [text, setText] = useState('');
    const live = useRef<LiveChat | null>(null);
    const panelRef = useRef<HTMLDivElement>(null);
    const inputRef = useRef<HTMLTextAreaElement>(null);
    const listRef = useRef<HTMLDivElement>(null);
    const look = config.look;
    const title = look?.title || t('title', { store: config.storeName });

    useLayoutEffect(() => {
        bus.dispatch = dispatch;
        bus.queue.splice(0).forEach(dispatch);
        return () => {
            bus.dispatch = null;
        };
    }, [bus]);

    // ---- saving, launcher, focus ----
    useEffect(() => {
        bus.state = state;
        options.save(state);
        options.onUnread(state.unread);
    }, [state, options, bus]);

    const wasOpen = useRef(false);
    useEffect(() => {
        if (state.open && !wasOpen.current) {
            inputRef.current?.focus();
            emit({ action: 'widget_opened', success: true });
        }
        if (state.open !== wasOpen.current) {
            options.onToggle(state.open);
        }
        wasOpen.current = state.open;
    }, [state.open]);

    useEffect(() => {
        const list = listRef.current;
        if (list) {
            list.scrollTop = list.scrollHeight;
        }
    }, [state.messages.length, state.agentTyping, state.step]);

    // ---- helpers ----
    const sid = state.sessionId;
    function emit(event: TrackEvent): void {
        track(config, stateRef.current.sessionId, event, tokenRef.current);
    }
    /** Keeps the customer's token of the conversation `session` (a later one, after New Chat, gets none of it). */
    function keepToken(session: string, token: string | null): void {
        if (stateRef.current.sessionId === session) {
            tokenRef.current = token;
            dispatch({ type: 'token', token });
        }
    }
    const withToken = () => ({ token: tokenRef.current });
    /** Dispatches only while the conversation that started the request is still the current one. */
    function guard(session: string): (action: Action) => void {
        return (action) => {
            if (stateRef.current.sessionId === session) {
                dispatch(action);
            }
        };
    }
    const say = (d: (a: Action) => void, textOut: string, from: Message['from'] = 'bot', author?: string) =>
        d({ type: 'say', text: textOut, from, time: Date.now(), author });

    // ---- the store's questions ----
    useEffect(() => {
        let done = false;
        api<FaqItem[]>(config, '/api/questions', undefined, withToken())
            .then((rows) => {
                if (!done) {
                    setQuestions(Array.isArray(rows)
                        ? rows.map((q) => ({ id: q.id, question: q.question, answer: q.answer, kind: q.kind ?? 'answer' }))
                        : DEFAULT_QUESTIONS);
                }
            })
            .catch((err) => {
                console.warn('loyalty-chat: using the default questions', err);
                if (!done) {
                    setQuestions(DEFAULT_QUESTIONS);
                }
            });
        return () => {
            done = true;
        };
    }, [config]);

    // The greeting, once open with the questions known, for a new conversation.
    // After New Chat it comes 500 ms later (SPEC §4).
    const greetDelay = useRef(0);
    useEffect(() => {
        if (state.open && questions && state.step === 'initial' && !state.messages.length) {
            const greet = () => {
                greetDelay.current = 0;
                say(dispatch, look?.greeting || TEXT.greeting(config.storeName));
                dispatch({ type: 'step', step: 'questions' });
            };
            if (!greetDelay.current) {
                greet();
                return undefined;
            }
            const timer = setTimeout(greet, greetDelay.current);
            return () => clearTimeout(timer);
        }
        return undefined;
    }, [state.open, questions, state.step, state.messages.length, state.sessionId]);

    // ---- live chat ----
    const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
    function liveChat(): LiveChat {
        const session = stateRef.current.sessionId;
        const d = guard(session);
        live.current ??= (options.liveChat ?? lazyLiveChat)({
            apiOrigin: config.apiOrigin,
            widgetKey: config.key,
            sessionId: session,
            customerToken: () => (stateRef.current.sessionId === session ? tokenRef.current : null),
            texts: {
                agentJoined: () => t('agentJoined'),
                notSent: (reason) => t('notSent', { reason }),
                error: (code, args) => errorText({ code, message: '', args }) || undefined
            },
            onMessage: (m) => {
                say(d, m.message, m.sender === 'agent' ? 'agent' : 'system', m.sender === 'agent' ? m.agentName : undefined);
                if (typeof m.seq === 'number') {
                    d({ type: 'live_seq', seq: m.seq });
                }
            },
            onTyping: () => {
                d({ type: 'agent_typing', typing: true });
                if (typingTimer.current) {
                    clearTimeout(typingTimer.current);
                }
                typingTimer.current = setTimeout(() => d({ type: 'agent_typing', typing: false }), 4000);
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
                    say(d, TEXT.liveEnded);
                }
                d({ type: 'live_ended' });
                live.current = null;
            }
        });
        return live.current;
    }

    // After a reload in the middle of a live chat: reconnect and fetch what was missed.
    useEffect(() => {
        const saved = stateRef.current.live;
        if (saved && saved.chatId && saved.token && !live.current) {
            liveChat().resume({ chatId: saved.chatId, token: saved.token, lastSeq: saved.lastSeq }).catch((err) => {
                console.warn('loyalty-chat: the live chat could not be resumed', err);
            });
        }
    }, []);

    // ---- an offline message when no agent is available (not part of the flow state: a form shown once) ----
    const [offline, setOffline] = useState<{ email: string; text: string; sent: boolean; error: string | null } | null>(null);
    async function sendOffline(e: { preventDefault(): void }): Promise<void> {
        e.preventDefault();
        if (!offline) {
            return;
        }
        try {
            await api(config, '/api/chat/offline-message', {
                sessionId: stateRef.current.sessionId, email: offline.email, message: offline.text, phoneNumber: stateRef.current.verifiedPhone
            }, withToken());
            setOffline(null);
            say(guard(stateRef.current.sessionId), TEXT.offlineSent);
        }
        catch (err) {
            setOffline({ ...offline, error: (err instanceof ApiError ? errorText(err) : (err as Error).message) || TEXT.liveError });
        }
    }

    /** `offlineText` starts the leave-a-message form when no agent is available (none for a question's own label). */
    async function startLiveChat(customerMessage: string, offlineText = customerMessage): Promise<void> {
        const d = guard(sid);
        emit({ action: 'live_chat_requested', phoneNumber: stateRef.current.verifiedPhone, success: null });
        say(d, TEXT.liveChecking);
        d({ type: 'pending', pending: true });
        try {
            const chat = liveChat();
            const available = await chat.checkAvailability();
            if (!available) {
                say(d, TEXT.liveUnavailable);
                d({ type: 'step', step: 'questions' });
                setOffline({ email: '', text: offlineText, sent: false, error: null });
                return;
            }
            await chat.start({ phoneNumber: stateRef.current.verifiedPhone, customerMessage });
            say(d, TEXT.liveWaiting);
            d({ type: 'step', step: 'live_chat' });
            setTimeout(() => {
                if (stateRef.current.step === 'live_chat') {
                    say(d, TEXT.liveConnected);
                }
            }, 2000);
        }
        catch (err) {
            console.warn('loyalty-chat: live chat failed', err);
            say(d, TEXT.liveError, 'error');
            d({ type: 'step', step: 'questions' });
        }
        finally {
            d({ type: 'pending', pending: false });
        }
    }

    // ---- loyalty check ----
    /**
     * The store's loyalty program could not be reached (503, or a 502 carrying the server's connection text: the
     * provider refused the key): SPEC §8's connection texts, not 'Error: …'; the code (if any) is still good.
     */
    const unreachable = (err: ApiError) => err.status === 503 || err.status === 504
        || (err.status === 502 && err.code === 'loyalty.provider_unavailable');

    async function requestCode(identifier: string): Promise<void> {
        const d = guard(sid);
        d({ type: 'pending', pending: true });
        try {
            const res = await api<{ ok?: boolean; reason?: string; message?: string }>(config, '/api/loyalty/verify', { identifier, sessionId: sid }, withToken());
            if (res && res.ok === false) {
                say(d, TEXT.notFound, 'error');
                emit({ action: 'verification_failed', phoneNumber: identifier, success: false, errorMessage: res.message ?? res.reason ?? null });
                d({ type: 'step', step: 'questions' });
                return;
            }
            say(d, TEXT.codeSent);
            emit({ action: 'verification_sent', phoneNumber: identifier, success: true });
            d({ type: 'code_sent', phone: identifier });
        }
        catch (err) {
            const message = err instanceof ApiError ? err.message : 'network error';
            say(d, err instanceof ApiError && !unreachable(err) ? TEXT.verifyError(errorText(err)) : TEXT.verifyNetwork, 'error');
            emit({ action: 'verification_failed', phoneNumber: identifier, success: false, errorMessage: message });
            d({ type: 'step', step: 'questions' });
        }
        finally {
            d({ type: 'pending', pending: false });
        }
    }

    async function checkCode(code: string): Promise<void> {
        const d = guard(sid);
        const phone = stateRef.current.phone ?? '';
        d({ type: 'pending', pending: true });
        try {
            const res = await api<{ ok?: boolean; reason?: string; code?: string; message?: string; points?: number; token?: string }>(config, '/api/loyalty/view',
                { identifier: phone, code, sessionId: sid }, withToken());
            if (res && res.ok === false) {
                const message = res.message ?? 'Invalid verification code';
                emit({ action: 'code_verification_failed', phoneNumber: phone, success: false, errorMessage: message });
                if (res.reason === 'invalid_code') {
                    say(d, TEXT.wrongCode(errorText({ code: res.code, message }).replace(/\.$/, '')), 'error');
                }
                else {
                    say(d, TEXT.notFound, 'error');
                    d({ type: 'step', step: 'questions' });
                }
                return;
            }
            const points = Number(res.points) || 0;
            if (typeof res.token === 'string') {
                // The token now names the verified phone: the AI agent's points and orders need it.
                keepToken(sid, res.token);
            }
            d({ type: 'verified', phone });
            say(d, TEXT.points(points));
            emit({ action: 'points_retrieved', phoneNumber: phone, success: true, pointsRetrieved: points });
            d({ type: 'step', step: 'success' });
            const reask = stateRef.current.reask;
            if (reask && config.aiEnabled) {
                // The AI asked for the phone first (fallbackAction 'verify_phone'): now the question again.
                d({ type: 'reask', question: null });
                await askAi(reask);
            }
        }
        catch (err) {
            const message = err instanceof ApiError ? err.message : 'network error';
            emit({ action: 'code_verification_failed', phoneNumber: phone, success: false, errorMessage: message });
            if (!(err instanceof ApiError) || unreachable(err)) {
                // The code was not used up: the customer can send it again from the code step.
                say(d, TEXT.codeNetwork, 'error');
            }
            else {
                // Expired, used up or rate limited: retrying this code cannot work.
                say(d, TEXT.verifyError(errorText(err)), 'error');
                d({ type: 'step', step: 'questions' });
            }
        }
        finally {
            d({ type: 'pending', pending: false });
        }
    }

    // ---- the AI agent (only when the store has it: config.aiEnabled) ----
    async function askAi(question: string): Promise<void> {
        const d = guard(sid);
        d({ type: 'step', step: 'ai' });
        d({ type: 'feedback_for', historyId: null });
        d({ type: 'pending', pending: true });
        let fallback: AiAnswer['fallbackAction'] = null;
        try {
            const res = await api<AiAnswer>(config, '/api/ai/chat', { sessionId: sid, message: question }, withToken());
            const sources = (res.sources ?? []).map((x) => x.title).filter(Boolean);
            // A coded answer (the store's AI budget is spent: 'ai.budget_reached') in the customer's language.
            const answer = res.code ? errorText({ code: res.code, message: res.answer }) : res.answer;
            say(d, sources.length ? `${answer}\n\n${t('aiSources', { titles: sources.join(', ') })}` : answer);
            fallback = res.fallbackAction;
            if (fallback === 'verify_phone') {
                d({ type: 'reask', question });
                say(d, TEXT.askPhone);
                d({ type: 'step', step: 'identifier' });
            }
            else if (fallback === 'questions') {
                d({ type: 'step', step: 'questions' });
            }
            else if (fallback !== 'live_chat' && typeof res.historyId === 'number') {
                d({ type: 'feedback_for', historyId: res.historyId });
            }
        }
        catch (err) {
            say(d, err instanceof ApiError ? TEXT.verifyError(errorText(err)) : TEXT.fallback, 'error');
            d({ type: 'step', step: 'questions' });
        }
        finally {
            d({ type: 'pending', pending: false });
        }
        if (fallback === 'live_chat' && stateRef.current.sessionId === sid) {
            await startLiveChat(question);
        }
    }

    function feedback(resolved: boolean): void {
        const historyId = state.feedbackFor;
        dispatch({ type: 'feedback_for', historyId: null });
        if (historyId !== null) {
            api(config, '/api/ai/feedback', { sessionId: sid, historyId, resolved }, withToken()).catch((err) => console.warn('loyalty-chat: feedback not recorded', err));
        }
        say(dispatch, resolved ? TEXT.moreHelp : TEXT.aiNotResolved);
        dispatch({ type: 'step', step: 'questions' });
    }

    // ---- choosing and typing ----
    function choose(q: FaqItem): void {
        if (state.pending) {
            return;
        }
        say(dispatch, q.question, 'user');
        emit({ action: 'question_clicked', questionId: q.id, success: true });
        if (q.kind === 'loyalty_check') {
            say(dispatch, TEXT.askPhone);
            dispatch({ type: 'step', step: 'identifier' });
        }
        else if (q.kind === 'live_support') {
            void startLiveChat(q.question, '');
        }
        else {
            say(dispatch, q.answer);
            const d = guard(sid);
            dispatch({ type: 'step', step: 'initial' });
            setTimeout(() => {
                if (stateRef.current.step === 'initial') {
                    d({ type: 'step', step: 'questions' });
                }
            }, 1000);
        }
    }

    function submit(): void {
        const value = text.trim();
        if (!value || state.pending || value.length > MAX_LENGTH) {
            return;     // blank text is ignored; too long text keeps its counter
        }
        setText('');
        say(dispatch, value, 'user');
        const step: Step = state.step;
        if (step === 'live_chat') {
            live.current?.send(value);
            return;
        }
        if (step === 'identifier') {
            void requestCode(value);
            return;
        }
        if (step === 'code') {
            void checkCode(value.replace(/\s+/g, ''));
            return;
        }
        const match = (questions ?? []).find((q) => q.question.toLowerCase() === value.toLowerCase());
        if ((match && match.kind === 'live_support') || (!match && LIVE_WORDS.test(value))) {
            void startLiveChat(value);
        }
        else if ((match && match.kind === 'loyalty_check') || (!match && LOYALTY_WORDS.test(value))) {
            say(dispatch, TEXT.askPhone);
            dispatch({ type: 'step', step: 'identifier' });
        }
        else if (!match && config.aiEnabled) {
            void askAi(value);
        }
        else {
            say(dispatch, match ? match.answer : TEXT.fallback);
            dispatch({ type: 'step', step: 'questions' });
        }
    }

    function newChat(): void {
        const chat = live.current;
        live.current = null;
        if (chat && stateRef.current.step === 'live_chat') {
            chat.end().catch(() => undefined);
        }
        setText('');
        greetDelay.current = 500;
        setOffline(null);
        tokenRef.current = null;
        dispatch({ type: 'new_chat', sessionId: newSessionId() });
        inputRef.current?.focus();
    }

    // ---- keyboard: Esc closes, Tab stays inside the dialog ----
    function onKeyDown(event: ReactKeyboardEvent<HTMLDivElement>): void {
        if (event.key === 'Escape') {
            event.stopPropagation();
            dispatch({ type: 'close' });
            return;
        }
        if (event.key === 'Tab' && panelRef.current) {
            const items = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.closest('[hidden]'));
            if (!items.length) {
                return;
            }
            const first = items[0];
            const last = items[items.length - 1];
            const active = (panelRef.current.getRootNode() as ShadowRoot).activeElement;
            if (event.shiftKey && active === first) {
                event.preventDefault();
                last.focus();
            }
            else if (!event.shiftKey && active === last) {
                event.preventDefault();
                first.focus();
            }
        }
    }

    const step = state.step;
    const tooLong = text.length > MAX_LENGTH;
    const placeholder = t(step === 'identifier' ? 'placeholderPhone'
        : step === 'code' ? 'placeholderCode'
            : step === 'live_chat' ? 'placeholderLive' : 'placeholderMessage');
    const showQuick = step === 'questions';

    return (
        <div className={`lc-panel${look?.position === 'left' ? ' lc-left' : ''}`} role="dialog" aria-modal="true" aria-label={title} lang={language()}
            hidden={!state.open} ref={panelRef} onKeyDown={onKeyDown}
            // The store's colour (≥ 4.5:1 with white, checked when staff set it) on the head, the customer's bubbles,
            // the question chips, Send and the focus ring; set through the CSSOM, which a strict CSP allows.
            style={look?.color ? { '--lc-accent': look.color } as CSSProperties : undefined}>
            <div className="lc-head">
                <h2 className="lc-title">{title}</h2>
                <span className="lc-badge" hidden={step !== 'live_chat'}>{t('liveBadge')}</span>
                <button type="button" className="lc-x" aria-label={t('closeChat')} onClick={() => dispatch({ type: 'close' })}>{'\u00d7'}</button>
            </div>
            <div className="lc-msgs" role="log" aria-live="polite" aria-label={t('messagesLabel')} tabIndex={0} ref={listRef}>
                {state.messages.map((m) => (
                    <div key={m.id} className={`lc-msg lc-${m.from === 'user' ? 'user' : m.from === 'error' ? 'error' : m.from === 'agent' ? 'agent' : 'bot'}`}
                        data-role={m.from === 'user' ? 'user' : m.from === 'error' ? 'error' : 'bot'}>
                        {m.from === 'agent' && m.author && <span className="lc-author">{m.author}</span>}
                        <span className="lc-text" dir="auto">{m.text}</span>
                        <time className="lc-time" dateTime={new Date(m.time).toISOString()}>{time(m.time)}</time>
                    </div>
                ))}
                {state.agentTyping && <div className="lc-typing" aria-label={t('agentTyping')}>…</div>}
            </div>
            {offline && (
                <form className="lc-offline" aria-label={t('offlineForm')} onSubmit={(e) => void sendOffline(e)}>
                    <label>{t('offlineEmail')}<input type="email" required maxLength={254} value={offline.email}
                        onChange={(e) => setOffline({ ...offline, email: e.target.value })} /></label>
                    <label>{t('offlineMessage')}<textarea required rows={3} value={offline.text} dir="auto"
                        onChange={(e) => setOffline({ ...offline, text: e.target.value })} /></label>
                    {offline.error && <p className="lc-offline-error" role="alert">{offline.error}</p>}
                    <div>
                        <button type="submit" className="lc-chip">{t('offlineSend')}</button>
                        <button type="button" className="lc-chip" onClick={() => setOffline(null)}>{t('offlineNoThanks')}</button>
                    </div>
                </form>
            )}
            <div className="lc-quick" role="group" aria-label={t('quickQuestions')} hidden={!showQuick}>
                {showQuick && (questions ?? []).map((q) => (
                    <button key={q.id} type="button" className="lc-chip" disabled={state.pending} onClick={() => choose(q)}>{q.question}</button>
                ))}
            </div>
            {state.feedbackFor !== null && (
                <div className="lc-quick" role="group" aria-label={t('feedbackQuestion')}>
                    <button type="button" className="lc-chip" onClick={() => feedback(true)}>{t('feedbackYes')}</button>
                    <button type="button" className="lc-chip" onClick={() => feedback(false)}>{t('feedbackNo')}</button>
                </div>
            )}
            <div className="lc-bar">
                <button type="button" className="lc-link" onClick={newChat}>{t('newChat')}</button>
                <button type="button" className="lc-link" hidden={!(step === 'success' || step === 'code')}
                    onClick={() => {
                        say(dispatch, TEXT.moreHelp);
                        dispatch({ type: 'step', step: 'questions' });
                    }}>{t('moreHelpButton')}</button>
            </div>
            <form className="lc-form" onSubmit={(e) => {
                e.preventDefault();
                submit();
            }}>
                <textarea className="lc-input" ref={inputRef} rows={1} dir="auto" value={text} disabled={state.pending}
                    inputMode={step === 'code' ? 'numeric' : step === 'identifier' ? 'tel' : 'text'}
                    autoComplete="off" placeholder={placeholder} aria-label={placeholder}
                    aria-invalid={tooLong || undefined} aria-describedby={tooLong ? 'lc-count' : undefined}
                    onChange={(e) => {
                        setText(e.target.value);
                        if (stateRef.current.step === 'live_chat' && e.target.value.trim()) {
                            live.current?.typing();
                        }
                    }}
                    onKeyDown={(e) => {
                        if (e.key === 'Enter' && !e.shiftKey) {
                            e.preventDefault();
                            submit();
                        }
                    }} />
                <button type="submit" className="lc-send" disabled={state.pending || tooLong}>{t('send')}</button>
            </form>
            {tooLong && (
                <p className="lc-count" id="lc-count" role="status">
                    {t('tooLong', { length: text.length, max: MAX_LENGTH, over: text.length - MAX_LENGTH })}
                </p>
            )}
        </div>
    );
}

export function mount(options: MountOptions): PanelController {
    setLanguage(options.lang || 'en', options.messages || null);
    adoptStyles(options.root, PANEL_CSS);
    const container = document.createElement('div');
    options.root.append(container);
    const saved = options.saved;
    const state = saved ?? initialState(newSessionId());
    // The language goes with the conversation (sessionStorage): a reload or the next page keeps it.
    const bus: Bus = { dispatch: null, queue: [], state: options.lang ? { ...state, lang: options.lang } : state };
    if (!saved) {
        track(options.config, bus.state.sessionId, { action: 'widget_loaded', success: true });
    }
    const send = (action: Action) => (bus.dispatch ? bus.dispatch(action) : bus.queue.push(action));
    createRoot(container).render(<Panel options={options} bus={bus} />);
    return {
        open: () => send({ type: 'open' }),
        close: () => send({ type: 'close' }),
        toggle() {
            const open = bus.queue.reduce((o, a) => (a.type === 'open' ? true : a.type === 'close' ? false : o), bus.state.open);
            send({ type: open ? 'close' : 'open' });
        }
    };
}

/** The chat panel's styles (here, not in styles.ts, which the loader shares: they load with the panel). */
export const PANEL_CSS = `
.lc-panel{position:fixed;right:20px;bottom:88px;width:370px;height:560px;max-height:calc(100vh - 110px);
  display:flex;flex-direction:column;background:#fff;color:#111827;border-radius:14px;overflow:hidden;
  box-shadow:0 12px 40px rgba(0,0,0,.28);z-index:2147483000;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  text-align:start}
.lc-panel[hidden]{display:none}
.lc-left{right:auto;left:20px}
.lc-panel *{box-sizing:border-box}
.lc-head{display:flex;align-items:center;gap:8px;padding:12px 14px;background:var(--lc-accent,#1d4ed8);color:#fff}
.lc-title{flex:1;margin:0;font-size:16px;font-weight:600;color:#fff}
.lc-badge{background:#fff;color:#166534;border-radius:999px;padding:2px 8px;font-size:12px;font-weight:600}
.lc-badge[hidden]{display:none}
.lc-x{border:0;background:transparent;color:#fff;font-size:22px;line-height:1;cursor:pointer;padding:2px 6px;border-radius:6px}
.lc-msgs{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px;background:#f9fafb}
.lc-msg{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere;display:flex;flex-direction:column;gap:2px}
.lc-bot,.lc-agent{align-self:flex-start;background:#fff;border:1px solid #e5e7eb;color:#111827}
.lc-agent{border-color:#bfdbfe}
.lc-user{align-self:flex-end;background:var(--lc-accent,#1d4ed8);color:#fff}
.lc-error{align-self:flex-start;background:#fef2f2;border:1px solid #fecaca;color:#dc2626}
.lc-author{font-size:12px;font-weight:600;color:#1e3a8a}
.lc-time{font-size:11px;opacity:.9;align-self:flex-end}
.lc-offline{display:flex;flex-direction:column;gap:6px;padding:8px 12px;border-top:1px solid #e5e7eb}
.lc-offline label{display:flex;flex-direction:column;gap:2px;font-size:14px;color:#1f2937}
.lc-offline input,.lc-offline textarea{font:inherit;font-size:16px;padding:6px;border:1px solid #6b7280;border-radius:6px}
.lc-offline-error{color:#b91c1c;margin:0;font-size:14px}
.lc-typing{align-self:flex-start;color:#4b5563;font-size:20px;letter-spacing:2px}
.lc-quick{display:flex;flex-wrap:wrap;gap:6px;padding:8px 14px;border-top:1px solid #e5e7eb;background:#fff}
.lc-quick[hidden]{display:none}
.lc-chip{border:1px solid var(--lc-accent,#1d4ed8);background:#fff;color:var(--lc-accent,#1d4ed8);border-radius:999px;padding:6px 12px;cursor:pointer;font:inherit;font-size:13px}
.lc-chip:disabled{opacity:.5;cursor:default}
.lc-bar{display:flex;gap:8px;padding:6px 14px;background:#fff;border-top:1px solid #e5e7eb}
.lc-link{border:1px solid #d1d5db;background:#fff;border-radius:6px;padding:4px 10px;cursor:pointer;color:#374151;font-size:12px}
.lc-link[hidden]{display:none}
.lc-form{display:flex;gap:8px;padding:10px 14px;border-top:1px solid #e5e7eb;background:#fff}
.lc-input{flex:1;min-width:0;border:1px solid #6b7280;border-radius:8px;padding:8px 10px;font:inherit;font-size:16px;color:#111827;background:#fff;resize:none;height:40px}
.lc-input:disabled{background:#f3f4f6}
.lc-input[aria-invalid=true]{border-color:#dc2626}
.lc-send{border:0;border-radius:8px;background:var(--lc-accent,#1d4ed8);color:#fff;padding:0 14px;cursor:pointer;font-weight:600}
.lc-send:disabled{opacity:.5;cursor:default}
.lc-count{margin:0;padding:4px 14px 8px;background:#fff;color:#b91c1c;font-size:12px}
.lc-panel :focus-visible,.lc-msgs:focus-visible{outline:3px solid var(--lc-accent,#1d4ed8);outline-offset:2px}
.lc-head :focus-visible{outline-color:#fff}
@media (max-width:480px){
  .lc-panel,.lc-left{right:0;bottom:0;left:0;top:0;width:100%;height:100%;max-height:none;border-radius:0}
}
`;
