import * as Crypto from 'crypto';
import { expect } from 'chai';
import { hashPassword, needsRehash, usePasswordCost, verifyPassword } from '../../core/auth/passwords';
import { loadConfig } from '../../config';

describe('password hashes', function () {
    this.timeout(60000);      // one OWASP hash takes ~0.2 s, seconds on a loaded machine
    after(() => usePasswordCost('test'));

    it('are scrypt at an OWASP minimum (N=2^13, r=8, p=10: as strong as 2^17/8/1 by the cheat sheet, not above) unless a test server asks for cheap ones', async () => {
        usePasswordCost('owasp');
        const hash = await hashPassword('correct horse');
        expect(hash.split('$').slice(0, 4)).to.deep.equal(['scrypt', '8192', '8', '10']);
        // N·r·p, the work OWASP's equivalent configurations share at their minimum: not below 2^13·8·10.
        const [N, r, p] = hash.split('$').slice(1, 4).map(Number);
        expect(N * r * p).to.equal(2 ** 13 * 8 * 10);
        expect(needsRehash(hash)).to.equal(false);
        expect(await verifyPassword('correct horse', hash)).to.equal(true);
        expect(await verifyPassword('correct horsE', hash)).to.equal(false);
    });

    it('verify a hash of the earlier parameters (N=2^17, p=1), which needs a rehash', async () => {
        usePasswordCost('owasp');
        const salt = Crypto.randomBytes(16);
        const key = Crypto.scryptSync('old-pw', salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
        const old = ['scrypt', 2 ** 17, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
        expect(await verifyPassword('old-pw', old)).to.equal(true);
        expect(needsRehash(old)).to.equal(true);
    });

    it('verify a hash made at either cost, whatever the current cost, because a hash names its parameters', async () => {
        usePasswordCost('test');
        const cheap = await hashPassword('pw-one');
        expect(cheap.split('$')[1]).to.equal('1024');
        usePasswordCost('owasp');
        expect(await verifyPassword('pw-one', cheap)).to.equal(true);
    });

    it('cannot be made cheap outside NODE_ENV=test', () => {
        expect(() => loadConfig({ NODE_ENV: 'development', PASSWORD_HASH_COST: 'test', DATA_DIR: '/tmp/lc-cost-test' }))
            .to.throw(/"PASSWORD_HASH_COST" may be "test" only when NODE_ENV=test/);
        expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_COST: 'test', JWT_SECRET: Crypto.randomBytes(32).toString('hex') }))
            .to.throw(/PASSWORD_HASH_COST/);
        expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'test', DATA_DIR: '/tmp/lc-cost-test' }).passwordHashCost).to.equal('test');
    });
});
