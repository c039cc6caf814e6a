import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import type { PubSub, PubSubStats } from './pubsub';
import type { Caller } from '../types/auth';
import { clientAddress } from '../http/client-ip';
import {
    assertNesInternals, closeSocket, hardenSockets, limitConnections, listenerOf, RealtimeSocket, refuseFurther,
    socketCount, spreadHeartbeat, subscriptionsOf, upgradeOf
} from './nes-adapter';

export type { RealtimeSocket };
export { upgradeOf };

export interface RealtimeOptions {
    /** The WebSocket path (DESIGN §6: '/ws'). Other paths are not upgraded. */
    path: string;
    /** hapi auth of the socket's hello (its headers): strategies plus access, like any route. */
    auth: { strategies: string[]; access: Array<{ scope: string[] }> };
    /** A socket that has not authenticated after this many ms is closed. */
    authTimeoutMs: number;
    /** Largest incoming frame in bytes (nes leaves ws at 100 MiB). Bigger frames close the socket (1009). */
    maxPayload: number;
    /** Incoming frames per second per connection before the socket is closed (1008). */
    maxFramesPerSecond: number;
    /** Open sockets per client address (1008 'Too many connections from your address' past it). */
    maxPerIp: number;
    /** Authenticated sockets per identity (one customer token, one staff user) on this node. */
    maxPerIdentity: number;
    /** Credentials are re-verified (the strategy's `verify`) on a frame at most this often. */
    reverifyMs?: number;
    /**
     * Every this many ms, this node asks the credentials check (checkCredentialsWith) about all its sockets and closes
     * the revoked ones, so a revocation holds without pub/sub (Redis down or hung). Default 2000.
     */
    revocationCheckMs?: number;
    /** Called after authentication; throw a Boom to refuse the socket (the refusal is sent, then it is closed). */
    onConnection?(socket: RealtimeSocket, caller: Caller): Promise<void> | void;
    /**
     * Once per socket. With its caller when onConnection ran to its end, also when the socket closed while onConnection
     * was still running (then just after it: what it counted is undone); with null when it never got that far.
     */
    onDisconnection?(socket: RealtimeSocket, caller: Caller | null): void;
    /** Custom messages (nes client.message). */
    onMessage?(socket: RealtimeSocket, caller: Caller, message: unknown): Promise<unknown> | unknown;
    heartbeat?: { interval: number; timeout: number };
}

/**
 * Targeted fan-out (issue 24): every subscription path has its own pub/sub channel, and a node subscribes to a path's
 * channel only while one of its own sockets subscribes to that path. A push therefore reaches the nodes that hold a
 * subscriber, not every node: a node's pub/sub traffic follows its own sockets, not the whole cluster's. Order holds
 * per path (one channel), and across paths for one publisher (Redis delivers one connection's publishes in order).
 */
const PATH_CHANNEL = 'realtime:path:';
const REVOKE_CHANNEL = 'realtime:revoke';

function channelOf(path: string): string {
    return PATH_CHANNEL + path;
}
const DEFAULT_HEARTBEAT = { interval: 15000, timeout: 10000 };

/** The started Realtime instances of this process, for fanOutStatsOfProcess (read by bench/server-probe.ts). */
const started = new Set<Realtime>();

/** Fan-out counters of this process's started server(s), summed: what bench/realtime.ts reports per node. */
export function fanOutStatsOfProcess(): Array<ReturnType<Realtime['fanOutStats']>> {
    return [...started].map((r) => r.fanOutStats());
}
/** One slot of the sockets is pinged every this many ms (each socket is in one slot). */
const HEARTBEAT_TICK_MS = 50;

/** One push: to a nes subscription path, or (with route) to a path of a `subscription()` route. */
export interface Push { path: string; message: unknown; route?: string }

/** Whether a socket with this caller may receive this message. */
export type SubscriptionFilter = (message: any, caller: Caller | null) => boolean;

/** Whose sockets to close: one user's, or everyone's of one organization (staff and customers). */
export interface Revocation { userId?: number; organizationId?: number }

/**
 * Which of these sockets' credentials no longer hold (a user disabled, a password changed, an organization
 * deactivated...): one verdict per socket, true = revoked. Given by the plugin that owns the credentials
 * (plugins/auth), asked in one batch per pass so its cost is a query or two, not one per socket.
 */
export type CredentialsCheck = (sockets: Array<{ caller: Caller; artifacts: unknown }>) => Promise<boolean[]>;

/** Who a socket belongs to, for the per-identity cap and the reauth check. */
export function identityOf(caller: Caller | null | undefined): string | null {
    if (!caller) {
        return null;
    }
    switch (caller.kind) {
        case 'staff':
            return `staff:${caller.userId}:${caller.role}`;
        case 'customer':
            return `customer:${caller.organizationId}:${caller.sessionId}`;
        case 'widget':
            return `widget:${caller.botInstanceId}`;
    }
}

export function callerOfSocket(socket: RealtimeSocket): Caller | null {
    return socket.auth.credentials?.caller ?? null;
}

/**
 * nes on the same host (DESIGN §6), hardened where nes leaves doors open (nes-adapter.ts), with a bridge over
 * `server.app.pubsub` so a publish on any node reaches the subscribers on every node, revocation of a user's
 * or an organization's sockets on every node, and the one command path: socket messages are injected as
 * requests to routes, with the socket's credentials, so validation, limits and access live once, on the route.
 */
export class Realtime {
    private listener: ReturnType<typeof listenerOf> | null = null;
    /** Sockets per exact path of the subscriptions made with `subscription()`. */
    private readonly index = new Map<string, Set<RealtimeSocket>>();
    private readonly filters = new Map<string, SubscriptionFilter>();
    /** This node's sockets per subscribed path (every subscription, indexed or not): the channels it listens to. */
    private readonly local = new Map<string, number>();
    /** A path's channel subscription in flight: a second socket on the same path waits for it too. */
    private readonly subscribing = new Map<string, Promise<void>>();
    /** Pub/sub messages this node received (each a push or a batch for one path): the fan-out, measured. */
    private receivedCount = 0;
    private readonly perIdentity = new Map<string, number>();
    private credentialsCheck: CredentialsCheck | null = null;
    private sweeping = false;

    private readonly bridgeListener = (msg: Push | { batch: Push[] }) => {
        this.receivedCount++;
        for (const push of 'batch' in msg ? msg.batch : [msg]) {
            try {
                if (push.route !== undefined) {
                    this.deliver(push.route, push.path, push.message);
                }
                else {
                    this.server.publish(push.path, push.message);
                }
            }
            catch (err) {
                this.log.warn({ err, path: push.path }, 'realtime publish failed');
            }
        }
    };

    private readonly revokeListener = (revocation: Revocation) => {
        void this.closeLocal(revocation).catch((err) => this.log.warn({ err }, 'revocation failed'));
    };

    constructor(private readonly server: Server, private readonly pubsub: PubSub, private readonly log: Logger) {}

    get registered(): boolean {
        return this.listener !== null;
    }

    private disconnected(options: RealtimeOptions, socket: RealtimeSocket, caller: Caller | null): void {
        try {
            options.onDisconnection?.(socket, caller);
        }
        catch (err) {
            this.log.error({ err }, 'socket disconnection handler failed');
        }
    }

    async register(options: RealtimeOptions): Promise<void> {
        assertNesInternals();
        const server = this.server;
        hardenSockets({
            identity: (credentials) => identityOf((credentials as { caller?: Caller } | null)?.caller),
            onError: (err, socket) => this.log.warn({ err: (err as Error)?.message, socket: socket.id }, 'socket closed after a frame nes could not handle')
        });
        await server.register({
            plugin: require('@hapi/nes'),
            options: {
                auth: {
                    type: 'direct',
                    route: options.auth,
                    timeout: options.authTimeoutMs,
                    index: false,
                    minAuthVerifyInterval: options.reverifyMs ?? (options.heartbeat ?? DEFAULT_HEARTBEAT).interval
                },
                heartbeat: options.heartbeat ?? DEFAULT_HEARTBEAT,
                // The one response header a socket client needs: how long to wait after a 429.
                headers: ['retry-after'],
                onConnection: async (socket: RealtimeSocket) => {
                    const caller = callerOfSocket(socket);
                    if (!caller) {
                        throw Boom.unauthorized('Connection requires authentication');
                    }
                    const who = identityOf(caller)!;
                    const count = (this.perIdentity.get(who) ?? 0) + 1;
                    if (count > options.maxPerIdentity) {
                        refuseFurther(socket, [1008, 'Too many connections for these credentials']);
                        throw Boom.forbidden('Too many connections for these credentials');
                    }
                    await options.onConnection?.(socket, caller);
                    if (socket.app.closed) {
                        // It closed while being accepted (a page reloaded right after connecting): nes has already
                        // called onDisconnection, before anything counted it; the handler above counted it since, so it
                        // is told now. The throw keeps nes from subscribing a closed socket.
                        this.disconnected(options, socket, caller);
                        throw Boom.badRequest('Connection closed while it was being accepted');
                    }
                    this.perIdentity.set(who, (this.perIdentity.get(who) ?? 0) + 1);
                    socket.app.identity = who;
                },
                onDisconnection: (socket: RealtimeSocket) => {
                    socket.app.closed = true;
                    const who = socket.app.identity as string | undefined;
                    if (who) {
                        const left = (this.perIdentity.get(who) ?? 1) - 1;
                        if (left > 0) {
                            this.perIdentity.set(who, left);
                        }
                        else {
                            this.perIdentity.delete(who);
                        }
                    }
                    this.disconnected(options, socket, who ? callerOfSocket(socket) : null);
                },
                onMessage: async (socket: RealtimeSocket, message: unknown) => {
                    const caller = callerOfSocket(socket);
                    if (!caller || !socket.app.identity) {
                        throw Boom.unauthorized('Connection requires authentication');
                    }
                    if (!options.onMessage) {
                        throw Boom.notImplemented('No custom messages');
                    }
                    return options.onMessage(socket, caller, message);
                }
            }
        });
        const listener = listenerOf(server);
        this.listener = listener;
        const heartbeat = spreadHeartbeat(listener, options.heartbeat ?? DEFAULT_HEARTBEAT, HEARTBEAT_TICK_MS);
        limitConnections(listener, {
            path: options.path,
            maxPayload: options.maxPayload,
            maxFramesPerSecond: options.maxFramesPerSecond,
            maxPerIp: options.maxPerIp,
            clientIp: (req) => clientAddress(req.headers['x-forwarded-for'], req.socket.remoteAddress, !!server.app.config?.trustProxy)
        });

        // A request frame reaches only routes that admit the socket's caller by their declared access: never
        // a public route (logins, pages), which sockets have no business calling.
        server.ext('onPreAuth', (request: Request, h: ResponseToolkit) => {
            if (request.plugins.nes && !request.route.settings.auth) {
                throw Boom.forbidden('This route is not reachable over the socket');
            }
            return h.continue;
        });

        server.ext('onPreStart', async () => {
            await this.pubsub.subscribe(REVOKE_CHANNEL, this.revokeListener);
            started.add(this);
        });
        // Revocation without pub/sub (issue 25): the revocation push reaches other nodes through Redis, and is lost
        // while Redis is down or hung; every node therefore also re-checks its own sockets in the database.
        let sweepTimer: NodeJS.Timeout | null = null;
        server.ext('onPostStart', () => {
            sweepTimer = setInterval(() => {
                this.sweep().catch((err) => this.log.warn({ err }, 'socket credentials check failed'));
            }, options.revocationCheckMs ?? 2000);
            sweepTimer.unref();
        });
        server.ext('onPreStop', async () => {
            started.delete(this);
            if (sweepTimer) {
                clearInterval(sweepTimer);
            }
            heartbeat.stop();
            for (const path of [...this.local.keys()]) {
                this.local.delete(path);
                await this.pubsub.unsubscribe(channelOf(path), this.bridgeListener).catch(() => undefined);
            }
            await this.pubsub.unsubscribe(REVOKE_CHANNEL, this.revokeListener);
        });
        this.pubsub.onResync(() => void this.resync());
    }

    /**
     * After pub/sub recovers (DESIGN §6), every socket of this node gets `{ type: 'resync' }` on each path it
     * subscribed (customers on their session, agents on their organization), and fetches what it missed. The
     * push carries no data, so it skips subscription filters.
     */
    private async resync(): Promise<void> {
        if (!this.listener) {
            return;
        }
        await this.server.eachSocket((socket) => {
            for (const path of subscriptionsOf(socket)) {
                socket.publish(path, { type: 'resync' }).catch(() => undefined);
            }
        });
    }

    /**
     * A nes subscription (e.g. '/chat/sessions/{sessionId}') whose pushes are delivered from an index by
     * exact path. nes' own publish walks every subscriber of the route for each message, which is O(n) in
     * connections; this is O(subscribers of that path). The wire protocol is nes' ('pub' to the path).
     * `scope` is checked by nes against the caller's scopes, with {params} filled from the path.
     */
    subscription(route: string, options: {
        scope: string[];
        onSubscribe?(socket: RealtimeSocket, caller: Caller, params: Record<string, string>): Promise<void> | void;
        filter?: SubscriptionFilter;
        /** Delivered from the index of `subscription()` (default) or by nes' own publish. */
        indexed?: boolean;
    }): void {
        const indexed = options.indexed ?? true;
        if (options.filter) {
            this.filters.set(route, options.filter);
        }
        this.server.subscription(route, {
            auth: { mode: 'required', scope: options.scope },
            filter: !indexed && options.filter
                ? (_path, message, { credentials }) => options.filter!(message, credentials?.caller ?? null)
                : undefined,
            onSubscribe: async (socket: RealtimeSocket, path: string, params?: unknown) => {
                const caller = callerOfSocket(socket);
                if (!caller) {
                    throw Boom.unauthorized('Connection requires authentication');
                }
                await options.onSubscribe?.(socket, caller, (params ?? {}) as Record<string, string>);
                if (indexed) {
                    let set = this.index.get(path);
                    if (!set) {
                        set = new Set();
                        this.index.set(path, set);
                    }
                    set.add(socket);
                }
                // The path's channel is listened to before the subscription is confirmed: what the client then
                // fetches (by sequence) and what is pushed afterwards leave no gap.
                const listening = (socket.app.listening ??= new Set<string>()) as Set<string>;
                if (!listening.has(path)) {
                    listening.add(path);
                    await this.listenTo(path);
                }
            },
            onUnsubscribe: (socket: RealtimeSocket, path: string) => {
                const set = this.index.get(path);
                if (set) {
                    set.delete(socket);
                    if (!set.size) {
                        this.index.delete(path);
                    }
                }
                const listening = socket.app.listening as Set<string> | undefined;
                if (listening?.delete(path)) {
                    this.stopListening(path);
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
            if (!filter || filter(message, callerOfSocket(socket))) {
                socket.publish(path, message).catch(() => undefined);
            }
        }
    }

    /** One more local subscriber of a path: the first one subscribes this node to the path's channel. */
    private async listenTo(path: string): Promise<void> {
        const n = (this.local.get(path) ?? 0) + 1;
        this.local.set(path, n);
        if (n === 1) {
            const pending = this.pubsub.subscribe(channelOf(path), this.bridgeListener).finally(() => {
                if (this.subscribing.get(path) === pending) {
                    this.subscribing.delete(path);
                }
            });
            this.subscribing.set(path, pending);
        }
        await this.subscribing.get(path);
    }

    /** One local subscriber of a path fewer: the last one unsubscribes this node from the path's channel. */
    private stopListening(path: string): void {
        const n = (this.local.get(path) ?? 0) - 1;
        if (n > 0) {
            this.local.set(path, n);
            return;
        }
        if (this.local.delete(path)) {
            this.pubsub.unsubscribe(channelOf(path), this.bridgeListener).catch((err) => this.log.warn({ err, path }, 'realtime unsubscribe failed'));
        }
    }

    /** Publishes to a subscription path, on the nodes that hold a subscriber of it (through pub/sub). */
    async publish(path: string, message: unknown): Promise<void> {
        await this.pubsub.publish(channelOf(path), { path, message });
    }

    /**
     * Several pushes, in order: one pub/sub message per path (consecutive pushes to one path travel together), published
     * one after the other on one connection, so every node receives them in this order.
     */
    async publishAll(pushes: Push[]): Promise<void> {
        const groups: Push[][] = [];
        for (const push of pushes) {
            const last = groups[groups.length - 1];
            if (last && last[0].path === push.path) {
                last.push(push);
            }
            else {
                groups.push([push]);
            }
        }
        for (const group of groups) {
            await this.pubsub.publish(channelOf(group[0].path), group.length === 1 ? group[0] : { batch: group });
        }
    }

    /**
     * What this node's pub/sub carried to it (messages received, the paths it listens to) and what it did with its
     * own publishes (see PubSubStats): issue 24's bench reads these per node.
     */
    fanOutStats(): { received: number; paths: number; pubsub: PubSubStats } {
        return { received: this.receivedCount, paths: this.local.size, pubsub: this.pubsub.stats() };
    }

    /**
     * Closes the sockets of a user (deactivated, password changed) or of an organization (deactivated) on
     * every node, with close code 1008. Their tokens are refused from then on by the auth strategies.
     */
    async revoke(revocation: Revocation): Promise<void> {
        await this.pubsub.publish(REVOKE_CHANNEL, revocation);
    }

    /** The check `sweep` asks about this node's sockets (see CredentialsCheck). */
    checkCredentialsWith(check: CredentialsCheck): void {
        this.credentialsCheck = check;
    }

    /**
     * One pass over this node's authenticated sockets: the credentials check answers which are revoked, and those are
     * closed (1008 'Access revoked'), so they neither read (requests) nor receive (pushes) any more. Answers how many.
     * A pass still running when the next one is due is not doubled.
     */
    async sweep(): Promise<number> {
        const check = this.credentialsCheck;
        if (!this.listener || !check || this.sweeping) {
            return 0;
        }
        this.sweeping = true;
        try {
            const sockets: RealtimeSocket[] = [];
            await this.server.eachSocket((socket) => {
                const s = socket as RealtimeSocket;
                if (callerOfSocket(s) && s.app.identity) {
                    sockets.push(s);
                }
            });
            if (!sockets.length) {
                return 0;
            }
            const revoked = await check(sockets.map((socket) => ({ caller: callerOfSocket(socket)!, artifacts: socket.auth.artifacts ?? null })));
            let closed = 0;
            sockets.forEach((socket, i) => {
                if (revoked[i]) {
                    refuseFurther(socket);
                    closeSocket(socket, 1008, 'Access revoked');
                    closed++;
                }
            });
            if (closed) {
                this.log.info({ closed }, 'sockets of revoked credentials closed by the periodic check');
            }
            return closed;
        }
        finally {
            this.sweeping = false;
        }
    }

    private async closeLocal(revocation: Revocation): Promise<void> {
        if (!this.listener) {
            return;
        }
        const doomed: RealtimeSocket[] = [];
        await this.server.eachSocket((socket) => {
            const caller = callerOfSocket(socket);
            if (!caller) {
                return;
            }
            const byUser = revocation.userId !== undefined && caller.kind === 'staff' && caller.userId === revocation.userId;
            const byOrg = revocation.organizationId !== undefined && caller.organizationId === revocation.organizationId;
            if (byUser || byOrg) {
                doomed.push(socket);
            }
        });
        for (const socket of doomed) {
            refuseFurther(socket);
            closeSocket(socket, 1008, 'Access revoked');
        }
    }

    /**
     * The one command path: a socket message becomes a request to a route (by id), injected with the socket's
     * credentials, so the route's access, validation and limits apply exactly as over HTTP. Answers the
     * route's result; a 4xx/5xx becomes the same Boom error.
     */
    async command(socket: RealtimeSocket, routeId: string, input: { params?: Record<string, string>; payload?: object }): Promise<unknown> {
        const route = this.server.lookup(routeId);
        if (!route) {
            throw Boom.notFound(`No route ${routeId}`);
        }
        let url = route.path;
        for (const [name, value] of Object.entries(input.params ?? {})) {
            url = url.replace(`{${name}}`, encodeURIComponent(value));
        }
        const res = await this.server.inject({
            method: route.method,
            url,
            payload: input.payload,
            auth: { credentials: socket.auth.credentials!, artifacts: socket.auth.artifacts ?? undefined, strategy: (socket.auth as { strategy?: string }).strategy ?? 'nes' },
            plugins: { nes: { socket } },
            remoteAddress: socket.info.remoteAddress
        });
        if (res.statusCode >= 400) {
            const body = res.result as { message?: string } | null;
            const err = new Boom.Boom(body?.message ?? `Request failed with ${res.statusCode}`, { statusCode: res.statusCode });
            const retryAfter = res.headers['retry-after'];
            if (retryAfter !== undefined) {
                err.output.headers['retry-after'] = String(retryAfter);     // lower case, as on a request frame's answer
            }
            throw err;
        }
        return res.result;
    }

    /** Sockets connected to this node. */
    connectionCount(): number {
        return socketCount(this.listener);
    }
}
