import * as Crypto from 'crypto';
import { expect } from 'chai';
import { hashPassword, usePasswordCost, verifyPassword } from '../../core/auth/passwords';
import { loadConfig } from '../../config';

describe('password hashes', function () {
    this.timeout(60000);      // one OWASP hash takes 128 MiB and ~0.3 s, many seconds on a loaded machine
    after(() => usePasswordCost('test'));

    it('are scrypt at the OWASP minimum (N=2^17, r=8, p=1) unless a test server asks for cheap ones', async () => {
        usePasswordCost('owasp');
        const hash = await hashPassword('correct horse');
        expect(hash.split('$').slice(0, 4)).to.deep.equal(['scrypt', '131072', '8', '1']);
        expect(await verifyPassword('correct horse', hash)).to.equal(true);
        expect(await verifyPassword('correct horsE', hash)).to.equal(false);
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
