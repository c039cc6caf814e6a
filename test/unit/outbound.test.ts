import * as Http from 'http';
import type { AddressInfo } from 'net';
import { expect } from 'chai';
import { guardedLookup, isForbiddenAddress, OutboundError, outboundRequest, refusedHost, Resolver } from '../../core/http/outbound';

describe('the outbound guard for staff-configured URLs (core/http/outbound.ts)', () => {
    it('refuses loopback, private, link-local, CGNAT, unspecified, metadata, multicast and reserved addresses, IPv4 inside IPv6 too', () => {
        const forbidden = [
            '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.10', '100.64.0.1', '100.127.255.254',
            '169.254.169.254', '169.254.0.1', '0.0.0.0', '0.1.2.3', '224.0.0.1', '255.255.255.255', '192.0.2.1',
            '::1', '::', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'fe80::1%eth0', 'ff02::1',
            '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '0:0:0:0:0:ffff:c0a8:1', '[::ffff:192.168.1.1]',
            '::127.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2002:a9fe:a9fe::',
            'not-an-address', '', '1.2.3', '::ffff:999.1.1.1'
        ];
        for (const address of forbidden) {
            expect(isForbiddenAddress(address), address).to.equal(true);
        }
        const allowed = ['8.8.8.8', '93.184.216.34', '100.128.0.1', '172.32.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '64:ff9b::808:808'];
        for (const address of allowed) {
            expect(isForbiddenAddress(address), address).to.equal(false);
        }
    });

    it('says at save why a URL is refused, from its host or the addresses its name resolves to', async () => {
        const dns: Record<string, string[]> = { 'public.test': ['93.184.216.34'], 'rebind.test': ['93.184.216.34', '127.0.0.1'], 'meta.test': ['169.254.169.254'] };
        const resolve: Resolver = async (name) => {
            if (!dns[name]) {
                throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
            }
            return dns[name];
        };
        expect(await refusedHost('https://public.test/api', resolve)).to.equal(null);
        expect(await refusedHost('https://rebind.test', resolve)).to.equal('rebind.test is a loopback, private, link-local or metadata address');
        expect(await refusedHost('http://meta.test', resolve)).to.match(/^meta\.test is/);
        expect(await refusedHost('http://127.1:8080', resolve)).to.match(/^127\.0\.0\.1 is/);
        expect(await refusedHost('http://[::ffff:127.0.0.1]', resolve)).to.match(/^\[::ffff:7f00:1\] is/);
        expect(await refusedHost('http://api.localhost', resolve)).to.match(/^api\.localhost is/);
        expect(await refusedHost('https://unknown.test', resolve), 'no answer now: the connect-time check still applies').to.equal(null);
        expect(await refusedHost('https://slow.test', () => new Promise(() => undefined), 50)).to.equal(null);
    });

    it('keeps only allowed addresses when connecting, so a name that now resolves to a private address (DNS rebinding) gets no connection', async () => {
        let answers = ['93.184.216.34'];
        const lookup = guardedLookup(async () => answers);
        const one = (options: object) => new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
            lookup('shop.test', options, (err, address, family) => resolve({ err, address, family })));
        expect(await one({})).to.deep.include({ err: null, address: '93.184.216.34', family: 4 });
        answers = ['127.0.0.1', '93.184.216.34', '::1'];
        expect(await one({ all: true })).to.deep.include({ err: null, address: [{ address: '93.184.216.34', family: 4 }] });
        answers = ['127.0.0.1', '::ffff:169.254.169.254'];
        const refused = await one({ all: true });
        expect(refused.err).to.be.instanceOf(OutboundError);
        expect((refused.err as OutboundError).reason).to.equal('refused_address');
        const local = await new Promise<Error | null>((resolve) => guardedLookup(async () => ['93.184.216.34'])('localhost', {}, (err) => resolve(err)));
        expect(local).to.be.instanceOf(OutboundError);
    });

    describe('requests', () => {
        let server: Http.Server;
        let base: string;
        let hits = 0;

        before(async () => {
            server = Http.createServer((req, res) => {
                hits++;
                if (req.url === '/redirect') {
                    res.writeHead(302, { location: '/ok' });
                    res.end();
                }
                else if (req.url === '/slow') {
                    setTimeout(() => res.end('late'), 300);
                }
                else if (req.url === '/big') {
                    res.end('x'.repeat(2048));
                }
                else {
                    res.writeHead(200, { 'content-type': 'application/json' });
                    res.end(JSON.stringify({ method: req.method, key: req.headers['x-apikey'] ?? null }));
                }
            });
            await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
            base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        });
        after(async () => {
            server.closeAllConnections();
            await new Promise<void>((resolve) => server.close(() => resolve()));
        });

        const get = (url: string, refusePrivate: boolean, resolve?: Resolver, extra: object = {}) =>
            outboundRequest(url, { method: 'GET', headers: { 'x-apikey': 'k-123' }, timeoutMs: 200, ...extra }, { refusePrivate }, resolve);
        const failure = (promise: Promise<unknown>) => promise.then(() => null, (err: OutboundError) => err);

        it('answers the status and body when the guard is off (tests, development)', async () => {
            const res = await get(`${base}/ok`, false);
            expect(res.status).to.equal(200);
            expect(JSON.parse(await res.text())).to.deep.equal({ method: 'GET', key: 'k-123' });
        });

        it('refuses an IP literal and a name resolving to a private address before any byte is sent', async () => {
            const before = hits;
            expect((await failure(get(`${base}/ok`, true)))?.reason).to.equal('refused_address');
            const port = (server.address() as AddressInfo).port;
            const rebinding: Resolver = async () => ['127.0.0.1'];
            expect((await failure(get(`http://shop.test:${port}/ok`, true, rebinding)))?.reason).to.equal('refused_address');
            expect((await failure(get(`http://[::ffff:127.0.0.1]:${port}/ok`, true)))?.reason).to.equal('refused_address');
            expect(hits, 'nothing reached the server').to.equal(before);
        });

        it('never follows a redirect, and bounds the time and size of an answer', async () => {
            const before = hits;
            expect((await failure(get(`${base}/redirect`, false)))?.reason).to.equal('redirect');
            expect(hits, 'the target of the redirect was not asked').to.equal(before + 1);
            const slow = await failure(get(`${base}/slow`, false));
            expect(slow?.reason).to.equal('timeout');
            expect(slow?.name).to.equal('TimeoutError');
            expect((await failure(get(`${base}/big`, false, undefined, { maxBytes: 1024 })))?.reason).to.equal('too_large');
            expect((await failure(get('http://127.0.0.1:9/', false)))?.reason).to.equal('unreachable');
        });
    });
});
