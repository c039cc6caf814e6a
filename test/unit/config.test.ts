import { expect } from 'chai';
import * as Os from 'os';
import * as Fs from 'fs';
import * as Path from 'path';
import { loadConfig, ConfigError } from '../../config';

describe('configuration', () => {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-config-'));
    after(() => Fs.rmSync(dataDir, { recursive: true, force: true }));

    it('uses the embedded SQLite default and port 3000 with no settings', () => {
        const config = loadConfig({ DATA_DIR: dataDir });
        expect(config.port).to.equal(3000);
        expect(config.database).to.deep.equal({ client: 'sqlite', filename: Path.join(dataDir, 'loyalty-chat.sqlite') });
        expect(config.redisUrl).to.equal(null);
    });

    it('rejects a non-numeric PORT naming the variable', () => {
        expect(() => loadConfig({ DATA_DIR: dataDir, PORT: 'abc' })).to.throw(ConfigError, /"PORT" must be a number/);
    });

    it('reads postgres:// and sqlite:PATH database URLs', () => {
        expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@h/db' }).database.client).to.equal('postgres');
        expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'sqlite:/tmp/x.db' }).database).to.deep.equal({ client: 'sqlite', filename: '/tmp/x.db' });
        expect(() => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'mysql://x' })).to.throw(ConfigError, /DATABASE_URL/);
    });

    it('generates and keeps a JWT secret outside production', () => {
        const first = loadConfig({ DATA_DIR: dataDir });
        const second = loadConfig({ DATA_DIR: dataDir });
        expect(first.jwtSecret).to.have.length.greaterThan(31);
        expect(second.jwtSecret).to.equal(first.jwtSecret);
        expect(first.jwtSecretGenerated).to.equal(true);
    });

    it('refuses to start in production without JWT_SECRET', () => {
        expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' })).to.throw(ConfigError, /JWT_SECRET/);
        expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', JWT_SECRET: 'short' })).to.throw(ConfigError, /JWT_SECRET/);
    });

    it('reads settings from CONFIG_FILE, with the environment winning', () => {
        const file = Path.join(dataDir, 'config.json');
        Fs.writeFileSync(file, JSON.stringify({ PORT: 4100, LOG_LEVEL: 'warn' }));
        const config = loadConfig({ DATA_DIR: dataDir, CONFIG_FILE: file, LOG_LEVEL: 'error' });
        expect(config.port).to.equal(4100);
        expect(config.logLevel).to.equal('error');
    });
});
