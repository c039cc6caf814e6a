import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { PubSub } from './pubsub';

/** What core/realtime knows of a nes socket (the parts it uses). */
export interface RealtimeSocket {
    id: string;
    app: Record<string, any>;
    auth: { isAuthenticated: boolean; credentials: any; artifacts?: unknown };
    info: { remoteAddress: string };
    disconnect(): Promise<void>;
    send(message: unknown): Promise<void>;
}

/** The Origin and Host headers of the socket's upgrade request (null when the client sent none). */
export function upgradeOf(socket: RealtimeSocket): { origin: string | null; host: string | null } {
    return (socket as any)._ws?.lcUpgrade ?? { origin: null, host: null };
}

export interface RealtimeOptions {
    /** The WebSocket path (DESIGN §6: '/ws'). Other paths are not upgraded. */
    path: string;
    /** hapi auth strategies a socket may authenticate with (in its hello's headers). */
    strategies: string[];
    /** A socket that has not authenticated after this many ms is closed. */
    authTimeoutMs: number;
    /** Largest incoming frame in bytes (nes leaves ws at 100 MiB). Bigger frames close the socket (1009). */
    maxPayload: number;
    /** Incoming frames per second per connection before the socket is closed (1008). */
    maxFramesPerSecond: number;
    /** Called after authentication; throw a Boom to refuse the socket (it is then closed). */
    onConnection?(socket: RealtimeSocket): Promise<void> | void;
    onDisconnection?(socket: RealtimeSocket): void;
    /** Custom messages (nes client.message). */
    onMessage?(socket: RealtimeSocket, message: unknown): Promise<unknown> | unknown;
    heartbeat?: { interval: number; timeout: number };
}

const CHANNEL = 'realtime:publish';
const DEFAULT_HEARTBEAT = { interval: 15000, timeout: 10000 };
/** One slot of the sockets is pinged every this many ms (each socket is in one slot). */
const HEARTBEAT_TICK_MS = 50;

/** One push: to a nes subscription path, or (with route) to a path of a `subscription()` route. */
export interface Push { path: string; message: unknown; route?: string }

/** Whether a socket with these credentials may receive this message. */
export type SubscriptionFilter = (message: any, credentials: any) => boolean;

/**
 * nes on the same host (DESIGN §6) with the limits nes leaves open: a frame limit, a path, an auth
 * timeout, a frame-rate guard, the upgrade request's Origin kept for the connection check, and a bridge
 * over `server.app.pubsub` so a publish on any node reaches the subscribers on every node.
 */
export class Realtime {
    private listener: any = null;
    /** Sockets per exact path of the subscriptions made with `subscription()`. */
    private readonly index = new Map<string, Set<RealtimeSocket>>();
    private readonly filters = new Map<string, SubscriptionFilter>();
    private readonly bridgeListener = (msg: Push | { batch: Push[] }) => {
        for (const push of 'batch' in msg ? msg.batch : [msg]) {
            try {
                if (push.route !== undefined) {
                    this.deliver(push.route, push.path, push.message);
                }
                else {
                    (this.server as any).publish(push.path, push.message);
                }
            }
            catch (err) {
                this.server.app.log.warn({ err, path: push.path }, 'realtime publish failed');
            }
        }
    };

    constructor(private readonly server: Server, private readonly pubsub: PubSub) {}

    async register(options: RealtimeOptions): Promise<void> {
        const server = this.server;
        await server.register({
            plugin: require('@hapi/nes'),
            options: {
                auth: {
                    type: 'direct',
                    route: { strategies: options.strategies },
                    timeout: options.authTimeoutMs,
                    index: false
                },
                heartbeat: options.heartbeat ?? DEFAULT_HEARTBEAT,
                headers: null,
                onConnection: async (socket: RealtimeSocket) => {
                    if (!options.onConnection) {
                        return;
                    }
                    try {
                        await options.onConnection(socket);
                    }
                    catch (err) {
                        // Refused: forget the credentials so nothing else is reachable, answer the hello, then close.
                        socket.auth.isAuthenticated = false;
                        socket.auth.credentials = null;
                        setTimeout(() => void socket.disconnect(), 50);
                        throw Boom.isBoom(err) ? err : Boom.forbidden((err as Error).message);
                    }
                },
                onDisconnection: (socket: RealtimeSocket) => options.onDisconnection?.(socket),
                onMessage: options.onMessage ? (socket: RealtimeSocket, message: unknown) => options.onMessage!(socket, message) : undefined
            }
        });
        this.listener = (server.plugins as any).nes._listener;
        this.staggerHeartbeat(options.heartbeat ?? DEFAULT_HEARTBEAT);
        const wss = this.listener._wss;
        wss.options.maxPayload = options.maxPayload;
        wss.options.path = options.path;
        // Runs after nes made its Socket for this ws (listeners run in order), before any frame is read.
        wss.on('connection', (ws: any, req: any) => {
            ws.lcUpgrade = { origin: req.headers.origin ?? null, host: req.headers.host ?? null };
            let windowStart = Date.now();
            let frames = 0;
            ws.on('message', () => {
                const t = Date.now();
                if (t - windowStart >= 1000) {
                    windowStart = t;
                    frames = 0;
                }
                frames += 1;
                if (frames > options.maxFramesPerSecond) {
                    ws.close(1008, 'Too many messages');
                }
            });
        });

        server.ext('onPreStart', async () => {
            await this.pubsub.subscribe(CHANNEL, this.bridgeListener);
        });
        server.ext('onPreStop', async () => {
            await this.pubsub.unsubscribe(CHANNEL, this.bridgeListener);
        });
        this.pubsub.onResync(() => this.resync());
    }

    /**
     * After pub/sub recovers (DESIGN §6), every socket of this node gets `{ type: 'resync' }` on each path it
     * subscribed (customers on their session, agents on their organization), and fetches what it missed.
     */
    private resync(): void {
        const sockets: Record<string, { _subscriptions: Record<string, unknown>; publish(path: string, message: unknown): Promise<void> }> =
            this.listener?._sockets._items ?? {};
        for (const socket of Object.values(sockets)) {
            for (const path of Object.keys(socket._subscriptions)) {
                socket.publish(path, { type: 'resync' }).catch(() => {});
            }
        }
    }

    /**
     * nes pings every socket at once each interval, and every pong arrives together: with 10,000 sockets
     * that is a second or more of a busy event loop in which chat messages queue (DESIGN §8 p99). Same
     * protocol and rules, spread out: every socket gets a slot, one slot is pinged each tick (so each
     * socket once per interval), and a socket that has not answered or sent anything `timeout` ms after
     * its ping is closed. The timer lives in nes' own `_heartbeat` field, so nes clears it on stop.
     */
    private staggerHeartbeat(heartbeat: { interval: number; timeout: number }): void {
        const listener = this.listener;
        const count = Math.max(1, Math.round(heartbeat.interval / HEARTBEAT_TICK_MS));
        const tick = heartbeat.interval / count;
        const slots = Array.from({ length: count }, () => new Set<any>());
        const checks = new Set<NodeJS.Timeout>();
        let current = 0;
        let next = 0;
        const sockets = listener._sockets;
        const add = sockets.add.bind(sockets);
        const remove = sockets.remove.bind(sockets);
        sockets.add = (socket: any) => {
            add(socket);
            socket.lcSlot = next;
            next = (next + 1) % count;
            slots[socket.lcSlot].add(socket);
        };
        sockets.remove = (socket: any) => {
            remove(socket);
            slots[socket.lcSlot]?.delete(socket);
        };
        listener._beat = () => {
            clearInterval(listener._heartbeat);
            listener._heartbeat = setInterval(() => {
                const slot = slots[current];
                current = (current + 1) % count;
                if (!slot.size) {
                    return;
                }
                const pinged = [...slot];
                for (const socket of pinged) {
                    socket._send({ type: 'ping' }).catch(() => {});
                }
                const check = setTimeout(() => {
                    checks.delete(check);
                    for (const socket of pinged) {
                        if (!slot.has(socket)) {
                            continue;
                        }
                        if (!socket._active()) {
                            void socket.disconnect();
                        }
                        else {
                            socket._pinged = false;
                        }
                    }
                }, heartbeat.timeout);
                checks.add(check);
            }, tick);
        };
        this.server.ext('onPreStop', () => {
            clearInterval(listener._heartbeat);
            checks.forEach((t) => clearTimeout(t));
            checks.clear();
        });
    }

    /**
     * A nes subscription (e.g. '/chat/sessions/{sessionId}') whose pushes are delivered from an index by
     * exact path. nes' own publish walks every subscriber of the route for each message, which is O(n) in
     * connections; this is O(subscribers of that path). The wire protocol is nes' ('pub' to the path).
     */
    subscription(route: string, options: {
        onSubscribe(socket: RealtimeSocket, path: string, params: Record<string, string>): Promise<void> | void;
        filter?: SubscriptionFilter;
    }): void {
        if (options.filter) {
            this.filters.set(route, options.filter);
        }
        (this.server as any).subscription(route, {
            auth: { mode: 'required' },
            onSubscribe: async (socket: RealtimeSocket, path: string, params: Record<string, string>) => {
                await options.onSubscribe(socket, path, params);
                let set = this.index.get(path);
                if (!set) {
                    set = new Set();
                    this.index.set(path, set);
                }
                set.add(socket);
            },
            onUnsubscribe: (socket: RealtimeSocket, path: string) => {
                const set = this.index.get(path);
                if (set) {
                    set.delete(socket);
                    if (!set.size) {
                        this.index.delete(path);
                    }
                }
            }
        });
    }

    private deliver(route: string, path: string, message: unknown): void {
        const set = this.index.get(path);
        if (!set) {
            return;
        }
        const filter = this.filters.get(route);
        for (const socket of set) {
            if (!filter || filter(message, socket.auth.credentials)) {
                (socket as any).publish(path, message).catch(() => {});
            }
        }
    }

    /** Publishes to a subscription path on every node (through pub/sub). */
    async publish(path: string, message: unknown): Promise<void> {
        await this.pubsub.publish(CHANNEL, { path, message });
    }

    /** Several pushes in one pub/sub message (one Redis round trip), delivered in order on every node. */
    async publishAll(pushes: Push[]): Promise<void> {
        await this.pubsub.publish(CHANNEL, { batch: pushes });
    }

    /** Sockets connected to this node. */
    connectionCount(): number {
        return this.listener ? this.listener._sockets.length() : 0;
    }
}
