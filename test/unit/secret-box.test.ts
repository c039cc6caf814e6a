import { expect } from 'chai';
import * as Crypto from 'crypto';
import { SecretBox } from '../../core/crypto/secret-box';

describe('the secret box (AES-256-GCM, key by HKDF from the server secret)', () => {
    const secret = 'k'.repeat(8) + Crypto.randomBytes(24).toString('hex');
    const box = new SecretBox(secret, 'loyalty-provider-api-key');

    it('opens what it sealed for the same organization, and the sealed text does not hold the secret', () => {
        const sealed = box.seal('aiq-live-key-5f2e9c', '7');
        expect(sealed).to.match(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
        expect(sealed).not.to.contain('aiq-live-key');
        expect(Buffer.from(sealed.split('.')[2], 'base64url').toString('utf8')).not.to.contain('aiq');
        expect(box.open(sealed, '7')).to.equal('aiq-live-key-5f2e9c');
    });

    it('seals the same secret differently each time (a random IV)', () => {
        expect(box.seal('same', '7')).not.to.equal(box.seal('same', '7'));
    });

    it('does not open a value moved to another organization, altered, sealed under another server secret or purpose, or malformed', () => {
        const sealed = box.seal('aiq-live-key-5f2e9c', '7');
        expect(box.open(sealed, '8')).to.equal(null);
        const parts = sealed.split('.');
        const ct = Buffer.from(parts[2], 'base64url');
        ct[0] ^= 1;
        expect(box.open([parts[0], parts[1], ct.toString('base64url'), parts[3]].join('.'), '7')).to.equal(null);
        expect(new SecretBox(secret + 'x', 'loyalty-provider-api-key').open(sealed, '7')).to.equal(null);
        expect(new SecretBox(secret, 'another-purpose').open(sealed, '7')).to.equal(null);
        for (const bad of ['', 'v1', 'v2.a.b.c', 'v1.a.b.c', `v1.${parts[1]}.${parts[2]}`]) {
            expect(box.open(bad, '7'), bad).to.equal(null);
        }
    });

    it('refuses to work without a server secret', () => {
        expect(() => new SecretBox('', 'x')).to.throw('server secret');
    });
});
