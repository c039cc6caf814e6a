/**
 * The chat panel (the chunk loaded on the first hover, focus or click of the launcher): React in the loader's
 * Shadow DOM, its state the one reducer of flow.ts, saved per store in sessionStorage (SPEC §2 'Customer widget',
 * §4 'Widget chat flow'; issue 11). What the bot does with a typed message is the server's decision carried out by
 * conversation.ts (issue 23); the live chat is use-live-chat.ts; the messages message-list.tsx. Customer and agent
 * text is always rendered as text, never HTML.
 */
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { CSSProperties, KeyboardEvent as ReactKeyboardEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { api, track, TrackEvent, WidgetConfig } from './config';
import { Action, FlowState, initialState, newSessionId, reduce, said } from './flow';
import type { LiveChat, LiveChatOptions } from './live-chat';
import type { RatingCard } from './rating';
import { conversation } from './conversation';
import { MessageList } from './message-list';
import type { OfflineForm } from './offline-form';
import type { EmailOffer } from './email-offer';
import { PANEL_CSS } from './panel-css';
import { adoptStyles } from './styles';
import { DEFAULT_QUESTIONS, FaqItem, language, Messages, setLanguage, t, TEXT } from './texts';
import { useLiveChat } from './use-live-chat';
import type { FileRef } from './attachments';

/** The files chunk (issue 29), fetched when the customer attaches or a message with files is shown. */
type FilesKit = typeof import('./attachments');
import type { Availability } from './hours';
import { enabledLanguages, isRtl, LAUNCHER, loadMessages, sideOf } from './languages';

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
    /** The customer switched language in the panel: the launcher's label and side follow. */
    onLanguage?(lang: string): void;
    /** Makes the live chat connection (default: live-chat.ts, fetched as its own chunk when first used); tests pass a fake. */
    liveChat?: (options: LiveChatOptions) => LiveChat;
}

export interface PanelController {
    open(): void;
    close(): void;
    toggle(): void;
    /** The launcher's label in the panel's language (open: "Close chat…"), with the unread count when there is one. */
    label(open: boolean, count: number): string;
}

/** Each language by its own name (what a customer looks for in the language menu). */
const NAMES: Record<string, string> = { en: 'English', es: 'Español', fr: 'Français', 'pt-BR': 'Português (Brasil)', de: 'Deutsch', ar: 'العربية' };

/** The longest message a customer can send; longer text shows a counter instead of being cut silently. */
export const MAX_LENGTH = 2000;

type Bus = { dispatch: ((action: Action) => void) | null; queue: Action[]; state: FlowState };

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
    const [kit, setKit] = useState<FilesKit | null>(null);
    const [tray, setTray] = useState(false);
    const [ready, setReady] = useState<FileRef[]>([]);
    const [cleared, setCleared] = useState(0);
    const loadKit = () => void import(/* webpackChunkName: "feature-files" */ './attachments').then(setKit);
    const panelRef = useRef<HTMLDivElement>(null);
    const inputRef = useRef<HTMLTextAreaElement>(null);
    const listRef = useRef<HTMLDivElement>(null);
    const look = config.look;
    // The store's own texts: per language, else (its default language) the look's, else the catalogue's.
    const own = (key: 'title' | 'greeting' | 'privacy') => look?.texts?.[language()]?.[key]
        || (language() === (config.languages?.default || 'en') ? look?.[key] : null);
    const title = own('title') || t('title', { store: config.storeName });

    useLayoutEffect(() => {
        bus.dispatch = dispatch;
        bus.queue.splice(0).forEach(dispatch);
        return () => {
            bus.dispatch = null;
        };
    }, [bus]);

    function emit(event: TrackEvent): void {
        track(config, stateRef.current.sessionId, event, tokenRef.current);
    }
    const live = useLiveChat({ config, stateRef, tokenRef, dispatch, emit, make: options.liveChat });
    // The rating after a chat (issue 28): its own chunk, fetched when a chat with an agent ends.
    const [Rating, setRating] = useState<typeof RatingCard | null>(null);
    useEffect(() => {
        if (live.rateFor && !Rating) {
            import(/* webpackChunkName: "feature-rating" */ './rating').then((m) => setRating(() => m.RatingCard), () => live.setRateFor(null));
        }
    }, [live.rateFor]);
    // Leave a message (no agent available): its own chunk too, fetched when the form is offered.
    const [Offline, setOfflineForm] = useState<typeof OfflineForm | null>(null);
    useEffect(() => {
        if (live.offline && !Offline) {
            import(/* webpackChunkName: "feature-offline" */ './offline-form').then((m) => setOfflineForm(() => m.OfflineForm), () => live.setOffline(null));
        }
    }, [live.offline]);
    // Leave an email in a live chat (issue 28): its own chunk, fetched when a live chat starts.
    const [Email, setEmailOffer] = useState<typeof EmailOffer | null>(null);
    const access = state.live?.chatId && state.live.token ? { origin: config.apiOrigin, chatId: state.live.chatId, token: state.live.token } : null;
    const inLive = state.step === 'live_chat' && !!access;
    useEffect(() => {
        if (inLive && !Email) {
            import(/* webpackChunkName: "feature-email" */ './email-offer').then((m) => setEmailOffer(() => m.EmailOffer), () => undefined);
        }
    }, [inLive]);
    const talk = conversation({
        config,
        state: () => stateRef.current,
        dispatch,
        questions: () => questions ?? DEFAULT_QUESTIONS,
        token: () => tokenRef.current,
        keepToken(session, token) {
            if (stateRef.current.sessionId === session) {
                tokenRef.current = token;
                dispatch({ type: 'token', token });
            }
        },
        emit,
        lang: () => stateRef.current.lang || language(),
        live: (message, offlineText) => live.start(message, offlineText),
        send: (message) => live.send(message),
        leaveMessage: (text) => live.leaveMessage(text)
    });

    // A message with files (the agent's, or after a reload): the files chunk shows them.
    const hasFiles = state.messages.some((m) => m.files);
    useEffect(() => {
        if (hasFiles && !kit) {
            loadKit();
        }
    }, [hasFiles]);

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
    }, [state.messages.length, state.agentTyping, state.step, !!live.offline]);

    // ---- the store's questions ----
    useEffect(() => {
        let done = false;
        // The store's questions in the customer's language (else its default language's), again when they switch.
        api<FaqItem[]>(config, `/api/questions?lang=${encodeURIComponent(language())}`, undefined, { token: tokenRef.current })
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
    }, [config, state.lang]);

    // Outside support hours with `hide` (issue 26), the live-support question is not offered: asked once per panel.
    const [hideLive, setHideLive] = useState(false);
    useEffect(() => {
        if (!questions?.some((q) => q.kind === 'live_support')) {
            return undefined;
        }
        let done = false;
        api<Availability>(config, '/api/chat/check-availability', { sessionId: stateRef.current.sessionId }, { token: tokenRef.current })
            .then((status) => {
                if (!done) {
                    setHideLive(status?.reason === 'closed' && status.whenClosed === 'hide');
                }
            })
            .catch(() => undefined);
        return () => {
            done = true;
        };
    }, [questions]);

    // The greeting, once open with the questions known, for a new conversation.
    // After New Chat it comes 500 ms later (SPEC §4).
    const greetDelay = useRef(0);
    useEffect(() => {
        if (state.open && questions && state.step === 'initial' && !state.messages.length) {
            const greet = () => {
                greetDelay.current = 0;
                dispatch(said(own('greeting') || TEXT.greeting(config.storeName)));
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

    function submit(): void {
        const value = text.trim();
        if (ready.length && state.step === 'live_chat' && value.length <= MAX_LENGTH) {
            // Photos and files, with or without text (issue 29).
            dispatch(said(value, 'user', undefined, ready));
            live.send(value, ready.map((f) => f.id));
            setText('');
            setReady([]);
            setCleared((n) => n + 1);
            setTray(false);
            return;
        }
        if (!value || state.pending || value.length > MAX_LENGTH) {
            return;     // blank text is ignored; too long text keeps its counter
        }
        setText('');
        void talk.submit(value);
    }

    /** The customer's choice of language: the texts from now on (what was said stays as it was), kept with the conversation. */
    function switchLanguage(next: string): void {
        void loadMessages(next).then((messages) => {
            if (next !== 'en' && !messages) {
                return;     // its texts could not be loaded: stay in the current language
            }
            setLanguage(next, messages);
            dispatch({ type: 'lang', lang: next });
            options.onLanguage?.(next);
        });
    }

    function newChat(): void {
        live.end();
        setText('');
        greetDelay.current = 500;
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
    // While the leave-a-message form is open it is what the customer is doing: the questions wait below it. The AI
    // agent's suggestions, when it has some, stand in for them.
    const showQuick = step === 'questions' && !live.offline && !state.suggestions?.length;
    const inStep = step === 'identifier' || step === 'code';

    const lang = language();
    const languages = enabledLanguages(config);
    return (
        <div className={`lc-panel${sideOf(look?.position, lang) === 'left' ? ' lc-left' : ''}`} role="dialog" aria-modal="true" aria-label={title} lang={lang}
            dir={isRtl(lang) ? 'rtl' : 'ltr'} hidden={!state.open} ref={panelRef} onKeyDown={onKeyDown}
            // The store's colour (≥ 4.5:1 with white, checked when staff set it) on the head, the customer's bubbles,
            // the question chips, Send and the focus ring; set through the CSSOM, which a strict CSP allows.
            style={look?.color ? { '--lc-accent': look.color } as CSSProperties : undefined}>
            <div className="lc-head">
                <h2 className="lc-title">{title}</h2>
                <span className="lc-badge" hidden={step !== 'live_chat'}>{t('liveBadge')}</span>
                <button type="button" className="lc-x" aria-label={t('closeChat')} onClick={() => dispatch({ type: 'close' })}>{'\u00d7'}</button>
            </div>
            <MessageList messages={state.messages} agentTyping={state.agentTyping} listRef={listRef}
                files={(files) => (kit ? <kit.MessageFiles files={files} access={access} /> : null)}>
                {inLive && Email && <Email config={config} {...access!} />}
                {live.offline && Offline && <Offline draft={live.offline} change={live.setOffline} send={() => void live.sendOffline()} />}
                {live.rateFor && Rating && <Rating config={config} chatId={live.rateFor.chatId} token={live.rateFor.token}
                    onDone={(thanks) => {
                        live.setRateFor(null);
                        if (thanks) {
                            dispatch(said(thanks));
                        }
                    }} />}
            </MessageList>
            {step === 'live_chat' && live.queue && (
                <p className="lc-queue" role="status">
                    {t('queuePosition', { position: live.queue.position })}
                    {live.queue.typicalWaitSeconds !== null && ` ${t('queueWait', { minutes: Math.max(1, Math.round(live.queue.typicalWaitSeconds / 60)) })}`}
                </p>
            )}
            {step === 'questions' && !!state.suggestions?.length && (
                // The AI agent did not know (issue 30): the store's closest entries first, even beside the
                // leave-a-message form; one picked answers from it, and the form is no longer needed.
                <div className="lc-quick" role="group" aria-label={t('aiSuggestions')}>
                    {state.suggestions.map((s) => (
                        <button key={s.key} type="button" className="lc-chip" dir="auto" disabled={state.pending} onClick={() => {
                            live.setOffline(null);
                            void talk.pick(s);
                        }}>{s.title}</button>
                    ))}
                </div>
            )}
            <div className="lc-quick" role="group" aria-label={t('quickQuestions')} hidden={!showQuick}>
                {showQuick && (questions ?? []).filter((q) => !(hideLive && q.kind === 'live_support')).map((q) => (
                    <button key={q.id} type="button" className="lc-chip" dir="auto" disabled={state.pending} onClick={() => !state.pending && talk.choose(q)}>{q.question}</button>
                ))}
            </div>
            {inStep && (
                // Every step can be left (issue 23), and a code that did not come can be sent again.
                <div className="lc-quick" role="group" aria-label={t('stepChoices')}>
                    {step === 'code' && state.offer === 'resend' && (
                        <button type="button" className="lc-chip" disabled={state.pending} onClick={() => void talk.resend()}>{t('resendChip')}</button>
                    )}
                    <button type="button" className="lc-chip" disabled={state.pending} onClick={() => talk.cancel()}>{t('cancelChip')}</button>
                </div>
            )}
            {state.offer === 'person' && step === 'questions' && !live.offline && (
                <div className="lc-quick" role="group" aria-label={t('aiOfferPerson')}>
                    <button type="button" className="lc-chip" disabled={state.pending} onClick={() => void talk.person(true)}>{t('aiTalkToPerson')}</button>
                    <button type="button" className="lc-chip" disabled={state.pending} onClick={() => void talk.person(false)}>{t('aiNoThanks')}</button>
                </div>
            )}
            {state.feedbackFor !== null && step !== 'live_chat' && (
                <div className="lc-quick" role="group" aria-label={t('feedbackQuestion')}>
                    <button type="button" className="lc-chip" onClick={() => talk.feedback(true)}>{t('feedbackYes')}</button>
                    <button type="button" className="lc-chip" onClick={() => talk.feedback(false)}>{t('feedbackNo')}</button>
                </div>
            )}
            <div className="lc-bar">
                <button type="button" className="lc-link" onClick={newChat}>{t('newChat')}</button>
                <button type="button" className="lc-link" hidden={!(step === 'success' || step === 'code')} onClick={() => talk.moreHelp()}>{t('moreHelpButton')}</button>
                {languages.length > 1 && (
                    <select className="lc-lang" aria-label={t('language')} value={lang} onChange={(e) => switchLanguage(e.target.value)}>
                        {languages.map((l) => <option key={l} value={l} lang={l}>{NAMES[l] ?? l}</option>)}
                    </select>
                )}
            </div>
            {step === 'identifier' && <p className="lc-note" id="lc-phone-use">{t('phoneUse')}</p>}
            {!state.messages.some((m) => m.from === 'user') && (
                // Consent (issue 25): said before the customer's first message is kept, with the store's policy.
                <p className="lc-note lc-privacy" data-testid="privacy-line">
                    {own('privacy') || t('privacyLine')}
                    {look?.privacyUrl && <> <a href={look.privacyUrl} target="_blank" rel="noopener noreferrer">{t('privacyLink')}</a></>}
                </p>
            )}
            <form className="lc-form" onSubmit={(e) => {
                e.preventDefault();
                submit();
            }}>
                <textarea className="lc-input" ref={inputRef} rows={1} dir="auto" value={text} disabled={state.pending}
                    // A text keyboard in every step (a phone pad cannot type "never mind"); the browser may offer the
                    // phone number, or the code from the text message.
                    autoComplete={step === 'code' ? 'one-time-code' : step === 'identifier' ? 'tel' : 'off'} placeholder={placeholder} aria-label={placeholder}
                    aria-invalid={tooLong || undefined} aria-describedby={tooLong ? 'lc-count' : undefined}
                    onChange={(e) => {
                        setText(e.target.value);
                        if (stateRef.current.step === 'live_chat' && e.target.value.trim()) {
                            live.typing();
                        }
                    }}
                    onKeyDown={(e) => {
                        if (e.key === 'Enter' && !e.shiftKey) {
                            e.preventDefault();
                            submit();
                        }
                    }} />
                {step === 'live_chat' && access && (
                    <button type="button" className="lc-link lc-attach" aria-label={t('attachFile')} title={t('attachFile')} aria-expanded={tray}
                        onClick={() => {
                            loadKit();
                            setTray(true);
                        }}>+</button>
                )}
                <button type="submit" className="lc-send" disabled={state.pending || tooLong}>{t('send')}</button>
            </form>
            {tray && kit && access && <kit.AttachTray access={access} onChange={setReady} clearKey={cleared} />}
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
        },
        label(open, count) {
            const store = options.config.storeName;
            const text = open ? t('launcherClose', { store }) : LAUNCHER[language()].launcherOpen({ store });
            return count ? t('launcherUnread', { label: text, count }) : text;
        }
    };
}
