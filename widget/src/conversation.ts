import type { AiChatAnswer, AiSuggestion, MessageDecision, WidgetStep } from '../../core/types/api';
import { api, ApiError, TrackEvent, WidgetConfig } from './config';
import { Action, FlowState, said } from './flow';
import { Move, moveFor } from './moves';
import { errorText, FaqItem, t, TEXT } from './texts';

/**
 * The bot's side of the conversation (issue 23; SPEC §4 'Widget chat flow'): every typed message goes to the server's
 * one decision (POST /api/widget/message) and the panel carries out the move (moves.ts): the loyalty calls of SPEC §7
 * (/api/loyalty/verify, /api/loyalty/view) with the phone and code the decision found, the AI agent, the quick
 * questions' answers, live chat. Requests made for one conversation never touch the next (New Chat).
 */
export interface ConversationContext {
    config: WidgetConfig;
    /** The latest state (also inside a request that outlived a render). */
    state(): FlowState;
    dispatch(action: Action): void;
    questions(): FaqItem[];
    /** The customer's token (DESIGN §10), sent as `Authorization: Bearer` on every call. */
    token(): string | null;
    /** Keeps a token the code check answered for the conversation `session` (not for a later one). */
    keepToken(session: string, token: string | null): void;
    emit(event: TrackEvent): void;
    /** The customer's language (the decision reads its words). */
    lang(): string;
    /** Asks for a person: availability, then live chat or the leave-a-message form (`offlineText` fills it; none for a chip). */
    live(customerMessage: string, offlineText?: string): Promise<void>;
    /** A message typed in the live chat. */
    send(text: string): void;
    /** Opens the leave-a-message form with `text` (nobody is available; the AI agent did not know). */
    leaveMessage(text: string): void;
}

/** A typed answer to "Would you like to talk to a person?" (English and Spanish, the widget's catalogues). */
const YES = /^\s*(yes|yeah|yep|yup|sure|ok|okay|please|y|s[ií]|vale|claro|por favor)\b/i;
const NO = /^\s*(no|nope|nah|no thanks|not now)\b/i;

const FAQ_RETURN_MS = 1000;

/**
 * The store's loyalty program could not be reached (503, or a 502 carrying the server's connection text: the
 * provider refused the key): SPEC §8's connection texts, not 'Error: …'; the code (if any) is still good.
 */
const unreachable = (err: ApiError) => err.status === 503 || err.status === 504
    || (err.status === 502 && err.code === 'loyalty.provider_unavailable');

export function conversation(ctx: ConversationContext) {
    const { config } = ctx;
    const withToken = () => ({ token: ctx.token() });
    /** Dispatches only while the conversation that started the request is still the current one. */
    const guard = (session = ctx.state().sessionId) => (action: Action) => {
        if (ctx.state().sessionId === session) {
            ctx.dispatch(action);
        }
    };

    /** The step, offered again after a question answered in it or a greeting. */
    function again(d: (a: Action) => void): void {
        const step = ctx.state().step;
        if (step === 'identifier' || step === 'code') {
            d(said(t(step === 'identifier' ? 'stepAgainPhone' : 'stepAgainCode')));
        }
    }

    async function requestCode(phone: string, resend = false): Promise<void> {
        const sid = ctx.state().sessionId;
        const d = guard(sid);
        d({ type: 'pending', pending: true });
        try {
            const res = await api<{ ok?: boolean; reason?: string; message?: string }>(config, '/api/loyalty/verify', { identifier: phone, sessionId: sid, lang: ctx.lang() }, withToken());
            if (res && res.ok === false) {
                d(said(TEXT.notFound, 'error'));
                ctx.emit({ action: 'verification_failed', phoneNumber: phone, success: false, errorMessage: res.message ?? res.reason ?? null });
                d({ type: 'step', step: 'questions' });
                return;
            }
            d(said(TEXT.codeSent));
            ctx.emit({ action: 'verification_sent', phoneNumber: phone, success: true });
            d({ type: 'code_sent', phone });
        }
        catch (err) {
            const message = err instanceof ApiError ? err.message : 'network error';
            d(said(err instanceof ApiError && !unreachable(err) ? TEXT.verifyError(errorText(err)) : TEXT.verifyNetwork, 'error'));
            ctx.emit({ action: 'verification_failed', phoneNumber: phone, success: false, errorMessage: message });
            // A failed send returns to the questions (SPEC §4); a failed resend keeps the code already sent.
            d(resend ? { type: 'offer', offer: null } : { type: 'step', step: 'questions' });
        }
        finally {
            d({ type: 'pending', pending: false });
        }
    }

    async function checkCode(code: string): Promise<void> {
        const sid = ctx.state().sessionId;
        const d = guard(sid);
        const phone = ctx.state().phone ?? '';
        d({ type: 'pending', pending: true });
        try {
            const res = await api<{ ok?: boolean; reason?: string; code?: string; message?: string; points?: number; token?: string }>(config, '/api/loyalty/view',
                { identifier: phone, code, sessionId: sid }, withToken());
            if (res && res.ok === false) {
                const message = res.message ?? 'Invalid verification code';
                ctx.emit({ action: 'code_verification_failed', phoneNumber: phone, success: false, errorMessage: message });
                if (res.reason === 'invalid_code') {
                    d(said(TEXT.wrongCode(errorText({ code: res.code, message }).replace(/\.$/, '')), 'error'));
                }
                else {
                    d(said(TEXT.notFound, 'error'));
                    d({ type: 'step', step: 'questions' });
                }
                return;
            }
            const points = Number(res.points) || 0;
            if (typeof res.token === 'string') {
                // The token now names the verified phone: the AI agent's points and orders need it.
                ctx.keepToken(sid, res.token);
            }
            d({ type: 'verified', phone });
            d(said(TEXT.points(points)));
            ctx.emit({ action: 'points_retrieved', phoneNumber: phone, success: true, pointsRetrieved: points });
            d({ type: 'step', step: 'success' });
            const reask = ctx.state().reask;
            if (reask && config.aiEnabled && ctx.state().sessionId === sid) {
                // The AI asked for the phone first (fallbackAction 'verify_phone'): now the question again.
                d({ type: 'reask', question: null });
                await askAi(reask, false);
            }
        }
        catch (err) {
            const message = err instanceof ApiError ? err.message : 'network error';
            ctx.emit({ action: 'code_verification_failed', phoneNumber: phone, success: false, errorMessage: message });
            if (!(err instanceof ApiError) || unreachable(err)) {
                // The code was not used up: the customer can send it again from the code step.
                d(said(TEXT.codeNetwork, 'error'));
            }
            else {
                // Expired, used up or rate limited: retrying this code cannot work.
                d(said(TEXT.verifyError(errorText(err)), 'error'));
                d({ type: 'step', step: 'questions' });
            }
        }
        finally {
            d({ type: 'pending', pending: false });
        }
    }

    /**
     * The AI agent (the store has it on). `stay`: asked inside the phone or code step, which is offered again after.
     * `pick`: a suggestion's key (the question is its title), answered from that entry.
     */
    async function askAi(question: string, stay: boolean, pick?: string): Promise<void> {
        const sid = ctx.state().sessionId;
        const d = guard(sid);
        if (!stay) {
            d({ type: 'step', step: 'ai' });
        }
        d({ type: 'feedback_for', historyId: null });
        d({ type: 'pending', pending: true });
        let fallback: AiChatAnswer['fallbackAction'] = null;
        let leave = false;
        try {
            const res = await api<AiChatAnswer>(config, '/api/ai/chat', { sessionId: sid, message: question, lang: ctx.lang(), pick }, withToken());
            const sources = (res.sources ?? []).map((x) => x.title).filter(Boolean);
            // A coded answer (the store's AI budget is spent: 'ai.budget_reached') in the customer's language.
            const answer = res.code ? errorText({ code: res.code, message: res.answer }) : res.answer;
            d(said(sources.length ? `${answer}\n\n${t('aiSources', { titles: sources.join(', ') })}` : answer));
            fallback = res.fallbackAction;
            if (fallback === 'verify_phone') {
                d({ type: 'reask', question });
                d(said(TEXT.askPhone));
                d({ type: 'step', step: 'identifier' });
            }
            else if (fallback === 'offer_live_chat') {
                // Ask before handing over (issue 30): the chips say it, the questions stay below; a person only on yes.
                d({ type: 'step', step: 'questions' });
                d({ type: 'offer', offer: 'person', question });
            }
            else if (fallback === 'leave_message') {
                d({ type: 'step', step: 'questions' });
                leave = true;
            }
            else if (stay && fallback !== 'live_chat') {
                again(d);
            }
            else if (fallback === 'questions') {
                d({ type: 'step', step: 'questions' });
            }
            else if (fallback !== 'live_chat' && typeof res.historyId === 'number') {
                d({ type: 'feedback_for', historyId: res.historyId });
            }
            // Not knowing (issue 30): the store's closest entries (sent only then), as chips above the questions.
            d({ type: 'suggest', suggestions: res.suggestions });
        }
        catch (err) {
            d(said(err instanceof ApiError ? TEXT.verifyError(errorText(err)) : TEXT.fallback, 'error'));
            if (stay) {
                again(d);
            }
            else {
                d({ type: 'step', step: 'questions' });
            }
        }
        finally {
            d({ type: 'pending', pending: false });
        }
        if (fallback === 'live_chat' && ctx.state().sessionId === sid) {
            await ctx.live(question);
        }
        if (leave && ctx.state().sessionId === sid) {
            ctx.leaveMessage(question);
        }
    }

    /** The answer to the AI agent's offer of a person: yes hands over with the question, no leaves the questions. */
    async function person(yes: boolean): Promise<void> {
        const d = guard();
        const question = ctx.state().handOff ?? '';
        d({ type: 'offer', offer: null });
        if (yes) {
            await ctx.live(question, question);
        }
        else {
            d(said(TEXT.moreHelp));
        }
    }

    /** A quick question's answer; back to the questions after a second (SPEC §4), or the step offered again. */
    function answer(q: FaqItem, stay: boolean): void {
        const d = guard();
        d(said(q.answer));
        if (stay) {
            again(d);
            return;
        }
        d({ type: 'step', step: 'initial' });
        setTimeout(() => {
            if (ctx.state().step === 'initial') {
                d({ type: 'step', step: 'questions' });
            }
        }, FAQ_RETURN_MS);
    }

    function askPhone(d: (a: Action) => void): void {
        d(said(TEXT.askPhone));
        d({ type: 'step', step: 'identifier' });
    }

    async function run(move: Move): Promise<void> {
        const d = guard();
        const state = ctx.state();
        switch (move.type) {
            case 'send_code':
                return requestCode(move.phone);
            case 'check_code':
                return checkCode(move.code);
            case 'offer_resend':
                d(said(t('resendOffer', { last4: (state.phone ?? '').slice(-4) })));
                d({ type: 'offer', offer: 'resend' });
                return;
            case 'live':
                // A bare request for a person ("agent", "talk to a human") is not the message to leave: the form then
                // starts empty; a request with more to it ("a person about my refund for order 1234") is kept.
                return ctx.live(move.message, move.message.trim().split(/\s+/).length > 4 ? move.message : '');
            case 'ask_ai':
                return askAi(move.question, move.stay);
            case 'answer': {
                const q = ctx.questions().find((x) => x.id === move.questionId);
                if (q) {
                    answer(q, move.stay);
                }
                return;
            }
            case 'ask_phone':
                return askPhone(d);
            case 'again':
                if (move.fallback) {
                    d(said(TEXT.fallback));
                }
                return again(d);
            case 'reply':
                d(said(move.text === 'greetingReply' ? t('greetingReply') : move.text === 'moreHelp' ? TEXT.moreHelp : TEXT.fallback));
                d({ type: 'step', step: 'questions' });
                return;
            case 'not_input':
                // ONE error line, in the SPEC §8 forms ('Error: …'), and the step stays (Cancel leaves it).
                d(said(move.expected === 'phone'
                    ? TEXT.verifyError(errorText({ code: 'loyalty.invalid_phone', message: 'Please enter a valid phone number' }))
                    : TEXT.wrongCode(errorText({ code: 'loyalty.code_format', message: 'The code must be 6 digits' }).replace(/\.$/, '')), 'error'));
                return;
        }
    }

    return {
        /** A typed message: to the agent in a live chat, else through the decision. */
        async submit(text: string): Promise<void> {
            const state = ctx.state();
            ctx.dispatch(said(text, 'user'));
            if (state.step === 'live_chat') {
                ctx.send(text);
                return;
            }
            if (state.offer === 'person' && (YES.test(text) || NO.test(text))) {
                return person(YES.test(text));
            }
            const sid = state.sessionId;
            const d = guard(sid);
            d({ type: 'pending', pending: true });
            try {
                let decision: MessageDecision;
                try {
                    decision = await api<MessageDecision>(config, '/api/widget/message',
                        { sessionId: sid, step: state.step as WidgetStep, text, lang: ctx.lang() }, withToken());
                }
                catch (err) {
                    d(said(err instanceof ApiError ? TEXT.verifyError(errorText(err)) : TEXT.verifyNetwork, 'error'));
                    return;
                }
                if (ctx.state().sessionId === sid) {
                    await run(moveFor(ctx.state(), decision, text, { aiEnabled: !!config.aiEnabled, questions: ctx.questions() }));
                }
            }
            finally {
                d({ type: 'pending', pending: false });
            }
        },

        /** A quick question chosen: its kind decides (issue 11). */
        choose(q: FaqItem): void {
            const d = guard();
            d(said(q.question, 'user'));
            ctx.emit({ action: 'question_clicked', questionId: q.id, success: true });
            if (q.kind === 'loyalty_check') {
                askPhone(d);
            }
            else if (q.kind === 'live_support') {
                void ctx.live(q.question, '');
            }
            else {
                answer(q, false);
            }
        },

        /** A suggestion chip (the AI agent did not know): its title asked, answered from that entry. */
        pick(s: AiSuggestion): Promise<void> {
            guard()(said(s.title, 'user'));
            return askAi(s.title, false, s.key);
        },

        /** The Cancel chip of the phone and code steps. */
        cancel(): void {
            const d = guard();
            d(said(t('cancelChip'), 'user'));
            d(said(TEXT.moreHelp));
            d({ type: 'step', step: 'questions' });
        },

        /** The Send a new code chip (the loyalty limits still apply: at most 5 codes per phone in 10 minutes). */
        resend(): Promise<void> {
            guard()(said(t('resendChip'), 'user'));
            return requestCode(ctx.state().phone ?? '', true);
        },

        /** The "Talk to a person" and "No, thanks" chips of the AI agent's offer. */
        person(yes: boolean): Promise<void> {
            guard()(said(t(yes ? 'aiTalkToPerson' : 'aiNoThanks'), 'user'));
            return person(yes);
        },

        /** More Help: back to the questions. */
        moreHelp(): void {
            const d = guard();
            d(said(TEXT.moreHelp));
            d({ type: 'step', step: 'questions' });
        },

        /** "Yes, thanks" / "No, I need more help" after an AI answer. */
        feedback(resolved: boolean): void {
            const state = ctx.state();
            const historyId = state.feedbackFor;
            const d = guard();
            d({ type: 'feedback_for', historyId: null });
            if (historyId !== null) {
                api(config, '/api/ai/feedback', { sessionId: state.sessionId, historyId, resolved }, withToken())
                    .catch((err) => console.warn('loyalty-chat: feedback not recorded', err));
            }
            d(said(resolved ? TEXT.moreHelp : TEXT.aiNotResolved));
            d({ type: 'step', step: 'questions' });
        }
    };
}
