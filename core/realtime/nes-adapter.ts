import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { Nes } from '@hapi/nes';

/**
 * Everything loyalty-chat needs from @hapi/nes beyond its documented API, in this one file. nes is pinned to
 * this exact version in package.json, and `assertNesInternals()` checks at start-up that every private field
 * used here still exists, so an upgrade fails loudly at boot instead of quietly at the first attack.
 *
 * What the internals are for:
 * - Socket.prototype._onMessage / _lifecycle / _processHello / _processReauth: nes reads `.type` of any parsed
 *   frame (a `null` frame throws outside its own error handling and stops the process), keeps a socket open
 *   after a failed hello, and lets `reauth` swap the credentials of a live socket. The wrappers below answer
 *   or close instead.
 * - listener._wss: the ws server, to cap frame size and path (nes does not pass `maxPayload` to ws) and to
 *   see every connection first (per-IP cap, frame rate, the upgrade request's Origin).
 * - listener._sockets.add/remove/length, listener._beat/_heartbeat, socket._send/_active/_pinged: the spread
 *   heartbeat (core/realtime/socket-server.ts).
 * - socket._subscriptions: the paths a socket subscribed to, for the resync push after a pub/sub outage.
 */
export const NES_VERSION = '14.0.1';

const SOCKET_METHODS = ['_onMessage', '_lifecycle', '_processHello', '_processReauth', '_send', '_active', '_error'] as const;

/** The private side of a nes socket that this adapter touches. */
interface SocketInternals {
    _ws: WsLike & { lcUpgrade?: Upgrade };
    _helloed: boolean;
    _pinged: boolean;
    _subscriptions: Record<string, unknown>;
    auth: { isAuthenticated: boolean; credentials: any; artifacts: unknown; strategy?: string };
    app: Record<string, any>;
    _onMessage(raw: unknown): Promise<void>;
    _lifecycle(request: any): Promise<unknown>;
    _processHello(request: any): Promise<unknown>;
    _processReauth(request: any): Promise<unknown>;
    _send(message: unknown): Promise<void>;
    _active(): boolean;
    _error(err: unknown, request?: unknown): Promise<void>;
    disconnect(): Promise<void>;
}

interface WsLike {
    close(code?: number, reason?: string): void;
    on(event: string, listener: (...args: any[]) => void): void;
}

interface SocketRegistry {
    add(socket: unknown): void;
    remove(socket: unknown): void;
    length(): number;
}

interface ListenerInternals {
    _wss: { options: { maxPayload?: number; path?: string }; on(event: 'connection', listener: (ws: any, req: any) => void): void };
    _sockets: SocketRegistry;
    _beat(): void;
    _heartbeat: NodeJS.Timeout | null;
}

/** The Origin and Host headers of a socket's upgrade request (null when the client sent none). */
export interface Upgrade {
    origin: string | null;
    host: string | null;
    ip: string;
}

/** A nes socket as the rest of the code sees it: nes's typed public API plus what this adapter knows. */
export type RealtimeSocket = Nes.Socket<Record<string, any>>;

declare module '@hapi/hapi' {
    interface PluginsStates {
        /** Set on requests that came in as nes `request` frames (and on the socket commands of Realtime). */
        nes?: { socket: RealtimeSocket };
    }
}

function internalsOf(socket: RealtimeSocket): SocketInternals {
    return socket as unknown as SocketInternals;
}

function nesSocketPrototype(): SocketInternals {
    return require('@hapi/nes/lib/socket').prototype as SocketInternals;
}

/** Throws a clear error when the installed nes is not the version whose internals this file relies on. */
export function assertNesInternals(): void {
    const version = require('@hapi/nes/package.json').version as string;
    if (version !== NES_VERSION) {
        throw new Error(`loyalty-chat needs @hapi/nes ${NES_VERSION} exactly (found ${version}): core/realtime/nes-adapter.ts relies on its internals`);
    }
    const proto = nesSocketPrototype() as unknown as Record<string, unknown>;
    const missing = SOCKET_METHODS.filter((name) => typeof proto[name] !== 'function');
    if (missing.length) {
        throw new Error(`@hapi/nes ${version} no longer has Socket.prototype.${missing.join(', ')} (core/realtime/nes-adapter.ts)`);
    }
}

/** nes's listener of a server that registered nes, checked for the fields used here. */
export function listenerOf(server: Server): ListenerInternals {
    const listener = (server.plugins as { nes?: { _listener?: ListenerInternals } }).nes?._listener;
    const ok = !!listener && !!listener._wss && typeof listener._wss.on === 'function' && !!listener._wss.options
        && !!listener._sockets && typeof listener._sockets.add === 'function' && typeof listener._sockets.remove === 'function'
        && typeof listener._sockets.length === 'function' && typeof listener._beat === 'function' && '_heartbeat' in listener;
    if (!ok) {
        throw new Error(`@hapi/nes listener internals changed (core/realtime/nes-adapter.ts expects _wss, _sockets, _beat)`);
    }
    return listener;
}

export interface SocketGuards {
    /**
     * Who a socket is (kind and id) from its credentials: a reauth that changes it is refused and the socket
     * closed, so a customer socket cannot become an agent's (DESIGN §6: Origin and role checks hold on reauth).
     */
    identity(credentials: unknown): string | null;
    /** A handler threw something that was not an answer to the client (a bug): logged, then the socket is closed. */
    onError(err: unknown, socket: RealtimeSocket): void;
}

let guards: SocketGuards | null = null;

/**
 * Makes every nes socket survive any frame. Installed once per process (nes keeps one Socket prototype);
 * the guards of the last call are used.
 */
export function hardenSockets(next: SocketGuards): void {
    const first = guards === null;
    guards = next;
    if (!first) {
        return;
    }
    const proto = nesSocketPrototype();
    const onMessage = proto._onMessage;
    const lifecycle = proto._lifecycle;
    const processHello = proto._processHello;
    const processReauth = proto._processReauth;

    proto._onMessage = async function (this: SocketInternals, raw: unknown) {
        let parsed: unknown;
        try {
            parsed = JSON.parse(String(raw));
        }
        catch {
            parsed = undefined;             // nes answers 'Cannot parse message' itself
        }
        if (parsed !== undefined && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))) {
            // nes would read `.type` of it outside its own error handling.
            await this._error(Boom.badRequest('Cannot parse message')).catch(() => undefined);
            return;
        }
        try {
            await onMessage.call(this, raw);
        }
        catch (err) {
            guards?.onError(err, this as unknown as RealtimeSocket);
            await this.disconnect();
            return;
        }
        if (this.app.lcClosing) {
            // After the refusal was sent: with the refusal's close code (policy violation by default).
            const [code, reason] = (this.app.lcClose as [number, string] | undefined) ?? [1008, 'Connection refused'];
            this._ws.close(code, reason);
        }
    };

    proto._lifecycle = async function (this: SocketInternals, request: { type?: unknown }) {
        if (this.app.lcClosing) {
            throw Boom.forbidden('This connection is closing');
        }
        const pending = this.app.lcHello as Promise<void> | undefined;
        if (pending && request.type !== 'ping') {
            // A frame sent right behind the hello, before its answer (the nes client sends as soon as a reconnected
            // socket is open): nes reads frames side by side, so it waits for the hello's authentication instead of
            // meeting the socket half-way through it.
            await pending;
            if (this.app.lcClosing) {
                throw Boom.forbidden('This connection is closing');
            }
        }
        if (this._helloed && !this.auth.isAuthenticated && request.type !== 'ping') {
            this.app.lcClosing = true;       // a failed hello leaves nes's socket open and unauthenticated
            throw Boom.unauthorized('Connection requires authentication');
        }
        if (request.type === 'hello' && !this._helloed && !pending) {
            const hello = lifecycle.call(this, request);
            this.app.lcHello = hello.then(() => undefined, () => undefined);
            try {
                return await hello;
            }
            finally {
                this.app.lcHello = undefined;
            }
        }
        return lifecycle.call(this, request);
    };

    proto._processHello = async function (this: SocketInternals, request: unknown) {
        try {
            return await processHello.call(this, request);
        }
        catch (err) {
            this.app.lcClosing = true;
            this.auth.isAuthenticated = false;
            this.auth.credentials = null;
            throw err;
        }
    };

    proto._processReauth = async function (this: SocketInternals, request: unknown) {
        const before = { ...this.auth };
        const who = guards?.identity(before.credentials) ?? null;
        const result = await processReauth.call(this, request);
        if (guards?.identity(this.auth.credentials) !== who) {
            Object.assign(this.auth, before);
            this.app.lcClosing = true;
            throw Boom.forbidden('A connection cannot change who it belongs to');
        }
        return result;
    };
}

/** The paths a socket subscribed to. */
export function subscriptionsOf(socket: RealtimeSocket): string[] {
    return Object.keys(internalsOf(socket)._subscriptions ?? {});
}

/** The upgrade request's Origin, Host and client address, kept when the connection opened. */
export function upgradeOf(socket: RealtimeSocket): Upgrade {
    return internalsOf(socket)._ws.lcUpgrade ?? { origin: null, host: null, ip: socket.info.remoteAddress };
}

/** Closes a socket with a WebSocket close code and reason the client sees (e.g. 1008 'Too many connections'). */
export function closeSocket(socket: RealtimeSocket, code: number, reason: string): void {
    internalsOf(socket)._ws.close(code, reason);
}

/**
 * Marks a socket so that it answers nothing more and closes after the current answer, with this close code
 * and reason (default 1008 'Connection refused').
 */
export function refuseFurther(socket: RealtimeSocket, close?: [number, string]): void {
    socket.app.lcClosing = true;
    if (close) {
        socket.app.lcClose = close;
    }
}

export interface ConnectionLimits {
    path: string;
    maxPayload: number;
    maxFramesPerSecond: number;
    maxPerIp: number;
    /** The client address of an upgrade request (the first X-Forwarded-For hop behind a trusted proxy). */
    clientIp(req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } }): string;
}

/**
 * What nes leaves open at the ws layer: frame size, path, a per-IP connection cap and a frame-rate guard,
 * and the upgrade request's Origin kept for the connection checks. Runs after nes made its Socket for the ws
 * (listeners run in order), before any frame is read.
 */
export function limitConnections(listener: ListenerInternals, limits: ConnectionLimits): { perIp: Map<string, number> } {
    const wss = listener._wss;
    wss.options.maxPayload = limits.maxPayload;
    wss.options.path = limits.path;
    const perIp = new Map<string, number>();
    wss.on('connection', (ws: WsLike & { lcUpgrade?: Upgrade }, req: any) => {
        const ip = limits.clientIp(req);
        ws.lcUpgrade = { origin: req.headers.origin ?? null, host: req.headers.host ?? null, ip };
        const count = (perIp.get(ip) ?? 0) + 1;
        perIp.set(ip, count);
        ws.on('close', () => {
            const left = (perIp.get(ip) ?? 1) - 1;
            if (left > 0) {
                perIp.set(ip, left);
            }
            else {
                perIp.delete(ip);
            }
        });
        if (count > limits.maxPerIp) {
            ws.close(1008, 'Too many connections from your address');
            return;
        }
        // Hand-written on purpose, not rate-limiter-flexible (which limits the HTTP routes and a socket's chat
        // messages): this runs on every frame of every socket before nes parses it, so it stays synchronous, with
        // its state in the closure of its connection (no promise, no key, no shared map on the hot path).
        let windowStart = Date.now();
        let frames = 0;
        ws.on('message', () => {
            const t = Date.now();
            if (t - windowStart >= 1000) {
                windowStart = t;
                frames = 0;
            }
            frames += 1;
            if (frames > limits.maxFramesPerSecond) {
                ws.close(1008, 'Too many messages');
            }
        });
    });
    return { perIp };
}

/**
 * nes pings every socket at once each interval, and every pong arrives together: with 10,000 sockets that is
 * a second or more of a busy event loop in which chat messages queue (DESIGN §9 p99). Same protocol and rules,
 * spread out: every socket gets a slot, one slot is pinged each tick (so each socket once per interval), and a
 * socket that has not answered or sent anything `timeout` ms after its ping is closed. The timer lives in nes'
 * own `_heartbeat` field, so nes clears it on stop; `stop()` clears the pending checks.
 */
export function spreadHeartbeat(listener: ListenerInternals, heartbeat: { interval: number; timeout: number }, tickMs: number): { stop(): void } {
    const count = Math.max(1, Math.round(heartbeat.interval / tickMs));
    const tick = heartbeat.interval / count;
    const slots = Array.from({ length: count }, () => new Set<SocketInternals>());
    const slotOf = new WeakMap<object, number>();
    const checks = new Set<NodeJS.Timeout>();
    let current = 0;
    let next = 0;
    const sockets = listener._sockets;
    const add = sockets.add.bind(sockets);
    const remove = sockets.remove.bind(sockets);
    sockets.add = (socket: SocketInternals) => {
        add(socket);
        slotOf.set(socket, next);
        slots[next].add(socket);
        next = (next + 1) % count;
    };
    sockets.remove = (socket: SocketInternals) => {
        remove(socket);
        const slot = slotOf.get(socket);
        if (slot !== undefined) {
            slots[slot].delete(socket);
        }
    };
    listener._beat = () => {
        if (listener._heartbeat) {
            clearInterval(listener._heartbeat);
        }
        listener._heartbeat = setInterval(() => {
            const slot = slots[current];
            current = (current + 1) % count;
            if (!slot.size) {
                return;
            }
            const pinged = [...slot];
            for (const socket of pinged) {
                socket._send({ type: 'ping' }).catch(() => undefined);
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
    return {
        stop() {
            if (listener._heartbeat) {
                clearInterval(listener._heartbeat);
            }
            checks.forEach((t) => clearTimeout(t));
            checks.clear();
        }
    };
}

/** Sockets connected to this node. */
export function socketCount(listener: ListenerInternals | null): number {
    return listener ? listener._sockets.length() : 0;
}
