import type { Logger } from 'pino';
import type { AuditTrail } from '../privacy/audit';
import type { PersonalDataRegistry } from '../privacy/personal-data';
import type Redis from 'ioredis';
import type { Config } from '../../config';
import type { Db, DbClient } from '../db';
import type { JobQueue } from '../jobs';
import type { PubSub } from '../realtime/pubsub';
import type { Realtime } from '../realtime/socket-server';
import type { FeaturePlugin } from './feature';

/**
 * Services that plugins expose to each other. Each plugin adds its own entry with declaration merging:
 *
 *     declare module '../../core/types' { interface Services { questions: QuestionService } }
 *
 * and registers it with `provide(server, 'questions', service)`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

/** What every plugin can reach through `server.app`. */
export interface AppContext {
    config: Config;
    db: Db;
    dbClient: DbClient;
    /** Shared Redis connection when REDIS_URL is set. */
    redis: Redis | null;
    jobs: JobQueue;
    pubsub: PubSub;
    /** WebSockets (nes) and their fan-out; the livechat plugin registers the endpoint. */
    realtime: Realtime;
    log: Logger;
    services: Services;
    /** The port every plugin keeping customers' data plugs into: export and erasure (issue 25). */
    personalData: PersonalDataRegistry;
    /** Who did what and when (issue 25): any plugin records, the privacy plugin stores. */
    audit: AuditTrail;
    /** The feature plugins this server was built with (plugins/index.ts), in their order. */
    features: FeaturePlugin[];
    version: string;
}

declare module '@hapi/hapi' {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface ServerApplicationState extends AppContext {}
}

export function provide<K extends keyof Services>(server: { app: AppContext }, name: K, service: Services[K]): void {
    if ((server.app.services as unknown as Record<string, unknown>)[name as string]) {
        throw new Error(`Service ${String(name)} is already provided`);
    }
    (server.app.services as unknown as Record<string, unknown>)[name as string] = service;
}
