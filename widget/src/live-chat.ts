/**
 * The seam between the widget's chat flow (widget/src/app.ts, customer widget issue) and live chat
 * (livechat issue). The flow calls only this interface; the live chat issue implements it (nes
 * WebSocket on /ws, resume after a drop, unsent messages kept until stored).
 *
 * This stub answers 'unavailable', so the flow shows SPEC §8's unavailable text until live chat lands.
 */
export interface LiveChatOptions {
    /** e.g. 'https://chat.example.com' — where /api and /ws live. */
    apiOrigin: string;
    /** The bot instance's public key (X-Widget-Key). */
    widgetKey: string;
    /** The widget session id (SPEC §3). */
    sessionId: string;
    /** An agent (or system) message to show as incoming. */
    onMessage(message: { sender: 'agent' | 'system'; message: string; timestamp: string }): void;
    /** The session ended (by the agent, the customer or the system); reason as the server gives it. */
    onEnded(reason: string): void;
    /** Connection state changes, for a subtle indicator. */
    onStatus?(status: 'connecting' | 'connected' | 'reconnecting' | 'closed'): void;
}

export interface LiveChat {
    /** POST /api/chat/check-availability: true when an agent of this store is connected and Available. Throws on network failure. */
    checkAvailability(): Promise<boolean>;
    /** POST /api/chat/create-session, then connect and send customer_connect. Throws on failure. */
    start(details: { phoneNumber: string | null; customerMessage: string }): Promise<void>;
    /** Sends a typed customer message; kept and retried until the server has stored it. */
    send(text: string): void;
    /** The customer leaves (New Chat or closing): ends the session. */
    end(): Promise<void>;
}

export function createLiveChat(_options: LiveChatOptions): LiveChat {
    return {
        async checkAvailability() {
            return false;
        },
        async start() {
            throw new Error('Live chat is not available');
        },
        send() {},
        async end() {}
    };
}
