import { Client } from '@hapi/nes/lib/client';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'lost' | 'closed';

export interface AgentPush {
    type: 'new_customer' | 'ai_transfer' | 'ai_transfer_request' | 'session_accepted' | 'session_ended' | 'chat_message' | 'agent_availability' | string;
    sessionId?: string;
    [key: string]: unknown;
}

/** SPEC §4 'Agent websocket' / §9: heartbeat every 30 s; up to 5 reconnects after min(1000·2^n, 10000) ms (2 … 10 s). */
export const HEARTBEAT_MS = 30_000;
export const MAX_RECONNECTS = 5;
export function reconnectDelay(attempt: number): number {
    return Math.min(1000 * 2 ** attempt, 10_000);
}

/**
 * The agent's socket: nes on /ws of this host (wss on https), authenticated with the admin token,
 * subscribed to the organization's feed. Commands (accept, send, end) are requests over it.
 */
export class AgentSocket {
    private client: Client | null = null;
    private heartbeat: ReturnType<typeof setInterval> | null = null;
    private retryTimer: ReturnType<typeof setTimeout> | null = null;
    private attempt = 0;
    private closed = false;

    constructor(private readonly options: {
        token: string;
        organizationId: number;
        onPush(push: AgentPush): void;
        onState(state: ConnectionState, attempt: number): void;
        /** Called after every (re)connect: refetch what may have been missed. */
        onConnected(): void;
        /** The server's pub/sub recovered from an outage (a `resync` push): refetch what may have been missed. */
        onResync(): void;
    }) {}

    get isOpen(): boolean {
        return !!this.client && !!this.client.id && this.state === 'connected';
    }

    private state: ConnectionState = 'connecting';

    private setState(state: ConnectionState): void {
        this.state = state;
        this.options.onState(state, this.attempt);
    }

    start(): void {
        this.closed = false;
        void this.open();
    }

    private async open(): Promise<void> {
        const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
        const client = new Client(`${scheme}://${location.host}/ws` as `ws://${string}`);
        this.client = client;
        this.setState(this.attempt ? 'reconnecting' : 'connecting');
        client.onError = () => {};
        client.onDisconnect = (willReconnect, log) => {
            if (this.client !== client || this.closed) {
                return;
            }
            this.stopHeartbeat();
            if (!willReconnect && log.code !== 1000) {
                this.scheduleReconnect();
            }
            else if (!willReconnect) {
                this.setState('closed');
            }
        };
        try {
            await client.connect({ auth: { headers: { authorization: `Bearer ${this.options.token}` } }, reconnect: false, timeout: 10_000 });
            await client.subscribe(`/agents/${this.options.organizationId}`, (update) => {
                if ((update as AgentPush | null)?.type === 'resync') {
                    this.options.onResync();
                    return;
                }
                this.options.onPush(update as AgentPush);
            });
            await client.message({ type: 'agent_connect' });
        }
        catch {
            if (this.client === client && !this.closed) {
                void client.disconnect();
                this.scheduleReconnect();
            }
            return;
        }
        this.attempt = 0;
        this.setState('connected');
        this.heartbeat = setInterval(() => {
            client.message({ type: 'ping' }).catch(() => {});
        }, HEARTBEAT_MS);
        this.options.onConnected();
    }

    private scheduleReconnect(): void {
        if (this.attempt >= MAX_RECONNECTS) {
            this.setState('lost');
            return;
        }
        this.attempt += 1;
        this.setState('reconnecting');
        this.retryTimer = setTimeout(() => void this.open(), reconnectDelay(this.attempt));
    }

    private stopHeartbeat(): void {
        if (this.heartbeat) {
            clearInterval(this.heartbeat);
            this.heartbeat = null;
        }
    }

    /** Tells the customer of a chat that the agent is typing (a signal the server passes on at most every 2 s, never stored). */
    typing(sessionId: string): void {
        if (this.client && this.state === 'connected') {
            this.client.message({ type: 'typing', sessionId }).catch(() => {});
        }
    }

    /** A command over the socket (SPEC §5: accepting, sending and ending need an open socket). */
    async request<T>(method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown): Promise<T> {
        if (!this.client || this.state !== 'connected') {
            throw new Error('Not connected to the chat server');
        }
        const res = await this.client.request({ method, path, payload });
        return res.payload as T;
    }

    stop(): void {
        this.closed = true;
        this.stopHeartbeat();
        if (this.retryTimer) {
            clearTimeout(this.retryTimer);
        }
        void this.client?.disconnect();
        this.client = null;
    }
}
