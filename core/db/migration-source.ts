import type { Knex } from 'knex';

export interface MigrationEntry {
    name: string;
    /**
     * An older migration (by name) whose work includes this one's: a database where that one is recorded has
     * this one's tables already, so it is recorded as done without running (see Migrator.adoptReplaced).
     */
    replaces?: string;
    up(knex: Knex): Promise<void>;
    down(knex: Knex): Promise<void>;
}

/**
 * A knex migration source over an explicit list (core's own plus each plugin's), so that migrations do not
 * depend on scanning folders and run the same from the source tree, dist/ or the npm package.
 */
export class ListMigrationSource implements Knex.MigrationSource<MigrationEntry> {
    private readonly migrations: MigrationEntry[];

    constructor(migrations: MigrationEntry[]) {
        const names = new Set<string>();
        for (const migration of migrations) {
            if (names.has(migration.name)) {
                throw new Error(`Duplicate migration name ${migration.name}`);
            }
            names.add(migration.name);
        }
        this.migrations = [...migrations].sort((a, b) => a.name.localeCompare(b.name));
    }

    async getMigrations(): Promise<MigrationEntry[]> {
        return this.migrations;
    }

    getMigrationName(migration: MigrationEntry): string {
        return migration.name;
    }

    async getMigration(migration: MigrationEntry): Promise<Knex.Migration> {
        return { up: migration.up, down: migration.down };
    }
}
