import { expect } from 'chai';
import { loadConfig } from '../../config';

const BASE = { NODE_ENV: 'test', DATA_DIR: '/tmp/lc-alpine-config-test', JWT_SECRET: 'x7Gq2pLm9ZtR4vWc8YhN3bKd6FjS1aEu' };

describe('the loyalty provider settings of the server (ALPINEIQ_TIMEOUT_MS, LOYALTY_CACHE_SECONDS)', () => {
    it('defaults to a 4 s timeout and a 30 s lookup cache', () => {
        const config = loadConfig(BASE);
        expect(config.loyalty.alpineiq.timeoutMs).to.equal(4000);
        expect(config.loyalty.cacheSeconds).to.equal(30);
        expect(config.loyalty.alpineiq.baseUrl).to.equal('https://lab.alpineiq.com');
    });

    it('takes values within the limits: a timeout up to 5 s, a cache up to 60 s (0: none)', () => {
        const config = loadConfig({ ...BASE, ALPINEIQ_TIMEOUT_MS: '5000', LOYALTY_CACHE_SECONDS: '0' });
        expect(config.loyalty.alpineiq.timeoutMs).to.equal(5000);
        expect(config.loyalty.cacheSeconds).to.equal(0);
    });

    it('refuses a timeout over 5 s and a cache over 60 s, naming the variable', () => {
        expect(() => loadConfig({ ...BASE, ALPINEIQ_TIMEOUT_MS: '5001' })).to.throw(/ALPINEIQ_TIMEOUT_MS/);
        expect(() => loadConfig({ ...BASE, LOYALTY_CACHE_SECONDS: '61' })).to.throw(/LOYALTY_CACHE_SECONDS/);
        expect(() => loadConfig({ ...BASE, LOYALTY_CACHE_SECONDS: '-1' })).to.throw(/LOYALTY_CACHE_SECONDS/);
    });
});
