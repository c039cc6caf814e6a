import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import Knex from 'knex';
import type { Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import { loadConfig, Config } from '../../config';
import { createServer, migratorFor } from '../../core/server';
import { deleteKeysWithPrefix } from '../../core/db/redis-keys';
import { plugins } from '../../plugins';

export interface TestServer {
    server: Server;
    config: Config;
    /** Base URL when started with listen: true. */
    url: string;
    /** Stops the server and (unless shared with another test server) drops its database. */
    close(): Promise<void>;
    /** Settings for a second node on the same database and Redis prefix. */
    shared: { env: Record<string, string> };
}

export const usingPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
export const usingRedis = !!process.env.REDIS_URL;

function randomId(): string {
    return Crypto.randomBytes(5).toString('hex');
}

/**
 * Starts a loyalty-chat server on a fresh database for one test file: a new SQLite file, or a new
 * PostgreSQL schema when DATABASE_URL is set, and a new Redis key prefix when REDIS_URL is set. Pass
 * `shareWith` to start another node on the same database (multi-node tests), `logger` to read its log.
 */
export async function startTestServer(options: { env?: Record<string, string>; listen?: boolean; shareWith?: TestServer; logger?: Logger } = {}): Promise<TestServer> {
    const id = randomId();
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-test-'));
    let dropSchema: (() => Promise<void>) | null = null;
    let env: Record<string, string>;

    if (options.shareWith) {
        env = { ...options.shareWith.shared.env };
    }
    else {
        env = {
            NODE_ENV: 'test',
            LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
            HOST: '127.0.0.1',
            PORT: '0',
            JWT_SECRET: Crypto.randomBytes(32).toString('hex'),
            SEED_DEMO_ON_EMPTY: 'false',
            PASSWORD_HASH_COST: 'test',
            // Sentence meanings are on in production; here only the files about the agent turn them on (AI_MEANINGS: 'on'):
            // encoding a store's texts takes CPU that the other files' browsers would wait for. With them, a question waits
            // for its store's meanings however slow the machine (production: 2 s, then words alone).
            AI_MEANINGS: 'off',
            AI_MEANINGS_WAIT_MS: '120000',
            REDIS_PREFIX: `lct${id}`
        };
        if (usingPostgres) {
            const schema = `t_${id}`;
            const admin = Knex({ client: 'pg', connection: process.env.DATABASE_URL });
            // pg_trgm (the history search index) in public, shared by every test schema: created by a schema's own
            // migration it would live in that schema, and dropping it with that file's schema (CASCADE) would drop the
            // other files' indexes with it, deadlocking their queries on chat_messages (seen as 500s under load).
            await admin.raw('create extension if not exists pg_trgm schema public').catch(() => undefined);
            // unaccent (the history search's text configuration, issue 28) likewise.
            await admin.raw('create extension if not exists unaccent schema public').catch(() => undefined);
            await admin.raw(`create schema "${schema}"`);
            await admin.destroy();
            env.DATABASE_URL = process.env.DATABASE_URL!;
            env.DATABASE_SCHEMA = schema;
            dropSchema = async () => {
                const knex = Knex({ client: 'pg', connection: process.env.DATABASE_URL });
                try {
                    // Test files run in parallel: two DROP SCHEMA … CASCADE can deadlock on shared catalog rows
                    // (PostgreSQL then aborts one of them); that one tries again.
                    for (let attempt = 1; ; attempt++) {
                        try {
                            await knex.raw(`drop schema if exists "${schema}" cascade`);
                            break;
                        }
                        catch (err) {
                            if ((err as { code?: string }).code !== '40P01' || attempt >= 5) {
                                throw err;
                            }
                            await new Promise((r) => setTimeout(r, 50 * attempt));
                        }
                    }
                }
                finally {
                    await knex.destroy();
                }
            };
        }
        else {
            env.DATABASE_URL = `sqlite:${Path.join(dataDir, 'test.sqlite')}`;
        }
        if (usingRedis) {
            env.REDIS_URL = process.env.REDIS_URL!;
        }
    }
    const settings: Record<string, string> = { ...env, DATA_DIR: dataDir, NODE_ID: `node-${id}`, ...options.env };
    if (settings.NODE_ENV !== 'test') {
        delete settings.PASSWORD_HASH_COST;      // cheap hashes exist for test servers only
    }
    const config = loadConfig(settings);
    const server = await createServer(config, plugins, { logger: options.logger });
    await migratorFor(server).latest();
    if (options.listen) {
        await server.start();
    }
    else {
        await server.initialize();
    }
    const url = options.listen ? `http://127.0.0.1:${server.info.port}` : '';
    return {
        server,
        config,
        url,
        shared: { env },
        async close() {
            await server.stop({ timeout: 2000 });
            if (dropSchema) {
                await dropSchema();
            }
            if (usingRedis && !options.shareWith) {
                await deleteKeysWithPrefix(process.env.REDIS_URL!, `lct${id}`);
            }
            Fs.rmSync(dataDir, { recursive: true, force: true });
        }
    };
}

export interface Tenant {
    organization: { id: number; subdomain: string; name: string; domain: string };
    bot: { id: number; publicKey: string };
    admin: { id: number; email: string; password: string; token: string };
    orgUser: { id: number; email: string; password: string; token: string };
}

/** Creates an organization with a bot instance, an admin and an org user, and logs both in. */
export async function createTenant(server: Server, subdomain: string, domain = 'localhost'): Promise<Tenant> {
    const tenants = server.app.services.tenants;
    const organization = await tenants.createOrganization({ name: `Store ${subdomain}`, domain, subdomain });
    const bot = await tenants.createBotInstance({ organizationId: organization.id, name: `${subdomain} widget` });
    const password = 'correct-horse-battery';
    const users = server.app.services.users;
    const admin = await users.create({ email: `admin@${subdomain}.test`, password, role: 'admin', organizationId: organization.id });
    const orgUser = await users.create({ email: `owner@${subdomain}.test`, password, role: 'org_user', organizationId: organization.id });
    const { signUserToken } = await import('../../core/auth/tokens');
    const token = (u: { id: number; role: 'admin' | 'org_user' }) =>
        signUserToken(server.app.config.jwtSecret, { id: u.id, role: u.role, organizationId: organization.id, tokenVersion: 0 });
    return {
        organization,
        bot: { id: bot.id, publicKey: bot.publicKey },
        admin: { id: admin.id, email: admin.email, password, token: token({ id: admin.id, role: 'admin' }) },
        orgUser: { id: orgUser.id, email: orgUser.email, password, token: token({ id: orgUser.id, role: 'org_user' }) }
    };
}

/**
 * A listening test server with these stores (store `x` is `x.test`, with the admin and org user of createTenant):
 * the set-up most live chat files share. `t.close()` in the file's `after` closes it.
 */
export async function startWithStores(subdomains: string[], options: Parameters<typeof startTestServer>[0] = {}): Promise<{ t: TestServer; stores: Tenant[] }> {
    const t = await startTestServer({ listen: true, ...options });
    const stores: Tenant[] = [];
    for (const subdomain of subdomains) {
        stores.push(await createTenant(t.server, subdomain, `${subdomain}.test`));
    }
    return { t, stores };
}

export function bearer(token: string): { authorization: string } {
    return { authorization: `Bearer ${token}` };
}

/**
 * Runs `work` while the database is busy: SQLite's one connection taken by an open transaction, or on PostgreSQL these
 * tables locked (reads wait too). The server's queries wait until `work` has ended.
 */
export async function whileDatabaseBusy(server: Server, postgresTables: string[], work: () => Promise<void>): Promise<void> {
    const hold = await server.app.db.transaction();
    try {
        if (usingPostgres) {
            await hold.raw(`lock table ${postgresTables.join(', ')} in access exclusive mode`);
        }
        await work();
    }
    finally {
        await hold.commit();
    }
}
