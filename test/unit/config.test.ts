import { expect } from 'chai';
import * as Os from 'os';
import * as Fs from 'fs';
import * as Path from 'path';
import * as Crypto from 'crypto';
import { loadConfig, ConfigError, estimateSecretEntropy, localBaseUrl } from '../../config';

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

    for (const [what, secret] of [
        ['32 times the same character', 'a'.repeat(32)],
        ['a four-character pattern repeated', 'abcd'.repeat(8)],
        ['a digit sequence', '0123456789'.repeat(4)],
        ['an alphabet sequence', 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
        ['a descending sequence', 'zyxwvutsrqponmlkjihgfedcba9876543210'],
        ['a random-looking 16-character chunk repeated', 'k3J9xQ2mP8vL1nR7'.repeat(2)],
        ['a repeated chunk behind a prefix', 'secret-' + 'k3J9xQ2mP8vL1nR7'.repeat(3)]
    ]) {
        it(`refuses a JWT_SECRET that is ${what}, naming the variable and how to make one`, () => {
            for (const env of ['development', 'production']) {
                expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: env, JWT_SECRET: secret }), `${env}: ${secret}`)
                    .to.throw(ConfigError, /"JWT_SECRET" is too predictable.*openssl rand -base64 48/);
            }
        });
    }

    it('accepts random JWT secrets: hex of 32 bytes and base64 of 48 bytes', () => {
        for (let i = 0; i < 300; i++) {
            for (const secret of [Crypto.randomBytes(32).toString('hex'), Crypto.randomBytes(48).toString('base64'), Crypto.randomBytes(48).toString('base64url')]) {
                expect(estimateSecretEntropy(secret), secret).to.be.at.least(128);
                expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', JWT_SECRET: secret }).jwtSecret).to.equal(secret);
            }
        }
    });

    it('says how to make a JWT_SECRET when production has none or a short one', () => {
        expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' })).to.throw(ConfigError, /"JWT_SECRET" is required.*openssl rand -base64 48/);
        expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'short' })).to.throw(ConfigError, /"JWT_SECRET" must be at least 32 characters.*openssl rand -base64 48/);
    });

    it('seeds the demo tenant on an empty database by default outside production only', () => {
        const secret = Crypto.randomBytes(32).toString('hex');
        expect(loadConfig({ DATA_DIR: dataDir }).seedDemoOnEmpty).to.equal(true);
        expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }).seedDemoOnEmpty).to.equal(true);
        expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', JWT_SECRET: secret }).seedDemoOnEmpty).to.equal(false);
        expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', JWT_SECRET: secret, SEED_DEMO_ON_EMPTY: 'true' }).seedDemoOnEmpty).to.equal(true);
        expect(loadConfig({ DATA_DIR: dataDir, SEED_DEMO_ON_EMPTY: 'false' }).seedDemoOnEmpty).to.equal(false);
        expect(() => loadConfig({ DATA_DIR: dataDir, SEED_DEMO_ON_EMPTY: 'maybe' })).to.throw(ConfigError, /SEED_DEMO_ON_EMPTY/);
    });

    it('names the local address by the real port, localhost for a wildcard bind', () => {
        expect(localBaseUrl('0.0.0.0', 4321)).to.equal('http://localhost:4321');
        expect(localBaseUrl('::', 4321)).to.equal('http://localhost:4321');
        expect(localBaseUrl('127.0.0.1', 4321)).to.equal('http://127.0.0.1:4321');
        expect(localBaseUrl('::1', 4321)).to.equal('http://[::1]:4321');
    });

    it('reads settings from CONFIG_FILE, with the environment winning', () => {
        const file = Path.join(dataDir, 'config.json');
        Fs.writeFileSync(file, JSON.stringify({ PORT: 4100, LOG_LEVEL: 'warn' }));
        const config = loadConfig({ DATA_DIR: dataDir, CONFIG_FILE: file, LOG_LEVEL: 'error' });
        expect(config.port).to.equal(4100);
        expect(config.logLevel).to.equal('error');
    });
});
