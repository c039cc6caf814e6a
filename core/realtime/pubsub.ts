import { EventEmitter } from 'events';
import Redis from 'ioredis';
import type { Logger } from 'pino';

export type Listener = (message: any) => void;

/**
 * Fan-out between server processes. In-process by default; over Redis pub/sub when REDIS_URL is set, so
 * a message published on node A reaches listeners on node B (and on A itself).
 */
export interface PubSub {
    readonly backend: 'memory' | 'redis';
    publish(channel: string, message: unknown): Promise<void>;
    subscribe(channel: string, listener: Listener): Promise<void>;
    unsubscribe(channel: string, listener: Listener): Promise<void>;
    /**
     * Calls listener whenever this node's listeners may have missed messages and are whole again: after the
     * Redis subscriber reconnected, or after a node that could not publish can again (DESIGN §6: clients then
     * refetch what they missed). Returns a function that removes the listener. Never fires in memory.
     */
    onResync(listener: () => void): () => void;
    /** What this node's pub/sub did since it started (issue 24: the stages of a push, measured). */
    stats(): PubSubStats;
    close(): Promise<void>;
}

/** Counters of one node's pub/sub, read by bench/realtime.ts through the server probe. */
export interface PubSubStats {
    /** Publishes handed to Redis (or, in memory, emitted). */
    published: number;
    /** Publishes Redis had not answered within PUBLISH_TIMEOUT_MS: delivered here at once, to the others when Redis answers. */
    timedOut: number;
    /** Publishes that never reached Redis (connection down, or too many unanswered): other nodes missed them, a resync follows. */
    notSent: number;
    /** The most publishes awaiting Redis' answer at one time. */
    inFlightMax: number;
    /** Resyncs this node's sockets were told to do. */
    resyncs: number;
    /** The slowest publish Redis answered, in ms. */
    slowestMs: number;
}

export class MemoryPubSub implements PubSub {
    readonly backend = 'memory' as const;
    private readonly emitter = new EventEmitter();

    constructor() {
        this.emitter.setMaxListeners(0);
    }

    async publish(channel: string, message: unknown): Promise<void> {
        // Asynchronous like Redis, and with a copy, so publishers never share objects with listeners.
        const copy = JSON.parse(JSON.stringify(message));
        this.published++;
        setImmediate(() => this.emitter.emit(channel, copy));
    }

    async subscribe(channel: string, listener: Listener): Promise<void> {
        this.emitter.on(channel, listener);
    }

    async unsubscribe(channel: string, listener: Listener): Promise<void> {
        this.emitter.off(channel, listener);
    }

    onResync(): () => void {
        return () => {};            // one process: nothing is ever missed
    }

    private published = 0;

    stats(): PubSubStats {
        return { published: this.published, timedOut: 0, notSent: 0, inFlightMax: 0, resyncs: 0, slowestMs: 0 };
    }

    async close(): Promise<void> {
        this.emitter.removeAllListeners();
    }
}

/**
 * A publish that Redis has not answered within this many ms goes to this node's listeners at once (a hung Redis must
 * not hold a request); it stays on its way to the other nodes, which get it when Redis answers.
 */
export const PUBLISH_TIMEOUT_MS = 500;
/**
 * At most this many publishes wait for Redis' answer (back-pressure, not an unbounded queue): past it a publish is
 * delivered here only, the other nodes miss it, and every node resyncs once Redis answers again.
 */
export const MAX_IN_FLIGHT = 5000;
/** While publishing fails, the publisher connection is probed this often to notice that Redis answers again. */
const PROBE_INTERVAL_MS = 500;
/** A (re)subscribe waits this long; past it the node carries on and the subscription completes when Redis answers. */
const SUBSCRIBE_TIMEOUT_MS = 2000;
/** Messages delivered here first (their publish was slow or failed) are remembered this long, so a late copy from Redis is dropped. */
const DELIVERED_HERE_MS = 5 * 60_000;
const DELIVERED_HERE_MAX = 10_000;

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
        promise,
        new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`${what}: Redis did not answer within ${ms} ms`)), ms);
        })
    ]).finally(() => clearTimeout(timer));
}

/**
 * Pub/sub over Redis, bounded: a publish Redis does not answer within PUBLISH_TIMEOUT_MS is delivered to this node's
 * own listeners at once, so one node keeps working, and later ones do not wait for Redis until a probe answers; but
 * they are still handed to Redis while its connection is up (at most MAX_IN_FLIGHT unanswered), so a Redis that is
 * only slow, e.g. under load, delivers them late to the other nodes and nothing is missed (issue 24: flipping to
 * "this node only" and then resyncing every socket on a slow answer multiplied the work of an overloaded cluster).
 * Only a publish that never reached Redis (connection down, too many unanswered, or lost with its connection) means
 * the others missed something: resync (see PubSub.onResync) then fires on every node when this node can publish
 * again (it broadcasts it), and on a node whose subscriber connection came back (it may have missed anything).
 */
export class RedisPubSub implements PubSub {
    readonly backend = 'redis' as const;
    private readonly pub: Redis;
    private readonly sub: Redis;
    private readonly local = new EventEmitter();
    private readonly channels = new Set<string>();
    private readonly resyncListeners = new Set<() => void>();
    private readonly resyncKey: string;
    /** channel + raw message -> when, for messages delivered here only: Redis may still deliver them late. */
    private readonly deliveredHere = new Map<string, number>();
    /** Publishing fails: messages go to this node's listeners until a probe of the publisher answers. */
    private failing = false;
    /** A publish failed since the last resync broadcast: other nodes missed something. */
    private missed = false;
    private probeTimer: NodeJS.Timeout | null = null;
    private probing = false;
    private pubReadyOnce = false;
    private subReadyOnce = false;
    /** The subscriber may have missed messages (a subscribe that timed out at start). */
    private subMissed = false;
    private resyncTimer: NodeJS.Timeout | null = null;
    private closed = false;
    private inFlight = 0;
    private readonly counts: PubSubStats = { published: 0, timedOut: 0, notSent: 0, inFlightMax: 0, resyncs: 0, slowestMs: 0 };
    private readonly maxInFlight: number;

    constructor(url: string, private readonly prefix: string, private readonly log: Logger, options: { maxInFlight?: number } = {}) {
        this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
        const retryStrategy = (times: number) => Math.min(times * 100, 1000);
        // Commands wait for the first connection (offline queue); after that, publish does not queue while the
        // connection is down (see publish). No command timeout: publish bounds its own wait and keeps the command,
        // so a late answer is seen (a slow Redis delivered it) and so is a loss (its connection closed).
        // maxRetriesPerRequest: queued commands fail after one reconnect attempt instead of twenty.
        this.pub = new Redis(url, { retryStrategy, maxRetriesPerRequest: 1 });
        // The subscriber keeps its subscriptions queued until Redis answers (ioredis resubscribes on reconnect).
        this.sub = new Redis(url, { retryStrategy, maxRetriesPerRequest: null });
        this.local.setMaxListeners(0);
        this.resyncKey = `${prefix}:psctl:resync`;
        this.sub.on('message', (channel: string, raw: string) => this.receive(channel, raw));
        this.sub.on('ready', () => void this.subscriberReady());
        this.pub.on('ready', () => {
            this.pubReadyOnce = true;
            if (this.failing) {
                this.probe();
            }
        });
        this.pub.on('error', (err) => this.log.warn({ err: err.message }, 'redis publisher error'));
        this.sub.on('error', (err) => this.log.warn({ err: err.message }, 'redis subscriber error'));
        this.channels.add(this.resyncKey);
        this.sub.subscribe(this.resyncKey).catch((err) => this.log.warn({ err: err.message }, 'resync channel not subscribed yet'));
    }

    private key(channel: string): string {
        return `${this.prefix}:ps:${channel}`;
    }

    private receive(key: string, raw: string): void {
        if (key === this.resyncKey) {
            this.scheduleResync('a node can publish again');
            return;
        }
        const channel = key.slice(this.prefix.length + 4);
        if (this.deliveredHere.delete(`${channel}\n${raw}`)) {
            return;         // its publish timed out, so it was delivered here already
        }
        try {
            this.local.emit(channel, JSON.parse(raw));
        }
        catch (err) {
            this.log.warn({ err, channel }, 'bad pubsub message');
        }
    }

    async publish(channel: string, message: unknown): Promise<void> {
        const raw = JSON.stringify(message);
        const canSend = (this.pub.status === 'ready' || !this.pubReadyOnce) && this.inFlight < this.maxInFlight;
        if (canSend) {
            const sending = this.send(channel, raw);
            if (!this.failing) {
                try {
                    if (await bounded(sending, PUBLISH_TIMEOUT_MS, 'publish')) {
                        return;
                    }
                }
                catch {
                    this.counts.timedOut++;
                    this.log.warn({ channel }, 'publish slow: delivered on this node now, on the others when Redis answers');
                }
            }
            // Slow (or known slow): here now, on the others when Redis answers (a lost one is counted in send).
            this.failed();
        }
        else {
            this.counts.notSent++;
            this.missed = true;
            this.failed();
        }
        // Like a message through Redis: asynchronous, and a copy.
        this.rememberDeliveredHere(`${channel}\n${raw}`);
        setImmediate(() => this.local.emit(channel, JSON.parse(raw)));
    }

    /** Hands one publish to Redis: true once Redis took it, false (other nodes missed it) if its connection lost it. */
    private send(channel: string, raw: string): Promise<boolean> {
        const started = performance.now();
        this.counts.published++;
        this.inFlight++;
        this.counts.inFlightMax = Math.max(this.counts.inFlightMax, this.inFlight);
        return this.pub.publish(this.key(channel), raw).then(() => {
            this.counts.slowestMs = Math.max(this.counts.slowestMs, Math.round(performance.now() - started));
            return true;
        }, (err) => {
            this.counts.notSent++;
            this.missed = true;
            this.log.warn({ err: (err as Error).message, channel }, 'publish lost: other nodes resync when Redis answers');
            this.failed();
            return false;
        }).finally(() => {
            this.inFlight--;
        });
    }

    stats(): PubSubStats {
        return { ...this.counts };
    }

    private rememberDeliveredHere(id: string): void {
        const t = Date.now();
        this.deliveredHere.set(id, t);
        for (const [key, at] of this.deliveredHere) {
            if (t - at < DELIVERED_HERE_MS && this.deliveredHere.size <= DELIVERED_HERE_MAX) {
                break;
            }
            this.deliveredHere.delete(key);
        }
    }

    /** A publish was slow or failed: probe until the publisher answers (then broadcast resync if one was missed). */
    private failed(): void {
        if (this.failing || this.closed) {
            return;
        }
        this.failing = true;
        this.log.warn('redis pub/sub unavailable: pushes reach this node\'s sockets only until it answers');
        this.probeTimer = setInterval(() => this.probe(), PROBE_INTERVAL_MS);
        this.probeTimer.unref();
    }

    private probe(): void {
        if (this.probing || this.closed) {
            return;
        }
        this.probing = true;
        this.pub.ping()
            .then(() => this.recovered())
            .catch(() => { /* not yet: the next tick probes again */ })
            .finally(() => {
                this.probing = false;
            });
    }

    private async recovered(): Promise<void> {
        if (!this.failing || this.closed) {
            return;
        }
        this.failing = false;
        if (this.probeTimer) {
            clearInterval(this.probeTimer);
            this.probeTimer = null;
        }
        if (!this.missed) {
            return;
        }
        this.missed = false;
        try {
            // To every node, this one included: their sockets missed what this node could not publish.
            await this.pub.publish(this.resyncKey, '1');
            this.log.info('redis pub/sub answers again: clients resync');
        }
        catch {
            this.failed();
        }
    }

    private async subscriberReady(): Promise<void> {
        const again = this.subReadyOnce || this.subMissed;
        this.subReadyOnce = true;
        this.subMissed = false;
        if (!again || this.closed) {
            return;
        }
        try {
            // ioredis resubscribes by itself; this makes sure every channel is back before clients refetch.
            await bounded(this.sub.subscribe(...this.channels), SUBSCRIBE_TIMEOUT_MS, 'resubscribe');
        }
        catch (err) {
            this.subMissed = true;
            this.log.warn({ err: (err as Error).message }, 'redis subscriber not resubscribed yet');
            return;
        }
        this.scheduleResync('the subscriber reconnected');
    }

    /** Coalesces the triggers of one recovery (a reconnect and several nodes' broadcasts) into one resync. */
    private scheduleResync(reason: string): void {
        if (this.resyncTimer || this.closed) {
            return;
        }
        this.resyncTimer = setTimeout(() => {
            this.resyncTimer = null;
            this.counts.resyncs++;
            this.log.info({ reason }, 'pub/sub resync');
            for (const listener of this.resyncListeners) {
                try {
                    listener();
                }
                catch (err) {
                    this.log.warn({ err }, 'resync listener failed');
                }
            }
        }, 50);
    }

    onResync(listener: () => void): () => void {
        this.resyncListeners.add(listener);
        return () => this.resyncListeners.delete(listener);
    }

    async subscribe(channel: string, listener: Listener): Promise<void> {
        const first = this.local.listenerCount(channel) === 0;
        this.local.on(channel, listener);
        if (first) {
            this.channels.add(this.key(channel));
            try {
                await bounded(this.sub.subscribe(this.key(channel)), SUBSCRIBE_TIMEOUT_MS, 'subscribe');
            }
            catch (err) {
                // Still queued: it completes (and clients resync) when Redis answers.
                this.subMissed = true;
                this.log.warn({ err: (err as Error).message, channel }, 'redis subscribe pending');
            }
        }
    }

    async unsubscribe(channel: string, listener: Listener): Promise<void> {
        this.local.off(channel, listener);
        if (this.local.listenerCount(channel) === 0) {
            this.channels.delete(this.key(channel));
            await bounded(this.sub.unsubscribe(this.key(channel)), SUBSCRIBE_TIMEOUT_MS, 'unsubscribe')
                .catch((err) => this.log.warn({ err: err.message, channel }, 'redis unsubscribe failed'));
        }
    }

    async close(): Promise<void> {
        this.closed = true;
        if (this.probeTimer) {
            clearInterval(this.probeTimer);
        }
        if (this.resyncTimer) {
            clearTimeout(this.resyncTimer);
        }
        this.resyncListeners.clear();
        this.local.removeAllListeners();
        this.sub.disconnect();
        this.pub.disconnect();
    }
}
