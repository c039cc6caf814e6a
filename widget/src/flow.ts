/**
 * The widget's whole conversation as ONE reducer over the spec's steps (SPEC §4; issue 11): initial, questions,
 * identifier, code, success, live_chat, and ai (the AI agent, when the store has it). Everything the panel shows
 * comes from this state, and the state is saved in sessionStorage per store (persist.ts), so a reload or the
 * next page of the same shop continues the conversation. `new_chat` returns a fresh state: nothing of the
 * previous customer (phone, live session, messages) survives it. Pure: no DOM, no timers, no fetch.
 */

import type { AiSuggestion } from '../../core/types/api';

export type Step = 'initial' | 'questions' | 'identifier' | 'code' | 'success' | 'live_chat' | 'ai';

export type Sender = 'user' | 'bot' | 'error' | 'agent' | 'system';

export interface Message {
    id: number;
    text: string;
    from: Sender;
    /** ms since epoch */
    time: number;
    /** An agent message: the agent's first name. */
    author?: string;
    /** Photos and files sent with it (issue 29). */
    files?: Array<{ id: string; name: string; mime: string }>;
}

export interface LiveState {
    /** The chat session (server id) once create-session answered. */
    chatId: string | null;
    /** Its customer token (4 h), to reconnect after a reload. */
    token: string | null;
    /** The last message sequence number shown: after a reload, everything after it is fetched. */
    lastSeq: number;
    /** An agent accepted the chat. */
    agentJoined: boolean;
}

export interface FlowState {
    /** The widget session id (SPEC §3); New Chat makes a new one. */
    sessionId: string;
    step: Step;
    messages: Message[];
    nextId: number;
    /** The phone being verified (identifier → code steps). */
    phone: string | null;
    /** The phone proved with a code in THIS conversation, or null. */
    verifiedPhone: string | null;
    /** A request is in flight: inputs are disabled. */
    pending: boolean;
    open: boolean;
    /** Messages that arrived while the panel was closed (the launcher's badge). */
    unread: number;
    live: LiveState | null;
    agentTyping: boolean;
    /** The AI question to ask again once the phone is verified (fallbackAction 'verify_phone'). */
    reask: string | null;
    /** The AI answer awaiting feedback (historyId), if any; gone once the customer moves on or a person takes over. */
    feedbackFor: number | null;
    /**
     * In the code step, after "I didn't get a code": the resend chip is shown. 'person': the AI agent did not know and
     * asks whether to hand over (issue 30): "Talk to a person" and "No, thanks" are shown, nothing is handed over yet.
     */
    offer: 'resend' | 'person' | null;
    /** With offer 'person': the question a person would take over. */
    handOff?: string | null;
    /** The AI agent did not know (issue 30): the store's closest entries, offered as chips while the questions show. */
    suggestions?: AiSuggestion[];
    /**
     * The customer's token (DESIGN §10; issue 25): from the SMS code check (it then names the verified phone, which
     * the AI agent's tier-2 answers need) or create-session's renewal; sent as `Authorization: Bearer` on every widget
     * call. Kept with the conversation (a reload keeps it); New Chat forgets it.
     */
    token: string | null;
    /** The customer's language (issue 27), kept with the conversation: a reload or the next page keeps it. */
    lang?: string;
}

export type Action =
    | { type: 'open' }
    | { type: 'close' }
    | { type: 'say'; text: string; from: Sender; time: number; author?: string; files?: Message['files'] }
    | { type: 'step'; step: Step }
    | { type: 'pending'; pending: boolean }
    | { type: 'code_sent'; phone: string }
    | { type: 'verified'; phone: string }
    | { type: 'live_started'; chatId: string; token: string; lastSeq: number }
    | { type: 'live_seq'; seq: number }
    | { type: 'agent_joined' }
    | { type: 'agent_typing'; typing: boolean }
    | { type: 'live_ended' }
    | { type: 'reask'; question: string | null }
    | { type: 'feedback_for'; historyId: number | null }
    | { type: 'offer'; offer: 'resend' | 'person' | null; question?: string }
    | { type: 'suggest'; suggestions?: AiSuggestion[] }
    | { type: 'token'; token: string | null }
    | { type: 'new_chat'; sessionId: string }
    | { type: 'lang'; lang: string };

/** A message to show now (an action creator: the reducer stays pure). */
export function said(text: string, from: Sender = 'bot', author?: string, files?: Message['files']): Action {
    return { type: 'say', text, from, time: Date.now(), author, files };
}

/** The longest conversation kept (the oldest messages go first). */
export const MAX_MESSAGES = 200;

export function initialState(sessionId: string, open = false): FlowState {
    return {
        sessionId,
        step: 'initial',
        messages: [],
        nextId: 1,
        phone: null,
        verifiedPhone: null,
        pending: false,
        open,
        unread: 0,
        live: null,
        agentTyping: false,
        reask: null,
        feedbackFor: null,
        offer: null,
        token: null
    };
}

export function reduce(state: FlowState, action: Action): FlowState {
    switch (action.type) {
        case 'open':
            return { ...state, open: true, unread: 0 };
        case 'close':
            return { ...state, open: false };
        case 'say': {
            const message: Message = { id: state.nextId, text: action.text, from: action.from, time: action.time };
            if (action.author) {
                message.author = action.author;
            }
            if (action.files?.length) {
                message.files = action.files;
            }
            const incoming = action.from === 'agent' || action.from === 'system';
            return {
                ...state,
                messages: [...state.messages, message].slice(-MAX_MESSAGES),
                nextId: state.nextId + 1,
                unread: !state.open && incoming ? state.unread + 1 : state.unread,
                agentTyping: action.from === 'agent' ? false : state.agentTyping,
                // The customer moved on: the question whether the last AI answer helped is gone.
                feedbackFor: action.from === 'user' ? null : state.feedbackFor
            };
        }
        case 'step':
            return {
                ...state,
                step: action.step,
                agentTyping: action.step === 'live_chat' ? state.agentTyping : false,
                offer: action.step === 'code' ? state.offer : null,
                suggestions: action.step === 'questions' ? state.suggestions : undefined,
                // A person took over (issue 23): the AI's "Yes, thanks / No, I need more help" go.
                feedbackFor: action.step === 'live_chat' ? null : state.feedbackFor
            };
        case 'pending':
            return { ...state, pending: action.pending };
        case 'code_sent':
            return { ...state, phone: action.phone, step: 'code', offer: null };
        case 'verified':
            return { ...state, verifiedPhone: action.phone, phone: action.phone };
        case 'token':
            return { ...state, token: action.token };
        case 'live_started':
            // create-session renewed the customer's one token (keeping its phone): it is the token from now on.
            return { ...state, token: action.token, step: 'live_chat', feedbackFor: null, offer: null, live: { chatId: action.chatId, token: action.token, lastSeq: Math.max(action.lastSeq, state.live?.chatId === action.chatId ? state.live.lastSeq : 0), agentJoined: state.live?.chatId === action.chatId && state.live.agentJoined } };
        case 'live_seq':
            return state.live && action.seq > state.live.lastSeq ? { ...state, live: { ...state.live, lastSeq: action.seq } } : state;
        case 'agent_joined':
            return state.live ? { ...state, live: { ...state.live, agentJoined: true } } : state;
        case 'agent_typing':
            return { ...state, agentTyping: action.typing && state.step === 'live_chat' };
        case 'live_ended':
            return { ...state, live: null, agentTyping: false, step: state.step === 'live_chat' ? 'questions' : state.step };
        case 'reask':
            return { ...state, reask: action.question };
        case 'feedback_for':
            return { ...state, feedbackFor: action.historyId };
        case 'suggest':
            return { ...state, suggestions: action.suggestions };
        case 'offer':
            return { ...state, offer: action.offer, handOff: action.offer === 'person' ? action.question ?? null : null };
        case 'lang':
            return { ...state, lang: action.lang };
        case 'new_chat':
            // Everything of the previous conversation goes: only whether the panel is open, and its language, stay.
            return state.lang ? { ...initialState(action.sessionId, state.open), lang: state.lang } : initialState(action.sessionId, state.open);
        default:
            return state;
    }
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A fresh widget session id (SPEC §3 format: widget_<ms>_<random>), the random part 16 characters from
 * crypto.getRandomValues (about 80 bits): an id nobody can guess (issue 25; it alone reads no customer data).
 */
export function newSessionId(now = Date.now(), fill: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
    const bytes = fill(new Uint8Array(16));
    return `widget_${now}_${Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('')}`;
}

/** Reads a saved state back; anything that does not look like one gives null (a fresh start). */
export function revive(raw: string | null): FlowState | null {
    if (!raw) {
        return null;
    }
    try {
        const value = JSON.parse(raw) as Partial<FlowState>;
        if (!value || typeof value.sessionId !== 'string' || !Array.isArray(value.messages) || typeof value.step !== 'string') {
            return null;
        }
        const base = initialState(value.sessionId);
        const state = { ...base, ...value, pending: false, agentTyping: false } as FlowState;
        // A request cannot survive a reload: never come back disabled. A conversation saved in a live chat by an
        // earlier version may still hold the AI's feedback question: a person has taken over, it goes.
        return state.step === 'live_chat' || state.live ? { ...state, feedbackFor: null } : state;
    }
    catch {
        return null;
    }
}
