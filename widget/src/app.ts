/**
 * The chat panel (lazily loaded chunk): SPEC §2 'Customer widget' and §4 'Widget chat flow'.
 * Plain DOM in the loader's Shadow DOM; customer and agent text is always set as text, never HTML.
 */
import { api, ApiError, track, TrackEvent, WidgetConfig } from './config';
import { createLiveChat, LiveChat, LiveChatOptions } from './live-chat';
import { adoptStyles } from './styles';
import { DEFAULT_QUESTIONS, FaqItem, LIVE_QUESTION, LIVE_WORDS, LOYALTY_QUESTION, TEXT } from './texts';

export type Step = 'initial' | 'questions' | 'identifier' | 'code' | 'success' | 'live_chat';

export interface ChatMessage {
    id: number;
    text: string;
    isUser: boolean;
    isError: boolean;
    timestamp: Date;
}

export interface MountOptions {
    config: WidgetConfig;
    sessionId: string;
    root: ShadowRoot;
    onToggle(open: boolean): void;
    /** Makes the live chat connection (default: live-chat.ts); tests pass a fake. */
    liveChat?: (options: LiveChatOptions) => LiveChat;
}

export interface PanelController {
    open(): void;
    close(): void;
    toggle(): void;
}

/**
 * An answer that means the store's loyalty program could not be reached (503, or a 502 carrying the server's
 * connection text: the provider refused the key): the widget shows SPEC §8's connection texts for it, not
 * 'Error: …'. Other 502s (the SMS sender failed) keep their own message.
 */
function unreachable(err: ApiError): boolean {
    return err.status === 503 || err.status === 504 || (err.status === 502 && (err.message === TEXT.verifyNetwork || err.message === TEXT.codeNetwork));
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    node.className = className;
    if (text !== undefined) {
        node.textContent = text;
    }
    return node;
}

export function mount(options: MountOptions): PanelController {
    const { config, sessionId, root } = options;
    const title = `${config.storeName} Support`;

    // ---- DOM ----
    const panel = el('div', 'lc-panel');
    panel.hidden = true;
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', title);
    const head = el('div', 'lc-head');
    const heading = el('h2', 'lc-title', title);
    const badge = el('span', 'lc-badge', 'Live Chat Active');
    badge.hidden = true;
    const closeButton = el('button', 'lc-x', '\u00d7');
    closeButton.type = 'button';
    closeButton.setAttribute('aria-label', 'Close chat');
    head.append(heading, badge, closeButton);
    const list = el('div', 'lc-msgs');
    list.setAttribute('role', 'log');
    list.setAttribute('aria-live', 'polite');
    list.setAttribute('aria-label', 'Messages');
    const quick = el('div', 'lc-quick');
    quick.setAttribute('role', 'group');
    quick.setAttribute('aria-label', 'Quick questions');
    const bar = el('div', 'lc-bar');
    const newChat = el('button', 'lc-link', 'New Chat');
    newChat.type = 'button';
    const moreHelp = el('button', 'lc-link', 'More Help');
    moreHelp.type = 'button';
    moreHelp.hidden = true;
    bar.append(newChat, moreHelp);
    const form = el('form', 'lc-form');
    const input = el('input', 'lc-input');
    input.type = 'text';
    input.autocomplete = 'off';
    input.maxLength = 2000;
    input.setAttribute('aria-label', 'Type your message');
    const send = el('button', 'lc-send', 'Send');
    send.type = 'submit';
    form.append(input, send);
    panel.append(head, list, quick, bar, form);
    adoptStyles(root, PANEL_CSS);
    root.append(panel);

    // ---- state ----
    let step: Step = 'initial';
    let messages: ChatMessage[] = [];
    let nextId = 1;
    let pending = false;
    let opened = false;
    let phone = '';
    let verifiedPhone: string | null = null;
    let questions: FaqItem[] = DEFAULT_QUESTIONS;
    let live: LiveChat | null = null;
    let generation = 0;     // bumps on New Chat: late answers of the old conversation are dropped
    const timers = new Set<ReturnType<typeof setTimeout>>();

    const later = (fn: () => void, ms: number) => {
        const timer = setTimeout(() => {
            timers.delete(timer);
            fn();
        }, ms);
        timers.add(timer);
    };
    const emit = (event: TrackEvent) => track(config, sessionId, event);

    const questionsLoaded = api<Array<{ id: number; question: string; answer: string }>>(config, '/api/questions')
        .then((rows) => {
            if (Array.isArray(rows)) {
                questions = rows.map((q) => ({ id: q.id, question: q.question, answer: q.answer }));
            }
        })
        .catch((err) => console.warn('loyalty-chat: using the default questions', err))
        .then(() => render());

    function add(text: string, isUser = false, isError = false): void {
        const message: ChatMessage = { id: nextId++, text, isUser, isError, timestamp: new Date() };
        messages.push(message);
        const bubble = el('div', `lc-msg ${isUser ? 'lc-user' : isError ? 'lc-error' : 'lc-bot'}`, text);
        bubble.setAttribute('data-role', isUser ? 'user' : isError ? 'error' : 'bot');
        list.appendChild(bubble);
        list.scrollTop = list.scrollHeight;
    }

    function setStep(next: Step): void {
        step = next;
        render();
    }

    function setPending(value: boolean): void {
        pending = value;
        render();
        if (!value && !panel.hidden) {
            input.focus();
        }
    }

    function render(): void {
        quick.replaceChildren();
        const showQuick = step === 'questions';
        quick.hidden = !showQuick;
        if (showQuick) {
            for (const q of questions) {
                const chip = el('button', 'lc-chip', q.question);
                chip.type = 'button';
                chip.disabled = pending;
                chip.addEventListener('click', () => chooseQuestion(q));
                quick.appendChild(chip);
            }
        }
        moreHelp.hidden = !(step === 'success' || step === 'code');
        badge.hidden = step !== 'live_chat';
        input.disabled = pending;
        send.disabled = pending;
        input.type = step === 'identifier' ? 'tel' : 'text';
        input.inputMode = step === 'code' ? 'numeric' : step === 'identifier' ? 'tel' : 'text';
        input.placeholder = step === 'identifier' ? 'Enter your phone number'
            : step === 'code' ? 'Enter the 6-digit code'
                : step === 'live_chat' ? 'Message our team...' : 'Type your message...';
        input.setAttribute('aria-label', input.placeholder);
        list.scrollTop = list.scrollHeight;     // the newest message stays in view when the buttons change
    }

    function greet(): void {
        add(TEXT.greeting(config.storeName));
        setStep('questions');
    }

    // ---- flow ----
    function chooseQuestion(q: FaqItem): void {
        if (pending) {
            return;
        }
        add(q.question, true);
        emit({ action: 'question_clicked', questionId: q.id, success: true });
        if (LOYALTY_QUESTION.test(q.question)) {
            add(TEXT.askPhone);
            setStep('identifier');
        }
        else if (LIVE_QUESTION.test(q.question)) {
            void startLiveChat(q.question);
        }
        else {
            add(q.answer);
            const gen = generation;
            setStep('initial');
            later(() => gen === generation && setStep('questions'), 1000);
        }
    }

    async function requestCode(identifier: string): Promise<void> {
        const gen = generation;
        phone = identifier;
        setPending(true);
        try {
            const res = await api<{ message?: string }>(config, '/api/loyalty/verify', { identifier, sessionId });
            if (gen !== generation) return;
            add(TEXT.codeSent);
            emit({ action: 'verification_sent', phoneNumber: identifier, success: true });
            void res;
            setStep('code');
        }
        catch (err) {
            if (gen !== generation) return;
            if (err instanceof ApiError && !unreachable(err)) {
                add(/not found/i.test(err.message) ? TEXT.notFound : TEXT.verifyError(err.message), false, true);
                emit({ action: 'verification_failed', phoneNumber: identifier, success: false, errorMessage: err.message });
            }
            else {
                add(TEXT.verifyNetwork, false, true);
                emit({ action: 'verification_failed', phoneNumber: identifier, success: false, errorMessage: err instanceof ApiError ? err.message : 'network error' });
            }
            setStep('questions');
        }
        finally {
            if (gen === generation) setPending(false);
        }
    }

    async function checkCode(code: string): Promise<void> {
        const gen = generation;
        setPending(true);
        try {
            const res = await api<{ points: number }>(config, '/api/loyalty/view', { identifier: phone, code, sessionId });
            if (gen !== generation) return;
            verifiedPhone = phone;
            add(TEXT.points(Number(res.points) || 0));
            emit({ action: 'points_retrieved', phoneNumber: phone, success: true, pointsRetrieved: Number(res.points) || 0 });
            setStep('success');
        }
        catch (err) {
            if (gen !== generation) return;
            const message = err instanceof ApiError ? err.message : 'network error';
            emit({ action: 'code_verification_failed', phoneNumber: phone, success: false, errorMessage: message });
            if (!(err instanceof ApiError) || unreachable(err)) {
                // The code was not used up: the customer can send it again from the code step.
                add(TEXT.codeNetwork, false, true);
            }
            else if (err.status === 400 && !/new code/i.test(err.message)) {
                // A wrong code stays in the code step so the customer can retry (SPEC §4).
                add(TEXT.wrongCode(err.message.replace(/\.$/, '')), false, true);
            }
            else {
                // Expired, used up or rate limited: retrying this code cannot work.
                add(TEXT.verifyError(err.message), false, true);
                setStep('questions');
            }
        }
        finally {
            if (gen === generation) setPending(false);
        }
    }

    function liveChat(): LiveChat {
        live ??= (options.liveChat ?? createLiveChat)({
            apiOrigin: config.apiOrigin,
            widgetKey: config.key,
            sessionId,
            onMessage: (m) => add(m.message),
            onEnded: () => {
                if (step === 'live_chat') {
                    add(TEXT.liveEnded);
                    setStep('questions');
                }
            }
        });
        return live;
    }

    async function startLiveChat(customerMessage: string): Promise<void> {
        const gen = generation;
        emit({ action: 'live_chat_requested', phoneNumber: verifiedPhone, success: null });
        add(TEXT.liveChecking);
        setPending(true);
        try {
            const chat = liveChat();
            const available = await chat.checkAvailability();
            if (gen !== generation) return;
            if (!available) {
                add(TEXT.liveUnavailable);
                setStep('questions');
                return;
            }
            await chat.start({ phoneNumber: verifiedPhone, customerMessage });
            if (gen !== generation) return;
            add(TEXT.liveWaiting);
            setStep('live_chat');
            later(() => gen === generation && step === 'live_chat' && add(TEXT.liveConnected), 2000);
        }
        catch (err) {
            if (gen !== generation) return;
            console.warn('loyalty-chat: live chat failed', err);
            add(TEXT.liveError, false, true);
            setStep('questions');
        }
        finally {
            if (gen === generation) setPending(false);
        }
    }

    function submit(): void {
        const text = input.value.trim();
        if (!text || pending) {
            return;     // blank text is ignored
        }
        input.value = '';
        add(text, true);
        if (step === 'live_chat') {
            live?.send(text);
            return;
        }
        if (step === 'identifier') {
            void requestCode(text);
            return;
        }
        if (step === 'code') {
            void checkCode(text.replace(/\s+/g, ''));
            return;
        }
        if (LIVE_WORDS.test(text)) {
            void startLiveChat(text);
            return;
        }
        const match = questions.find((q) => q.question.toLowerCase() === text.toLowerCase());
        if (match && LOYALTY_QUESTION.test(match.question)) {
            add(TEXT.askPhone);
            setStep('identifier');
        }
        else if (LOYALTY_QUESTION.test(text)) {
            add(TEXT.askPhone);
            setStep('identifier');
        }
        else {
            add(match ? match.answer : TEXT.fallback);
            if (step !== 'questions') {
                setStep('questions');
            }
        }
    }

    function startNewChat(): void {
        generation++;
        timers.forEach(clearTimeout);
        timers.clear();
        if (live && step === 'live_chat') {
            live.end().catch(() => undefined);
        }
        messages = [];
        list.replaceChildren();
        phone = '';
        input.value = '';
        pending = false;
        setStep('initial');
        const gen = generation;
        later(() => gen === generation && greet(), 500);
        input.focus();
    }

    // ---- events ----
    form.addEventListener('submit', (event) => {
        event.preventDefault();
        submit();
    });
    newChat.addEventListener('click', startNewChat);
    moreHelp.addEventListener('click', () => {
        add(TEXT.moreHelp);
        setStep('questions');
    });
    closeButton.addEventListener('click', () => controller.close());
    panel.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') {
            event.stopPropagation();
            controller.close();
        }
    });

    const controller: PanelController = {
        open() {
            if (!panel.hidden) return;
            panel.hidden = false;
            options.onToggle(true);
            emit({ action: 'widget_opened', success: true });
            if (!opened) {
                opened = true;
                void questionsLoaded.then(() => {
                    if (step === 'initial' && !messages.length) greet();
                });
            }
            input.focus();
        },
        close() {
            if (panel.hidden) return;
            panel.hidden = true;
            options.onToggle(false);
        },
        toggle() {
            if (panel.hidden) this.open();
            else this.close();
        }
    };
    render();
    return controller;
}

/** For tests and debugging: the current message list is internal; the DOM is the interface. */
export type { FaqItem };

/** The chat panel's styles (here, not in styles.ts, which the loader shares: they load with the panel). */
export const PANEL_CSS = `
.lc-panel{position:fixed;right:20px;bottom:88px;width:370px;height:560px;max-height:calc(100vh - 110px);
  display:flex;flex-direction:column;background:#fff;color:#111827;border-radius:14px;overflow:hidden;
  box-shadow:0 12px 40px rgba(0,0,0,.28);z-index:2147483000;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  text-align:left;letter-spacing:normal}
.lc-panel[hidden]{display:none}
.lc-panel *{box-sizing:border-box;font:inherit}
.lc-head{display:flex;align-items:center;gap:8px;padding:12px 14px;background:#2563eb;color:#fff}
.lc-title{font-weight:600;font-size:15px;margin:0;flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.lc-badge{background:#16a34a;color:#fff;border-radius:999px;padding:2px 8px;font-size:11px;font-weight:600;white-space:nowrap}
.lc-badge[hidden]{display:none}
.lc-x{background:transparent;border:0;color:#fff;cursor:pointer;font-size:20px;line-height:1;padding:2px 6px;border-radius:6px}
.lc-x:focus-visible,.lc-panel button:focus-visible,.lc-input:focus-visible{outline:2px solid #93c5fd;outline-offset:1px}
.lc-msgs{flex:1;min-height:96px;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px;background:#f9fafb}
.lc-msg{max-width:85%;padding:8px 11px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere}
.lc-bot{align-self:flex-start;background:#fff;border:1px solid #e5e7eb}
.lc-user{align-self:flex-end;background:#2563eb;color:#fff}
.lc-error{align-self:flex-start;background:#fef2f2;border:1px solid #fecaca;color:#dc2626}
.lc-quick{display:flex;flex-wrap:wrap;gap:6px;padding:8px 14px 2px;background:#f9fafb;max-height:40%;overflow-y:auto;flex-shrink:0}
.lc-quick[hidden]{display:none}
.lc-chip{border:1px solid #bfdbfe;background:#eff6ff;color:#1d4ed8;border-radius:999px;padding:5px 10px;cursor:pointer;font-size:13px;text-align:left}
.lc-chip:hover{background:#dbeafe}
.lc-chip:disabled{opacity:.5;cursor:default}
.lc-bar{display:flex;gap:8px;padding:8px 14px;background:#f9fafb;border-top:1px solid #f3f4f6}
.lc-link{background:none;border:1px solid #d1d5db;border-radius:6px;padding:4px 10px;cursor:pointer;color:#374151;font-size:12px}
.lc-link[hidden]{display:none}
.lc-form{display:flex;gap:8px;padding:10px 14px;border-top:1px solid #e5e7eb;background:#fff}
.lc-input{flex:1;min-width:0;border:1px solid #d1d5db;border-radius:8px;padding:8px 10px;font-size:16px;color:#111827;background:#fff}
.lc-input:disabled{background:#f3f4f6}
.lc-send{border:0;border-radius:8px;background:#2563eb;color:#fff;padding:0 14px;cursor:pointer;font-weight:600}
.lc-send:disabled{opacity:.5;cursor:default}
.lc-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:480px){
  .lc-panel{right:0;bottom:0;left:0;top:0;width:100%;height:100%;max-height:none;border-radius:0}
}
`;
