/**
 * Where a bench keeps its rows: its own PostgreSQL schema when DATABASE_URL names PostgreSQL (dropped at the
 * end, so runs never see each other's rows), else a SQLite file in the bench's data folder; Redis when
 * REDIS_URL is set. Returns the environment to hand to loadConfig, the PostgreSQL URL if any, and the cleanup.
 */
import * as Path from 'path';
import Knex from 'knex';

export async function benchDatabase(name: string, dataDir: string): Promise<{ env: Record<string, string>; pgUrl: string | null; drop(): Promise<void> }> {
    const env: Record<string, string> = {};
    let drop = async (): Promise<void> => undefined;
    const pgUrl = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL! : null;
    if (pgUrl) {
        const schema = name.replace(/[^a-z0-9_]/gi, '_');
        const admin = Knex({ client: 'pg', connection: pgUrl });
        try {
            await admin.raw(`create schema "${schema}"`);
        }
        finally {
            await admin.destroy();
        }
        env.DATABASE_URL = pgUrl;
        env.DATABASE_SCHEMA = schema;
        drop = async () => {
            const knex = Knex({ client: 'pg', connection: pgUrl });
            try {
                await knex.raw(`drop schema if exists "${schema}" cascade`);
            }
            finally {
                await knex.destroy();
            }
        };
    }
    else {
        env.DATABASE_URL = `sqlite:${Path.join(dataDir, 'bench.sqlite')}`;
    }
    if (process.env.REDIS_URL) {
        env.REDIS_URL = process.env.REDIS_URL;
    }
    return { env, pgUrl, drop };
}
