import Hapi, { Server } from '@hapi/hapi';
import Inert from '@hapi/inert';
import Redis from 'ioredis';
import pino, { Logger } from 'pino';
import type { Config } from '../config';
import { createDb, dbClientName, Migrator } from './db';
import { BullQueue, JobQueue, MemoryQueue } from './jobs';
import { MemoryPubSub, PubSub, RedisPubSub } from './realtime/pubsub';
import { registerErrorHandling, validationFailAction } from './http/errors';
import { allMigrations, featurePlugins } from './plugins';
import type { AppContext, Services } from './types';
import { ROOT, PUBLIC_DIR, packageVersion } from './paths';

export { ROOT, PUBLIC_DIR, packageVersion };

/**
 * The shared client (rate limits, health). Every command is bounded: unanswered after commandTimeout it fails
 * (a hung Redis), and the rate limits then count in memory (core/http/rate-limit.ts). The offline queue stays
 * on, so the first commands, sent before the connection is 'ready', wait for it (bounded by the same timeout)
 * instead of failing at start-up; while the connection is down the limits do not queue at all
 * (rejectIfRedisNotReady), and what else was queued fails after one reconnect attempt (maxRetriesPerRequest)
 * rather than twenty. Reconnects are tried at least every second so recovery is quick.
 */
export const REDIS_CLIENT_OPTIONS = {
    commandTimeout: 500,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    retryStrategy: (times: number) => Math.min(times * 100, 1000)
};

export interface CreateServerOptions {
    /** A pino logger to use instead of one made from config.logLevel. */
    logger?: Logger;
    /** Log each request (default true unless LOG_LEVEL is silent). */
    logRequests?: boolean;
}

/**
 * Builds the hapi server with every feature plugin of core/plugins.ts registered. It does not migrate and
 * does not listen: call `server.start()` (or `server.initialize()`), and `server.stop()` to close the
 * database, Redis, the job queue and pub/sub.
 */
export async function createServer(config: Config, options: CreateServerOptions = {}): Promise<Server> {
    const log = options.logger ?? pino({ level: config.logLevel, base: { node: config.nodeId } });
    const db = createDb(config.database);
    const redis = config.redisUrl ? new Redis(config.redisUrl, REDIS_CLIENT_OPTIONS) : null;
    redis?.on('error', (err) => log.warn({ err: err.message }, 'redis error'));
    const jobs: JobQueue = config.redisUrl
        ? new BullQueue(config.redisUrl, config.redisPrefix, log)
        : new MemoryQueue(log);
    const pubsub: PubSub = config.redisUrl ? new RedisPubSub(config.redisUrl, config.redisPrefix, log) : new MemoryPubSub();

    const server = Hapi.server({
        port: config.port,
        host: config.host,
        debug: false,
        router: { stripTrailingSlash: true },
        routes: {
            validate: { failAction: validationFailAction, options: { abortEarly: false } },
            response: { emptyStatusCode: 204 },
            payload: { maxBytes: 1024 * 1024 },
            security: { noSniff: true, referrer: 'strict-origin-when-cross-origin' }
        }
    });

    const app: AppContext = {
        config,
        db,
        dbClient: dbClientName(db),
        redis,
        jobs,
        pubsub,
        log,
        services: {} as Services,
        version: packageVersion()
    };
    Object.assign(server.app, app);

    registerErrorHandling(server);
    await server.register([
        {
            plugin: require('hapi-pino'),
            options: {
                instance: log,
                logRequestComplete: options.logRequests ?? config.logLevel !== 'silent',
                ignorePaths: ['/health'],
                redact: ['req.headers.authorization', 'req.headers.cookie']
            }
        },
        Inert
    ]);

    for (const feature of featurePlugins) {
        await server.register(feature.plugin);
    }

    server.ext('onPreStart', async () => {
        await jobs.start();
    });
    server.ext('onPostStop', async () => {
        await jobs.stop();
        await pubsub.close();
        if (redis) {
            redis.disconnect();
        }
        await db.destroy();
    });

    return server;
}

/** The migrator over core's migrations plus every feature plugin's. */
export function migratorFor(server: Server): Migrator {
    return new Migrator(server.app.db, allMigrations());
}
