import { expect } from 'chai';
import { hostOf, originAllowed } from '../../core/http/origins';

describe('page origins and an organization\'s domains', () => {
    it('takes the lower-case host name of a URL or origin, and null for anything else', () => {
        expect(hostOf('https://Shop.Example.TEST:8443/cart?x=1')).to.equal('shop.example.test');
        expect(hostOf('http://[2001:db8::1]:3000')).to.equal('[2001:db8::1]');
        for (const nothing of [undefined, null, '', 'not a url', '/relative/path', 'file:///etc/passwd']) {
            expect(hostOf(nothing), String(nothing)).to.equal(null);
        }
    });

    it('allows the organization\'s domains and their subdomains, PUBLIC_URL\'s host and the API\'s own origin, and nothing that only looks alike', () => {
        const organization = { domain: 'shop.test', extraDomains: ['shop-eu.test'] };
        expect(originAllowed('https://shop.test', organization, null)).to.equal(true);
        expect(originAllowed('https://www.shop.test', organization, null)).to.equal(true);
        expect(originAllowed('https://shop-eu.test', organization, null)).to.equal(true);
        expect(originAllowed('https://chat.example.test', organization, 'https://chat.example.test')).to.equal(true);
        expect(originAllowed('http://127.0.0.1:3000', organization, null, '127.0.0.1:3000')).to.equal(true);
        for (const other of ['https://evilshop.test', 'https://shop.test.evil.test', 'https://other.test', 'null', 'not an origin']) {
            expect(originAllowed(other, organization, 'https://chat.example.test', '127.0.0.1:3000'), other).to.equal(false);
        }
    });
});
