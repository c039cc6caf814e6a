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
    close(): Promise<void>;
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
        setImmediate(() => this.emitter.emit(channel, copy));
    }

    async subscribe(channel: string, listener: Listener): Promise<void> {
        this.emitter.on(channel, listener);
    }

    async unsubscribe(channel: string, listener: Listener): Promise<void> {
        this.emitter.off(channel, listener);
    }

    async close(): Promise<void> {
        this.emitter.removeAllListeners();
    }
}

export class RedisPubSub implements PubSub {
    readonly backend = 'redis' as const;
    private readonly pub: Redis;
    private readonly sub: Redis;
    private readonly local = new EventEmitter();

    constructor(url: string, private readonly prefix: string, private readonly log: Logger) {
        this.pub = new Redis(url, { maxRetriesPerRequest: null });
        this.sub = new Redis(url, { maxRetriesPerRequest: null });
        this.local.setMaxListeners(0);
        this.sub.on('message', (channel: string, raw: string) => {
            const name = channel.slice(this.prefix.length + 4);
            try {
                this.local.emit(name, JSON.parse(raw));
            }
            catch (err) {
                this.log.warn({ err, channel }, 'bad pubsub message');
            }
        });
        this.pub.on('error', (err) => this.log.error({ err }, 'redis publisher error'));
        this.sub.on('error', (err) => this.log.error({ err }, 'redis subscriber error'));
    }

    private key(channel: string): string {
        return `${this.prefix}:ps:${channel}`;
    }

    async publish(channel: string, message: unknown): Promise<void> {
        await this.pub.publish(this.key(channel), JSON.stringify(message));
    }

    async subscribe(channel: string, listener: Listener): Promise<void> {
        const first = this.local.listenerCount(channel) === 0;
        this.local.on(channel, listener);
        if (first) {
            await this.sub.subscribe(this.key(channel));
        }
    }

    async unsubscribe(channel: string, listener: Listener): Promise<void> {
        this.local.off(channel, listener);
        if (this.local.listenerCount(channel) === 0) {
            await this.sub.unsubscribe(this.key(channel));
        }
    }

    async close(): Promise<void> {
        this.local.removeAllListeners();
        this.sub.disconnect();
        this.pub.disconnect();
    }
}
