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

export class Migrator {
    private readonly source: ListMigrationSource;

    constructor(private readonly db: Db, migrations: MigrationEntry[]) {
        this.source = new ListMigrationSource(migrations);
    }

    private get config(): KnexTypes.MigratorConfig {
        return { migrationSource: this.source, tableName: 'knex_migrations' };
    }

    async latest(): Promise<string[]> {
        const [, names] = await this.db.migrate.latest(this.config);
        return names as string[];
    }

    async rollback(all = false): Promise<string[]> {
        const [, names] = await this.db.migrate.rollback(this.config, all);
        return names as string[];
    }

    async status(): Promise<MigrationStatus> {
        const [completed, pending] = await this.db.migrate.list(this.config);
        return {
            completed: (completed as Array<{ name: string }>).map((m) => m.name),
            pending: (pending as Array<{ name?: string; file?: string } | string>).map((m) => (typeof m === 'string' ? m : m.name ?? m.file ?? String(m)))
        };
    }
}

export { MigrationEntry } from './migration-source';
