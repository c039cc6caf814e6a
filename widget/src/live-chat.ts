/**
 * The seam between the widget's chat flow (widget/src/app.ts, customer widget issue) and live chat
 * (livechat issue). The flow calls only this interface; this file implements it over nes on /ws:
 * create-session answers a short-lived customer token, the socket authenticates with it and subscribes to
 * the session; commands are hapi routes reached over the socket; after a drop the client reconnects,
 * fetches every message after the last sequence number it saw, and resends what was not stored yet. A
 * `resync` push (the server's pub/sub recovered from an outage) fetches the same way.
 */
import { Client } from '@hapi/nes/lib/client';
import { pageUrl } from './config';
import type { Availability } from './hours';

/** The customer's place in the queue while waiting (issue 26); null once an agent has the chat. */
export type QueueState = { position: number; typicalWaitSeconds: number | null } | null;

export interface LiveChatOptions {
    /** e.g. 'https://chat.example.com' — where /api and /ws live. */
    apiOrigin: string;
    /** The bot instance's public key (X-Widget-Key). */
    widgetKey: string;
    /**
     * The customer's token the widget holds, if any (the SMS code check's): sent with the widget calls here so that
     * create-session renews that one token, with its verified phone, instead of making a second one.
     */
    customerToken?: () => string | null;
    /** The widget session id (SPEC §3). */
    sessionId: string;
    /** The customer's language (issue 27): kept with the chat, shown to agents; mails to the customer use it. */
    lang?: () => string;
    /** An agent (or system) message to show as incoming. */
    onMessage(message: { sender: 'agent' | 'system'; message: string; timestamp: string; seq?: number; agentName?: string; attachments?: Array<{ id: string; name: string; mime: string }> }): void;
    /** The chat and its customer token once create-session answered (the widget saves them to resume after a reload). */
    onSession?(session: { chatId: string; token: string; lastSeq: number }): void;
    /** The session ended (by the agent, the customer or the system); reason as the server gives it. */
    onEnded(reason: string): void;
    /** The agent is typing (a signal, shown a few seconds). */
    onTyping?(): void;
    /** Waiting: the customer's place in the queue and the typical wait, as the queue moves (null: an agent took it). */
    onQueue?(queue: QueueState): void;
    /** Connection state changes, for a subtle indicator. */
    onStatus?(status: 'connecting' | 'connected' | 'reconnecting' | 'closed'): void;
    /** For tests and non-browser hosts: the fetch to use (default: the global one). */
    fetch?: typeof fetch;
    /** For tests and non-browser hosts: the WebSocket class nes should use (default: the global one). */
    WebSocket?: unknown;
    /** Reconnect delay bounds in ms (default 1000 … 10000). */
    reconnectDelay?: { min: number; max: number };
    /** The texts this module shows, in the customer's language (the panel's catalogue; default: English). */
    texts?: LiveChatTexts;
}

/** The system messages this module writes into the conversation (issue 27: the widget's catalogue). */
export interface LiveChatTexts {
    /** `name`: what the agent's profile says customers call them (issue 23), when the server sent it. */
    agentJoined(name?: string): string;
    /** A colleague took the chat over (issue 26): who the customer is chatting with now. */
    agentChanged?(name?: string): string;
    /** `reason`: the catalogue's text for the server's error code, else the server's message. */
    notSent(reason: string): string;
    /** The catalogue's text for a server error code, if it has one. */
    error?(code: string, args?: Record<string, unknown>): string | undefined;
}

export interface LiveChat {
    /**
     * POST /api/chat/check-availability: available when an agent of this store is connected and Available within its
     * support hours; else why (no_agent, closed) and, closed, when it opens. Throws on network failure.
     */
    checkAvailability(): Promise<Availability>;
    /** POST /api/chat/create-session, then connect and send customer_connect. Throws on failure. */
    start(details: { phoneNumber: string | null; customerMessage: string }): Promise<void>;
    /**
     * Picks an open chat up again after a page reload: connects with the saved token and fetches every message
     * after `lastSeq` (those that arrived while the page was away). An ended chat calls onEnded.
     */
    resume(saved: { chatId: string; token: string; lastSeq: number }): Promise<void>;
    /** Sends a typed customer message; kept and retried until the server has stored it. */
    send(text: string, attachments?: string[]): void;
    /** The customer is typing: tells the agent, at most once per TYPING_EVERY_MS (nothing is stored). */
    typing(): void;
    /** The customer leaves (New Chat or closing): ends the session. */
    end(): Promise<void>;
}

/** How often the widget passes on that the customer is typing (the server drops more frequent ones). */
export const TYPING_EVERY_MS = 2_000;

/** A chat_message or session_ended push, or an entry of GET …/messages. */
interface Push {
    type?: string;
    seq?: number;
    sender?: 'customer' | 'agent' | 'system';
    message?: string;
    timestamp?: string;
    reason?: string;
    agentName?: string;
    attachments?: Array<{ id: string; name: string; mime: string }>;
    /** queue_position (issue 26). */
    position?: number;
    typicalWaitSeconds?: number | null;
}

interface Pending {
    clientMessageId: string;
    text: string;
    /** File ids uploaded for it (issue 29). */
    attachments?: string[];
}

export const AGENT_JOINED_TEXT = 'A support agent has joined the chat.';
/** English, for hosts without the widget's catalogue (Node tests, other clients). */
const ENGLISH: LiveChatTexts = {
    agentJoined: (name) => (name ? `${name} has joined the chat.` : AGENT_JOINED_TEXT),
    agentChanged: (name) => (name ? `You're now chatting with ${name}.` : 'You\'re now chatting with another member of our team.'),
    notSent: (reason) => `Your message could not be sent: ${reason}`
};
/** After a `resync` push, the catch-up fetch happens within this many ms. */
const RESYNC_SPREAD_MS = 2000;

/** A client message id (idempotent sends): random from crypto.getRandomValues, never Math.random. */
function randomId(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(9));
    return 'c' + Date.now().toString(36) + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function storage(): Storage | null {
    try {
        return typeof sessionStorage !== 'undefined' ? sessionStorage : null;
    }
    catch {
        return null;
    }
}

export function createLiveChat(options: LiveChatOptions): LiveChat {
    const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
    const origin = options.apiOrigin.replace(/\/+$/, '');
    const wsUrl = (origin.replace(/^http/, 'ws') + '/ws') as `ws://${string}`;
    const delay = options.reconnectDelay ?? { min: 1000, max: 10000 };
    const texts = options.texts ?? ENGLISH;

    let client: Client | null = null;
    let lastTypingAt = 0;
    let chatId: string | null = null;
    let token: string | null = null;
    let lastSeq = 0;
    let ended = false;
    let flushing = false;
    let online = false;
    let gapSeen = false;
    let starting: { phoneNumber: string | null; customerMessage: string } | null = null;
    const pendingKey = () => `lc-pending:${options.sessionId}`;
    let pending: Pending[] = [];

    const status = (s: 'connecting' | 'connected' | 'reconnecting' | 'closed') => options.onStatus?.(s);

    function savePending(): void {
        try {
            storage()?.setItem(pendingKey(), JSON.stringify(pending));
        }
        catch { /* storage full or blocked: memory still holds them */ }
    }

    function loadPending(): void {
        try {
            const raw = storage()?.getItem(pendingKey());
            pending = raw ? JSON.parse(raw) : [];
        }
        catch {
            pending = [];
        }
    }

    /** A widget call (the key, and the customer's token when there is one), or with `chatToken` a call of the chat's customer. */
    async function post(path: string, body: unknown, chatToken?: string): Promise<Response> {
        const bearerToken = chatToken ?? options.customerToken?.() ?? null;
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (!chatToken) {
            headers['X-Widget-Key'] = options.widgetKey;
        }
        if (bearerToken) {
            headers.Authorization = `Bearer ${bearerToken}`;
        }
        return doFetch(`${origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    }

    function finish(reason: string): void {
        if (ended) {
            return;
        }
        ended = true;
        pending = [];
        savePending();
        options.onEnded(reason);
        const c = client;
        client = null;
        void c?.disconnect();
        status('closed');
    }

    function handle(push: Push): void {
        if (push.type === 'typing') {
            if (push.sender === 'agent') {
                options.onTyping?.();
            }
            return;
        }
        if (push.type === 'resync') {
            // The server's fan-out was interrupted (DESIGN §6): fetch what may have been missed, at a random
            // moment of the next few seconds so that a node's customers do not all ask at once.
            setTimeout(() => void catchUp().then(() => flush()).catch(() => {}), Math.random() * RESYNC_SPREAD_MS);
            return;
        }
        if (push.type === 'session_ended') {
            finish(push.reason ?? 'ended');
            return;
        }
        if (push.type === 'queue_position') {
            if (typeof push.position === 'number') {
                options.onQueue?.({ position: push.position, typicalWaitSeconds: typeof push.typicalWaitSeconds === 'number' ? push.typicalWaitSeconds : null });
            }
            return;
        }
        if (push.type === 'agent_connected') {
            options.onQueue?.(null);
            options.onMessage({ sender: 'system', message: texts.agentJoined(typeof push.agentName === 'string' && push.agentName ? push.agentName : undefined), timestamp: push.timestamp ?? new Date().toISOString() });
            return;
        }
        if (push.type === 'agent_changed') {
            const name = typeof push.agentName === 'string' && push.agentName ? push.agentName : undefined;
            options.onMessage({ sender: 'system', message: (texts.agentChanged ?? ENGLISH.agentChanged!)(name), timestamp: push.timestamp ?? new Date().toISOString() });
            return;
        }
        if (push.type !== undefined && push.type !== 'chat_message') {
            return;
        }
        if (typeof push.seq !== 'number' || push.seq <= lastSeq) {
            return;                 // seen already (a push that raced the catch-up fetch)
        }
        if (push.seq > lastSeq + 1) {
            gapSeen = true;
            void catchUp();         // a gap: fetch in order instead of showing out of order
            return;
        }
        lastSeq = push.seq;
        if (push.sender === 'agent' || push.sender === 'system') {
            options.onMessage({ sender: push.sender, message: String(push.message ?? ''), timestamp: push.timestamp ?? new Date().toISOString(), seq: push.seq,
                ...(push.sender === 'agent' && typeof push.agentName === 'string' ? { agentName: push.agentName } : {}),
                ...(Array.isArray(push.attachments) && push.attachments.length ? { attachments: push.attachments } : {}) });
        }
    }

    let catchingUp: Promise<void> | null = null;
    function catchUp(): Promise<void> {
        if (!catchingUp) {
            catchingUp = (async () => {
                do {
                    gapSeen = false;
                    await fetchMissed();
                } while (gapSeen && !ended);
            })().finally(() => {
                catchingUp = null;
            });
        }
        return catchingUp;
    }

    async function fetchMissed(): Promise<void> {
        if (!client || !chatId) {
            return;
        }
        const res = await client.request({ method: 'GET', path: `/api/chat/session/${encodeURIComponent(chatId)}/messages?after=${lastSeq}` });
        const body = res.payload as { messages: Push[]; status: string; endReason: string | null; queue?: QueueState };
        for (const m of body.messages) {
            handle({ ...m, type: 'chat_message' });
        }
        if (body.status === 'waiting' && body.queue) {
            handle({ type: 'queue_position', ...body.queue });
        }
        if (body.status !== 'waiting' && body.status !== 'agent_connected') {
            finish(body.endReason ?? body.status);
        }
    }

    async function flush(): Promise<void> {
        if (flushing || ended) {
            return;
        }
        flushing = true;
        try {
            while (pending.length && client && chatId && !ended) {
                const next = pending[0];
                try {
                    await client.request({
                        method: 'POST',
                        path: `/api/chat/session/${encodeURIComponent(chatId)}/messages`,
                        payload: { message: next.text, clientMessageId: next.clientMessageId, ...(next.attachments?.length ? { attachments: next.attachments } : {}) }
                    });
                    pending.shift();
                    savePending();
                }
                catch (err) {
                    const code = (err as { statusCode?: number }).statusCode;
                    if (code === 429) {
                        await new Promise((r) => setTimeout(r, 2000));
                        continue;
                    }
                    if (code && code >= 400 && code < 500) {
                        // Refused for good (too long, chat ended…): say so instead of retrying forever.
                        pending.shift();
                        savePending();
                        const data = (err as { data?: { code?: unknown; args?: Record<string, unknown> } }).data;
                        const reason = (typeof data?.code === 'string' ? texts.error?.(data.code, data.args) : undefined)
                            ?? (err as { message?: string }).message ?? 'refused';
                        options.onMessage({ sender: 'system', message: texts.notSent(reason), timestamp: new Date().toISOString() });
                        if (code === 409) {
                            await catchUp().catch(() => {});
                        }
                        continue;
                    }
                    break;          // disconnected or server error: kept, retried after the next connect
                }
            }
        }
        finally {
            flushing = false;
        }
    }

    /** create-session is idempotent for an open chat: it also renews the customer token. */
    async function createSession(): Promise<void> {
        const details = starting ?? { phoneNumber: null, customerMessage: '' };
        const res = await post('/api/chat/create-session', {
            sessionId: options.sessionId, phoneNumber: details.phoneNumber, customerMessage: details.customerMessage, pageUrl: pageUrl(),
            lang: options.lang?.()
        });
        if (!res.ok) {
            throw new Error(`${res.status}: ${await res.text().catch(() => res.statusText)}`);
        }
        const body = await res.json() as { sessionId: string; token: string; lastSeq: number };
        if (chatId === null) {
            lastSeq = body.lastSeq;     // the customer's own first message is already on screen
        }
        chatId = body.sessionId;
        token = body.token;
        options.onSession?.({ chatId, token, lastSeq });
    }

    async function connect(): Promise<void> {
        if (options.WebSocket) {
            (Client as unknown as { WebSocket: unknown }).WebSocket = options.WebSocket;
        }
        const c = new Client(wsUrl);
        client = c;
        c.onConnect = () => {
            if (client !== c || ended) {
                return;
            }
            online = true;
            status('connected');
            void c.message({ type: 'customer_connect', sessionId: chatId }).catch(() => {});
            void catchUp().then(() => flush()).catch(() => {});
        };
        c.onDisconnect = (willReconnect: boolean) => {
            online = false;
            if (client !== c || ended) {
                return;
            }
            status(willReconnect ? 'reconnecting' : 'closed');
            if (!willReconnect) {
                void reconnectWithFreshToken(c);
            }
        };
        c.onError = () => {};
        status('connecting');
        await c.connect({
            auth: { headers: { authorization: `Bearer ${token}` } },
            reconnect: true,
            delay: delay.min,
            maxDelay: delay.max,
            retries: Infinity
        });
        await c.subscribe(`/chat/sessions/${chatId}`, (update: unknown) => handle(update as Push));
    }

    /** The client gave up (e.g. the token expired during a long outage): renew it and start over. */
    async function reconnectWithFreshToken(old: Client): Promise<void> {
        for (let attempt = 0; !ended && client === old; attempt++) {
            await new Promise((r) => setTimeout(r, Math.min(delay.min * 2 ** attempt, delay.max)));
            try {
                await createSession();
                await connect();
                return;
            }
            catch { /* try again */ }
        }
    }

    return {
        async checkAvailability() {
            const res = await post('/api/chat/check-availability', { sessionId: options.sessionId });
            if (!res.ok) {
                return { available: false };
            }
            const body = await res.json().catch(() => ({})) as Partial<Availability>;
            return { ...body, available: body.available !== false };
        },

        async start(details) {
            ended = false;
            starting = details;
            loadPending();
            await createSession();
            await connect();
        },

        async resume(saved) {
            ended = false;
            chatId = saved.chatId;
            token = saved.token;
            lastSeq = saved.lastSeq;
            loadPending();
            await connect();
        },

        typing() {
            const now = Date.now();
            if (!client || ended || now - lastTypingAt < TYPING_EVERY_MS) {
                return;
            }
            lastTypingAt = now;
            void client.message({ type: 'typing' }).catch(() => {});
        },

        send(text: string, attachments?: string[]) {
            const trimmed = text.trim();
            if ((!trimmed && !attachments?.length) || ended) {
                return;
            }
            pending.push({ clientMessageId: randomId(), text: trimmed, ...(attachments?.length ? { attachments } : {}) });
            savePending();
            void flush();
        },

        async end() {
            if (ended || !chatId) {
                return;
            }
            const id = chatId;
            const c = client;
            ended = true;
            pending = [];
            savePending();
            client = null;
            try {
                if (c && online) {
                    await c.request({ method: 'POST', path: `/api/chat/session/${encodeURIComponent(id)}/end`, payload: { reason: 'customer_disconnected' } });
                }
                else if (token) {
                    await post(`/api/chat/session/${encodeURIComponent(id)}/end`, { reason: 'customer_disconnected' }, token);
                }
            }
            finally {
                await c?.disconnect();
                status('closed');
            }
        }
    };
}
