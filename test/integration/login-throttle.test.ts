import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer, usingRedis } from '../helpers/server';
import { LOGIN_LIMITS, tooManyLoginsMessage } from '../../plugins/auth/throttle';

const ADMIN = '/api/admin/login';
const ORG = '/api/org/login';
const PAIR = LOGIN_LIMITS.accountAndAddress;
const ADDRESS = LOGIN_LIMITS.address;
const ACCOUNT = LOGIN_LIMITS.account;

interface Answer {
    status: number;
    body: { message?: string; token?: string };
    retryAfter: number | null;
}

async function login(server: Server, path: string, payload: { email: string; password: string }, ip: string, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await server.inject({ method: 'POST', url: path, payload, remoteAddress: ip, headers });
    const retryAfter = res.headers['retry-after'];
    return { status: res.statusCode, body: JSON.parse(res.payload || '{}'), retryAfter: retryAfter === undefined ? null : Number(retryAfter) };
}

/** A 429 that says in its message how long to wait, the same wait as its Retry-After, within (min, max] seconds. */
function expectThrottled(res: Answer, min: number, max: number): void {
    expect(res.status).to.equal(429);
    expect(res.body).to.not.have.property('token');
    expect(res.retryAfter).to.be.a('number');
    expect(res.retryAfter!).to.be.above(min).and.at.most(max);
    expect(res.body.message).to.equal(tooManyLoginsMessage(res.retryAfter!));
    expect(res.body.message).to.match(/^Too many failed login attempts\. Please try again in \d+ (minutes?|seconds?)\.$/);
}

function statuses(answers: Answer[]): number[] {
    return answers.map((a) => a.status).sort();
}

describe('login throttling that an attacker cannot turn against the account holder', function () {
    this.timeout(240000);
    let t: TestServer;
    let next = 0;
    /** A tenant of its own per test, so the per-account counters of one test never meet another's. */
    const tenant = () => createTenant(t.server, `throttle${(next += 1)}`);
    const right = (x: Tenant) => ({ email: x.admin.email, password: x.admin.password });
    const wrong = (x: Tenant, i: number) => ({ email: x.admin.email, password: `wrong-guess-${i}` });

    before(async () => {
        t = await startTestServer();
    });
    after(async () => {
        await t?.close();
    });

    it('lets the holder in from a fresh address after 10 failures for their email from two other addresses', async () => {
        const x = await tenant();
        for (let i = 0; i < 10; i += 1) {
            const res = await login(t.server, ADMIN, wrong(x, i), i % 2 ? '10.8.0.1' : '10.8.0.2');
            expect(res.status, `failure ${i + 1}`).to.equal(401);
            expect(res.body.message).to.equal('Invalid email or password');
        }
        const holder = await login(t.server, ADMIN, right(x), '10.8.0.3');
        expect(holder.status).to.equal(200);
        expect(holder.body.token).to.be.a('string');
    });

    it('answers 429 with Retry-After and the wait in its message after 10 failures for one email from one address, right password included, and only for that pair', async () => {
        const x = await tenant();
        const ip = '10.8.1.1';
        for (let i = 0; i < PAIR.points; i += 1) {
            expect((await login(t.server, ADMIN, wrong(x, i), ip)).status, `failure ${i + 1}`).to.equal(401);
        }
        const blocked = await login(t.server, ADMIN, right(x), ip);
        expectThrottled(blocked, PAIR.duration - 60, PAIR.duration);
        expect(blocked.body.message).to.equal('Too many failed login attempts. Please try again in 15 minutes.');
        // The same account in other letters, and on another login endpoint, is the same pair.
        expectThrottled(await login(t.server, ADMIN, { ...right(x), email: x.admin.email.toUpperCase() }, ip), 0, PAIR.duration);
        expectThrottled(await login(t.server, ORG, { email: x.admin.email, password: 'whatever-it-is' }, ip), 0, PAIR.duration);
        // The holder from their own address, and another account from the attacker's, are not held.
        expect((await login(t.server, ADMIN, right(x), '10.8.1.2')).status).to.equal(200);
        expect((await login(t.server, ORG, { email: x.orgUser.email, password: x.orgUser.password }, ip)).status).to.equal(200);
    });

    it('answers the same 429 for an unknown email as for a real one', async () => {
        const ip = '10.8.2.1';
        const ghost = { email: 'nobody-here@nowhere.test', password: 'some-guess' };
        for (let i = 0; i < PAIR.points; i += 1) {
            expect((await login(t.server, ADMIN, ghost, ip)).status).to.equal(401);
        }
        expectThrottled(await login(t.server, ADMIN, ghost, ip), PAIR.duration - 60, PAIR.duration);
    });

    it('holds one address after 50 failures across many accounts (password spraying), and no other address', async () => {
        const x = await tenant();
        const ip = '10.8.3.1';
        const spray = await Promise.all(Array.from({ length: ADDRESS.points }, (_, i) =>
            login(t.server, ADMIN, { email: `sprayed${i}@victims.test`, password: 'Spring2024!' }, ip)));
        expect(statuses(spray)).to.deep.equal(Array(ADDRESS.points).fill(401));
        expectThrottled(await login(t.server, ADMIN, right(x), ip), ADDRESS.duration - 120, ADDRESS.duration);
        expectThrottled(await login(t.server, ORG, { email: 'one-more@victims.test', password: 'Spring2024!' }, ip), 0, ADDRESS.duration);
        expect((await login(t.server, ADMIN, right(x), '10.8.3.2')).status).to.equal(200);
    });

    it('holds an account after 100 failures from many addresses within the hour, but not after 99', async () => {
        const x = await tenant();
        // 99 failures from 10 addresses, each under its pair limit.
        const guesses = Array.from({ length: ACCOUNT.points - 1 }, (_, i) => login(t.server, ADMIN, wrong(x, i), `10.9.${Math.floor(i / PAIR.points)}.1`));
        expect(statuses(await Promise.all(guesses))).to.deep.equal(Array(ACCOUNT.points - 1).fill(401));
        // A success is not a failure: it leaves the count at 99.
        expect((await login(t.server, ADMIN, right(x), '10.9.100.1')).status, 'after 99 failures').to.equal(200);
        expect((await login(t.server, ADMIN, wrong(x, 100), '10.9.101.1')).status, 'the 100th failure').to.equal(401);
        // Held for the rest of the hour (longer than any pair's 15 minutes), from any address.
        expectThrottled(await login(t.server, ADMIN, right(x), '10.9.102.1'), PAIR.duration, ACCOUNT.duration);
    });

    it('clears the pair\'s count on a successful login', async () => {
        const x = await tenant();
        const ip = '10.8.4.1';
        for (let i = 0; i < PAIR.points - 1; i += 1) {
            expect((await login(t.server, ADMIN, wrong(x, i), ip)).status).to.equal(401);
        }
        expect((await login(t.server, ADMIN, right(x), ip)).status).to.equal(200);
        for (let i = 0; i < PAIR.points; i += 1) {
            expect((await login(t.server, ADMIN, wrong(x, i), ip)).status, `failure ${i + 1} after the success`).to.equal(401);
        }
        expectThrottled(await login(t.server, ADMIN, right(x), ip), 0, PAIR.duration);
    });

    it('lets no more than 10 of a burst of 20 parallel guesses for one email from one address reach the password check', async () => {
        const x = await tenant();
        const ip = '10.8.5.1';
        const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => login(t.server, ADMIN, wrong(x, i), ip)));
        expect(statuses(burst)).to.deep.equal([...Array(10).fill(401), ...Array(10).fill(429)]);
        for (const res of burst.filter((r) => r.status === 429)) {
            expectThrottled(res, 0, PAIR.duration);
        }
        expectThrottled(await login(t.server, ADMIN, right(x), ip), 0, PAIR.duration);
    });

    it('does not count a login that ended in a server error as a failure', async () => {
        const x = await tenant();
        const ip = '10.8.6.1';
        const users = t.server.app.services.users;
        const original = users.findRecordByEmail;
        users.findRecordByEmail = async () => {
            throw new Error('database unavailable');
        };
        try {
            for (let i = 0; i < PAIR.points + 2; i += 1) {
                expect((await login(t.server, ADMIN, wrong(x, i), ip)).status).to.equal(500);
            }
        }
        finally {
            users.findRecordByEmail = original;
        }
        expect((await login(t.server, ADMIN, right(x), ip)).status).to.equal(200);
    });

    it('counts IPv6 clients per /64 network', async () => {
        const x = await tenant();
        for (let i = 0; i < PAIR.points; i += 1) {
            expect((await login(t.server, ADMIN, wrong(x, i), `2001:db8:aa:1::${(i + 1).toString(16)}`)).status).to.equal(401);
        }
        expectThrottled(await login(t.server, ADMIN, right(x), '2001:db8:aa:1:ffff:ffff:ffff:ffff'), 0, PAIR.duration);
        expect((await login(t.server, ADMIN, right(x), '2001:db8:aa:2::1')).status).to.equal(200);
    });

    it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
        const x = await tenant();
        for (let i = 0; i < PAIR.points; i += 1) {
            expect((await login(t.server, ADMIN, wrong(x, i), '10.8.7.1', { 'x-forwarded-for': `198.51.100.${i + 1}` })).status).to.equal(401);
        }
        expectThrottled(await login(t.server, ADMIN, right(x), '10.8.7.1', { 'x-forwarded-for': '198.51.100.200' }), 0, PAIR.duration);
    });

    describe('behind a proxy (TRUST_PROXY on)', () => {
        let p: TestServer;
        const PROXY = '10.0.0.254';
        before(async () => {
            p = await startTestServer({ env: { TRUST_PROXY: 'true' } });
        });
        after(async () => {
            await p?.close();
        });

        it('counts the address the proxy appended, whatever the client wrote before it', async () => {
            const x = await createTenant(p.server, 'proxied');
            for (let i = 0; i < PAIR.points; i += 1) {
                const forwarded = `198.51.100.${i + 1}, 203.0.113.7`;
                expect((await login(p.server, ADMIN, wrong(x, i), PROXY, { 'x-forwarded-for': forwarded })).status).to.equal(401);
            }
            expectThrottled(await login(p.server, ADMIN, right(x), PROXY, { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' }), 0, PAIR.duration);
            expectThrottled(await login(p.server, ADMIN, right(x), PROXY, { 'x-forwarded-for': '203.0.113.7' }), 0, PAIR.duration);
            // Another client behind the same proxy is another address.
            expect((await login(p.server, ADMIN, right(x), PROXY, { 'x-forwarded-for': '203.0.113.8' })).status).to.equal(200);
        });
    });

    describe('on two nodes', () => {
        let second: TestServer;
        before(async function () {
            if (!usingRedis) {
                this.skip();
            }
            second = await startTestServer({ shareWith: t });
        });
        after(async () => {
            await second?.close();
        });

        it('shares the counts between nodes through Redis', async () => {
            const x = await tenant();
            const ip = '10.8.8.1';
            for (let i = 0; i < PAIR.points; i += 1) {
                expect((await login((i % 2 ? t : second).server, ADMIN, wrong(x, i), ip)).status).to.equal(401);
            }
            expectThrottled(await login(t.server, ADMIN, right(x), ip), 0, PAIR.duration);
            expectThrottled(await login(second.server, ADMIN, right(x), ip), 0, PAIR.duration);
        });
    });
});
