import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import Database from 'better-sqlite3';
import type { Server } from '@hapi/hapi';
import { loadConfig } from '../../config';
import { createServer, migratorFor } from '../../core/server';
import { plugins } from '../../plugins';

/** The embedded default keeps password hashes, customer data and the signing key: only its owner reads them. */
describe('data at rest on the embedded default', () => {
    let parent: string;
    let server: Server | null = null;

    beforeEach(() => {
        parent = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-at-rest-'));
    });
    afterEach(async () => {
        await server?.stop({ timeout: 2000 });
        server = null;
        Fs.rmSync(parent, { recursive: true, force: true });
    });

    /** Starts a listening server on the default SQLite file in dataDir with a generated secret, and writes a row. */
    async function start(dataDir: string): Promise<void> {
        // Always SQLite, whatever DATABASE_URL the suite runs with: these are the SQLite files.
        const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, SEED_DEMO_ON_EMPTY: 'false' });
        expect(config.database).to.deep.equal({ client: 'sqlite', filename: Path.join(dataDir, 'loyalty-chat.sqlite') });
        expect(config.jwtSecretGenerated).to.equal(true);
        server = await createServer(config, plugins);
        await migratorFor(server).latest();
        await server.start();
        await server.app.services.tenants.createOrganization({ name: 'Modes', domain: 'modes.test', subdomain: 'modes' });
    }

    const mode = (file: string) => Fs.statSync(file).mode & 0o777;

    function expectPrivate(dataDir: string): void {
        const db = Path.join(dataDir, 'loyalty-chat.sqlite');
        expect(mode(dataDir), 'data folder').to.equal(0o700);
        for (const file of [db, `${db}-wal`, `${db}-shm`, Path.join(dataDir, 'jwt-secret')]) {
            expect(Fs.existsSync(file), file).to.equal(true);
            expect(mode(file), Path.basename(file)).to.equal(0o600);
        }
    }

    it('creates the data folder 0700 and the database, its -wal and -shm files and the JWT secret 0600', async () => {
        const dataDir = Path.join(parent, 'nested', 'data');
        await start(dataDir);
        expectPrivate(dataDir);
    });

    it('tightens an existing data folder and database file that others could read', async () => {
        const dataDir = Path.join(parent, 'data');
        Fs.mkdirSync(dataDir, { mode: 0o755 });
        Fs.chmodSync(dataDir, 0o755);
        const file = Path.join(dataDir, 'loyalty-chat.sqlite');
        const old = new Database(file);
        old.exec('create table earlier (id integer)');
        old.close();
        Fs.chmodSync(file, 0o644);
        expect(mode(file)).to.equal(0o644);

        await start(dataDir);
        expectPrivate(dataDir);
    });
});
