import { expect } from 'chai';
import * as Os from 'os';
import * as Fs from 'fs';
import * as Path from 'path';
import * as Crypto from 'crypto';
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

    it('keeps the generated JWT secret in a 0600 file inside a 0700 data folder', () => {
        const fresh = Path.join(dataDir, 'fresh', 'data');
        loadConfig({ DATA_DIR: fresh });
        expect(Fs.statSync(fresh).mode & 0o777).to.equal(0o700);
        expect(Fs.statSync(Path.join(fresh, 'jwt-secret')).mode & 0o777).to.equal(0o600);
    });

    it('tightens an existing data folder and secret file of ours that others could read', () => {
        const open = Path.join(dataDir, 'open');
        Fs.mkdirSync(open, { mode: 0o755 });
        Fs.chmodSync(open, 0o755);
        const file = Path.join(open, 'jwt-secret');
        Fs.writeFileSync(file, Crypto.randomBytes(48).toString('base64') + '\n', { mode: 0o644 });
        Fs.chmodSync(file, 0o644);
        const before = Fs.readFileSync(file, 'utf8').trim();
        expect(loadConfig({ DATA_DIR: open }).jwtSecret).to.equal(before);
        expect(Fs.statSync(open).mode & 0o777).to.equal(0o700);
        expect(Fs.statSync(file).mode & 0o777).to.equal(0o600);
    });

    it('reads settings from CONFIG_FILE, with the environment winning', () => {
        const file = Path.join(dataDir, 'config.json');
        Fs.writeFileSync(file, JSON.stringify({ PORT: 4100, LOG_LEVEL: 'warn' }));
        const config = loadConfig({ DATA_DIR: dataDir, CONFIG_FILE: file, LOG_LEVEL: 'error' });
        expect(config.port).to.equal(4100);
        expect(config.logLevel).to.equal('error');
    });
});
