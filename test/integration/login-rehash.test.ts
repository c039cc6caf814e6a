import * as Crypto from 'crypto';
import { expect } from 'chai';
import { createTenant, startTestServer, TestServer } from '../helpers/server';

/** Issue 23: a password hash of older parameters (N=2^17, p=1) still signs in, and is rehashed as new ones are made. */
describe('a password hash of older parameters is rehashed at login (issue 23)', function () {
    this.timeout(30000);
    let t: TestServer;
    before(async () => {
        t = await startTestServer();
    });
    after(async () => t?.close());

    it('signs in with it, stores the same password hashed with today\'s parameters, and revokes no token', async () => {
        const shop = await createTenant(t.server, 'rehash');
        const user = await t.server.app.services.users.create({ email: 'old@rehash.test', password: 'old-password-1', role: 'admin', organizationId: shop.organization.id });
        const salt = Crypto.randomBytes(16);
        const key = Crypto.scryptSync('old-password-1', salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
        const old = ['scrypt', 2 ** 17, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
        await t.server.app.db('users').where('id', user.id).update({ password_hash: old });
        const before = await t.server.app.db('users').where('id', user.id).first('token_version');

        const login = () => t.server.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'old@rehash.test', password: 'old-password-1' }, remoteAddress: '10.23.1.1' });
        const first = await login();
        expect(first.statusCode, first.payload).to.equal(200);
        const row = await t.server.app.db('users').where('id', user.id).first('password_hash', 'token_version');
        expect(row.password_hash).to.not.equal(old);
        // The test server's cost (PASSWORD_HASH_COST=test): what new hashes get in this process.
        expect(row.password_hash.split('$').slice(0, 4)).to.deep.equal(['scrypt', '1024', '8', '1']);
        expect(row.token_version).to.equal(before.token_version);
        const verify = await t.server.inject({ url: '/api/admin/verify', headers: { authorization: `Bearer ${JSON.parse(first.payload).token}` } });
        expect(verify.statusCode).to.equal(200);
        expect((await login()).statusCode).to.equal(200);
        const wrong = await t.server.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'old@rehash.test', password: 'old-password-2' }, remoteAddress: '10.23.1.1' });
        expect(wrong.statusCode).to.equal(401);
    });
});
