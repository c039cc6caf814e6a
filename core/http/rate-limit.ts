import Boom from '@hapi/boom';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RateLimiterAbstract } from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import type { Config } from '../../config';
import { coded, CustomerError } from './errors';

export interface LimitOptions {
    /** A distinct name per limit, e.g. 'login-ip'. */
    name: string;
    /** How many events are allowed… */
    points: number;
    /** …per this many seconds. */
    duration: number;
    /** Seconds to block once exhausted (default: the rest of the window). */
    blockDuration?: number;
}

/**
 * A rate limit shared by every node: in memory on the embedded default, on Redis when REDIS_URL is set
 * (DESIGN §3). `consume` throws a 429 with Retry-After when the limit is exhausted. While Redis is down or
 * hung the limit is kept per node in memory, so a Redis outage never holds a request up past the client's
 * command timeout.
 */
/** Where limits count: Redis when set, else this process (`server.app` is one). */
export interface LimitBackend {
    redis: Redis | null;
    config: Pick<Config, 'redisPrefix'>;
}

export class Limit {
    readonly limiter: RateLimiterAbstract;

    constructor(app: LimitBackend, private readonly options: LimitOptions) {
        const common = { keyPrefix: `${app.config.redisPrefix}:rl:${options.name}`, points: options.points, duration: options.duration, blockDuration: options.blockDuration };
        this.limiter = app.redis
            // While Redis is down (not 'ready') or does not answer within the client's commandTimeout, the same
            // limit counts in this process (insuranceLimiter) instead of waiting.
            ? new RateLimiterRedis({ ...common, storeClient: app.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(common) })
            : new RateLimiterMemory(common);
    }

    /**
     * Counts one event for key; throws 429 (with Retry-After and the given message, and its code when a customer may
     * read it) past the limit.
     */
    async consume(key: string, message: string | CustomerError = 'Too many requests. Please try again later.', points = 1): Promise<void> {
        try {
            await this.limiter.consume(key, points);
        }
        catch (err) {
            if (err instanceof RateLimiterRes) {
                throw typeof message === 'string' ? tooMany(message, err.msBeforeNext) : tooMany(message.message, err.msBeforeNext, message.code);
            }
            throw err;
        }
    }

    /** True when key has no points left (without counting an event). */
    async exhausted(key: string): Promise<{ limited: boolean; retryAfterMs: number }> {
        const res = await this.limiter.get(key);
        if (!res) {
            return { limited: false, retryAfterMs: 0 };
        }
        return { limited: res.consumedPoints >= this.options.points, retryAfterMs: res.msBeforeNext };
    }

    async reset(key: string): Promise<void> {
        await this.limiter.delete(key);
    }
}

export function tooMany(message: string, retryAfterMs: number, code?: string): Boom.Boom {
    const boom = Boom.tooManyRequests(message);
    if (code) {
        coded(boom, code);
    }
    boom.output.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    return boom;
}
