import Hapi, { Request, Server } from '@hapi/hapi';
import Inert from '@hapi/inert';
import Redis from 'ioredis';
import pino, { Logger } from 'pino';
import type { Config } from '../config';
import { createDb, dbClientName, Migrator } from './db';
import { BullQueue, JobQueue, MemoryQueue } from './jobs';
import { MemoryPubSub, PubSub, RedisPubSub } from './realtime/pubsub';
import { Realtime } from './realtime/socket-server';
import { registerErrorHandling, validationFailAction } from './http/errors';
import { rejectControlCharacters } from './http/text';
import type { AppContext, Services } from './types';
import type { FeaturePlugin } from './types/feature';
import { ROOT, PUBLIC_DIR, packageVersion } from './paths';
import { usePasswordCost } from './auth/passwords';
import { AuditTrail } from './privacy/audit';
import { registerRouteAudit } from './http/audit-routes';
import { PersonalDataRegistry } from './privacy/personal-data';

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
    /** A pino logger to write to instead of one made from config.logLevel (LOG_REDACT_PATHS apply to it too). */
    logger?: Logger;
    /** Log each request (default true unless LOG_LEVEL is silent). */
    logRequests?: boolean;
}

/**
 * What the logs never hold (DESIGN §8): credentials in request and response headers (hapi-pino logs `req` with
 * every header and `res` with the response's), tokens, passwords and codes in a logged query, payload or error.
 * The widget key (`x-widget-key`, `?key=`) is public and stays readable.
 */
export const LOG_REDACT_PATHS = [
    'req.headers.authorization', 'req.headers["proxy-authorization"]', 'req.headers.cookie',
    'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie',
    ...['token', 'access_token', 'password', 'code'].map((k) => `req.query.${k}`),
    'payload.code',
    ...['password', 'newPassword', 'currentPassword', 'token', 'authorization', 'apiKey'].flatMap((k) => [`payload.${k}`, `*.${k}`]),
    // A loyalty provider's key (Alpine IQ's X-APIKEY), should a request to it ever be logged.
    'req.headers["x-apikey"]', 'headers["x-apikey"]',
    // A joi ValidationError keeps the value it checked (a login payload, say).
    'err._original', 'err.data._original'
];

/** A path with the JWTs in it replaced (DESIGN §8: logs never hold tokens, also when a link's path carries one). */
export function maskPathTokens(path: string): string {
    return path.replace(/eyJ[\w-]*\.[\w-]+\.[\w-]+/g, '[Redacted]');
}

/**
 * The server's logger: the given one (or one made from config.logLevel), as a child with LOG_REDACT_PATHS.
 * Redaction goes on the pino logger itself: hapi-pino's own `redact` option is ignored when it is handed an
 * instance, so every request line used to carry the caller's Bearer token.
 */
export function serverLogger(config: Config, logger?: Logger): Logger {
    const base = logger ?? pino({ level: config.logLevel, base: { node: config.nodeId } });
    return base.child({}, { redact: { paths: LOG_REDACT_PATHS, censor: '[Redacted]' } });
}

/** HSTS only when PUBLIC_URL says the server is reached over https (a browser ignores it over http anyway). */
function hstsOf(config: Config): { maxAge: number; includeSubDomains: boolean } | false {
    return config.publicUrl?.startsWith('https://') ? { maxAge: 31536000, includeSubDomains: true } : false;
}

/**
 * Builds the hapi server with the given feature plugins registered (the list is plugins/index.ts: core never
 * imports a plugin). It does not migrate and
 * does not listen: call `server.start()` (or `server.initialize()`), and `server.stop()` to close the
 * database, Redis, the job queue and pub/sub.
 */
export async function createServer(config: Config, features: FeaturePlugin[], options: CreateServerOptions = {}): Promise<Server> {
    const log = serverLogger(config, options.logger);
    usePasswordCost(config.passwordHashCost);
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
            security: { hsts: hstsOf(config), noSniff: true, referrer: 'strict-origin-when-cross-origin' }
        }
    });

    const app: AppContext = {
        config,
        db,
        dbClient: dbClientName(db),
        redis,
        jobs,
        pubsub,
        realtime: new Realtime(server, pubsub, log),
        log,
        services: {} as Services,
        personalData: new PersonalDataRegistry(),
        audit: new AuditTrail(config.jwtSecret, log),
        features,
        version: packageVersion()
    };
    Object.assign(server.app, app);

    registerErrorHandling(server);
    registerRouteAudit(server);
    rejectControlCharacters(server);
    await server.register([
        {
            plugin: require('hapi-pino'),
            options: {
                instance: log,
                logRequestComplete: options.logRequests ?? config.logLevel !== 'silent',
                ignorePaths: ['/health'],
                // A link whose path is its credential (the mailed link to rate a chat, /rate/<JWT>): logged without it.
                serializers: { req: (req: { url?: unknown }) => (typeof req.url === 'string' ? { ...req, url: maskPathTokens(req.url) } : req) },
                customRequestCompleteMessage: (request: Request, responseTime: number) =>
                    `[response] ${request.method} ${maskPathTokens(request.path)} ${request.raw.res.headersSent ? request.raw.res.statusCode : '-'} (${responseTime}ms)`
            }
        },
        Inert
    ]);

    for (const feature of features) {
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

/** The migrator over every registered feature plugin's migrations (core owns no tables). */
export function migratorFor(server: Server): Migrator {
    return new Migrator(server.app.db, server.app.features.flatMap((feature) => feature.migrations ?? []));
}
