import * as Fs from 'fs';
import * as Path from 'path';
import Knex, { Knex as KnexTypes } from 'knex';
import { Model } from 'objection';
import { ensurePrivateDir, ensurePrivateFile } from '../../config';
import type { Config } from '../../config';
import { MigrationEntry, ListMigrationSource } from './migration-source';

export type Db = KnexTypes;
export type DbClient = 'sqlite' | 'postgres';

let pgTypesSet = false;

function setPgTypes(): void {
    if (pgTypesSet) {
        return;
    }
    pgTypesSet = true;
    // int8 (count(*), sum, bigint epoch-ms timestamps) as JS numbers: every value we keep fits in 2^53.
    const pg = require('pg');
    pg.types.setTypeParser(20, (value: string) => Number(value));
    pg.types.setTypeParser(1700, (value: string) => Number(value));
}

/** Opens the database named by the config: SQLite through better-sqlite3, or PostgreSQL through pg. */
export function createDb(database: Config['database']): Db {
    if (database.client === 'sqlite') {
        const file = database.filename === ':memory:' ? null : database.filename;
        if (file) {
            createPrivateSqliteFile(file);
        }
        return Knex({
            client: 'better-sqlite3',
            connection: { filename: database.filename },
            useNullAsDefault: true,
            pool: {
                min: 1,
                max: 1,
                afterCreate: (conn: any, done: (err: Error | null, conn: any) => void) => {
                    conn.pragma('journal_mode = WAL');
                    conn.pragma('foreign_keys = ON');
                    conn.pragma('busy_timeout = 5000');
                    if (file) {
                        // SQLite gives -wal and -shm the database file's mode; these catch older, wider ones.
                        ensurePrivateFile(`${file}-wal`);
                        ensurePrivateFile(`${file}-shm`);
                    }
                    done(null, conn);
                }
            }
        });
    }
    setPgTypes();
    return Knex({
        client: 'pg',
        connection: database.url,
        searchPath: database.schema ? [database.schema] : undefined,
        pool: { min: 0, max: 10 }
    });
}

/**
 * The SQLite file lives in a 0700 folder and is 0600 itself (DESIGN §8: it holds password
 * hashes and customer data). It is created empty with that mode before SQLite opens it, because SQLite
 * creates a database file 0644 and gives its -wal and -shm files the database file's mode.
 */
function createPrivateSqliteFile(file: string): void {
    ensurePrivateDir(Path.dirname(file));
    Fs.closeSync(Fs.openSync(file, Fs.constants.O_CREAT | Fs.constants.O_RDWR, 0o600));
    for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
        ensurePrivateFile(path);
    }
}

export function dbClientName(db: Db): DbClient {
    const client = (db.client as any).config.client as string;
    return client === 'pg' ? 'postgres' : 'sqlite';
}

/** Binds objection's base Model to this knex instance. */
export function bindModels(db: Db): void {
    Model.knex(db);
}

export interface MigrationStatus {
    completed: string[];
    pending: string[];
}

const MIGRATIONS_TABLE = 'knex_migrations';

export class Migrator {
    private readonly source: ListMigrationSource;

    constructor(private readonly db: Db, private readonly migrations: MigrationEntry[]) {
        this.source = new ListMigrationSource(migrations);
    }

    private get config(): KnexTypes.MigratorConfig {
        return { migrationSource: this.source, tableName: MIGRATIONS_TABLE };
    }

    /**
     * A database made before a migration was split (loyalty-chat 0.1.0 recorded '20260101000000-initial', which
     * created every plugin's tables) records the migrations that replace it as done, in the same batch, and
     * forgets the old name: its tables are already there, and knex refuses a recorded name it does not know.
     * Returns the names adopted. Runs in one transaction; a database without the old name is left alone.
     */
    async adoptReplaced(): Promise<string[]> {
        const replaced = [...new Set(this.migrations.map((m) => m.replaces).filter((name): name is string => !!name))];
        if (!replaced.length || !await this.db.schema.hasTable(MIGRATIONS_TABLE)) {
            return [];
        }
        return this.db.transaction(async (trx) => {
            const adopted: string[] = [];
            for (const old of replaced) {
                const row = await trx(MIGRATIONS_TABLE).where('name', old).first() as { batch: number; migration_time: unknown } | undefined;
                if (!row) {
                    continue;
                }
                const done = new Set((await trx(MIGRATIONS_TABLE).select('name') as Array<{ name: string }>).map((r) => r.name));
                for (const migration of this.migrations.filter((m) => m.replaces === old && !done.has(m.name))) {
                    await trx(MIGRATIONS_TABLE).insert({ name: migration.name, batch: row.batch, migration_time: row.migration_time });
                    adopted.push(migration.name);
                }
                await trx(MIGRATIONS_TABLE).where('name', old).delete();
            }
            return adopted;
        });
    }

    async latest(): Promise<string[]> {
        await this.adoptReplaced();
        const [, names] = await this.db.migrate.latest(this.config);
        return names as string[];
    }

    async rollback(all = false): Promise<string[]> {
        await this.adoptReplaced();
        const [, names] = await this.db.migrate.rollback(this.config, all);
        return names as string[];
    }

    async status(): Promise<MigrationStatus> {
        await this.adoptReplaced();
        const [completed, pending] = await this.db.migrate.list(this.config);
        return {
            completed: (completed as Array<{ name: string }>).map((m) => m.name),
            pending: (pending as Array<{ name?: string; file?: string } | string>).map((m) => (typeof m === 'string' ? m : m.name ?? m.file ?? String(m)))
        };
    }
}

export { MigrationEntry } from './migration-source';
