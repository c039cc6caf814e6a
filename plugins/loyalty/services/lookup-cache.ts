import type Redis from 'ioredis';
import type { LoyaltyCustomer } from '../providers/types';

/**
 * A short cache of a remote provider's answers per organization and phone (LOYALTY_CACHE_SECONDS, at most 60),
 * so analytics' per-phone lookups do not hammer the provider. It holds members and "not a member" answers;
 * a failure is never put in it. On Redis when REDIS_URL is set (shared by the nodes), else in this process.
 * A Redis that is down or slow is a miss, never an error.
 */
export interface LookupCache {
    /** The cached answer: a customer, null for "not a member", undefined when nothing is cached. */
    get(key: string): Promise<LoyaltyCustomer | null | undefined>;
    set(key: string, value: LoyaltyCustomer | null): Promise<void>;
    /** Forgets a key (a customer's data erased, issue 25). */
    delete(key: string): Promise<void>;
}

/** The most entries the in-process cache holds (the oldest go first). */
const MEMORY_ENTRIES = 10_000;

export class MemoryLookupCache implements LookupCache {
    private readonly entries = new Map<string, { expires: number; value: LoyaltyCustomer | null }>();

    constructor(private readonly seconds: number) {}

    async get(key: string): Promise<LoyaltyCustomer | null | undefined> {
        const entry = this.entries.get(key);
        if (!entry) {
            return undefined;
        }
        if (entry.expires <= Date.now()) {
            this.entries.delete(key);
            return undefined;
        }
        return entry.value;
    }

    async set(key: string, value: LoyaltyCustomer | null): Promise<void> {
        if (this.seconds <= 0) {
            return;
        }
        this.entries.delete(key);
        this.entries.set(key, { expires: Date.now() + this.seconds * 1000, value });
        while (this.entries.size > MEMORY_ENTRIES) {
            this.entries.delete(this.entries.keys().next().value as string);
        }
    }

    async delete(key: string): Promise<void> {
        this.entries.delete(key);
    }
}

export class RedisLookupCache implements LookupCache {
    constructor(private readonly redis: Redis, private readonly prefix: string, private readonly seconds: number) {}

    async get(key: string): Promise<LoyaltyCustomer | null | undefined> {
        if (this.seconds <= 0 || this.redis.status !== 'ready') {
            return undefined;
        }
        try {
            const text = await this.redis.get(`${this.prefix}:loyalty-cache:${key}`);
            return text === null ? undefined : (JSON.parse(text) as { v: LoyaltyCustomer | null }).v;
        }
        catch {
            return undefined;
        }
    }

    async set(key: string, value: LoyaltyCustomer | null): Promise<void> {
        if (this.seconds <= 0 || this.redis.status !== 'ready') {
            return;
        }
        try {
            await this.redis.set(`${this.prefix}:loyalty-cache:${key}`, JSON.stringify({ v: value }), 'EX', this.seconds);
        }
        catch {
            // A cache that cannot be written is only a cache miss next time.
        }
    }

    async delete(key: string): Promise<void> {
        await this.redis.del(`${this.prefix}:loyalty-cache:${key}`).catch(() => undefined);
    }
}
