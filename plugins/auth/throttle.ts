import * as Net from 'net';
import type { Request, Server } from '@hapi/hapi';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { Limit, tooMany } from '../../core/http/rate-limit';
import { clientIp } from '../../core/http/client-ip';

/**
 * Login throttling after NIST SP 800-63B §5.2.2, built so that an attacker cannot use it to lock the
 * account holder out. Every limit counts failed logins only, on all login endpoints together, in fixed
 * windows that start with the first failure; the limits are shared by all nodes (Redis when REDIS_URL is
 * set, else in the process).
 *
 * - `accountAndAddress` is the main limit: failures for one account from one client address. Someone who
 *   mistypes their own password is held here, and only here: failures from other addresses do not touch it.
 * - `address` stops password spraying: one address trying one password on many accounts.
 * - `account` stops distributed guessing (a botnet, one guess per address) and is far above what an
 *   account holder's own mistakes or a handful of strangers' failures reach: 100 per hour keeps online
 *   guessing under 2,400 a day for a password, and an attacker needs at least 10 addresses (IPv6: 10
 *   different /64 networks) to reach it within the hour.
 *
 * A successful login clears the counter of its account + address pair (not the others: a success does not
 * prove that the failures from elsewhere were the holder's). Unknown emails are counted like real ones, so
 * the answers say nothing about which accounts exist.
 */
export const LOGIN_LIMITS = {
    /** Failures for one account from one client address. */
    accountAndAddress: { points: 10, duration: 15 * 60 },
    /** Failures from one client address across all accounts. */
    address: { points: 50, duration: 15 * 60 },
    /** Failures for one account across all client addresses. */
    account: { points: 100, duration: 60 * 60 }
} as const;

/**
 * IPv6 clients are counted per /64 network (the first 4 groups): one subscriber usually holds a whole /64,
 * so counting single addresses would hand an attacker 2^64 fresh "clients".
 */
export const IPV6_PREFIX_GROUPS = 4;

/** "14 minutes", or "45 seconds" under a minute; always rounded up, so it is never shorter than the wait. */
export function waitText(seconds: number): string {
    const s = Math.max(1, Math.ceil(seconds));
    if (s < 60) {
        return `${s} second${s === 1 ? '' : 's'}`;
    }
    const m = Math.ceil(s / 60);
    return `${m} minute${m === 1 ? '' : 's'}`;
}

/** The one answer of every throttled login, whichever limit it hit. */
export function tooManyLoginsMessage(retryAfterSeconds: number): string {
    return `Too many failed login attempts. Please try again in ${waitText(retryAfterSeconds)}.`;
}

/** The 8 groups of an IPv6 address (the URL parser normalises it: lower case, IPv4 tail in hex). */
function ipv6Groups(address: string): string[] {
    const normal = new URL(`http://[${address}]`).hostname.slice(1, -1);
    const [head, tail] = normal.split('::');
    const first = head ? head.split(':') : [];
    const last = tail ? tail.split(':') : [];
    return [...first, ...Array<string>(8 - first.length - last.length).fill('0'), ...last];
}

/**
 * The key a client address is counted under: IPv4 as is (also when written as IPv4-mapped IPv6), IPv6 as
 * its /64 network, e.g. "2001:db8:1:2::/64".
 */
export function addressKey(address: string): string {
    const bare = address.split('%')[0];
    if (!Net.isIPv6(bare)) {
        return bare;
    }
    const groups = ipv6Groups(bare);
    if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
        const [hi, lo] = [parseInt(groups[6], 16), parseInt(groups[7], 16)];
        return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
    }
    return `${groups.slice(0, IPV6_PREFIX_GROUPS).join(':')}::/${IPV6_PREFIX_GROUPS * 16}`;
}

/** One reserved login attempt: report how it ended. */
export interface LoginAttempt {
    /** The password was right: clears the account + address counter and gives back the reservation. */
    succeeded(): Promise<void>;
    /** The attempt ended without a verdict on the password (e.g. a database error): not a failure. */
    cancelled(): Promise<void>;
}

export class LoginThrottle {
    private readonly byPair: Limit;
    private readonly byAddress: Limit;
    private readonly byAccount: Limit;

    constructor(private readonly server: Server) {
        this.byPair = new Limit(server.app, { name: 'login-account-address', ...LOGIN_LIMITS.accountAndAddress });
        this.byAddress = new Limit(server.app, { name: 'login-address', ...LOGIN_LIMITS.address });
        this.byAccount = new Limit(server.app, { name: 'login-account', ...LOGIN_LIMITS.account });
    }

    private static accountKey(email: string): string {
        return email.trim().toLowerCase();
    }

    /**
     * Reserves one failure on each limit before the password is checked, so a burst of parallel guesses
     * cannot slip past a limit (each reservation is atomic; a guess over a limit is refused before any
     * password check). When a limit has nothing left, gives back what it reserved and throws 429 with
     * Retry-After: the longest wait among the limits this login is held by. The caller reports the end
     * of the attempt; a wrong password needs no call (the reservation stays as the failure).
     */
    async begin(request: Request, email: string): Promise<LoginAttempt> {
        const address = addressKey(clientIp(request));
        const account = LoginThrottle.accountKey(email);
        const pair = `${account} ${address}`;
        const checks: [Limit, string][] = [[this.byPair, pair], [this.byAddress, address], [this.byAccount, account]];
        const reserved: [Limit, string][] = [];
        const giveBack = (which: [Limit, string][]) => Promise.all(which.map(([limit, key]) => limit.limiter.reward(key, 1)));
        for (const [limit, key] of checks) {
            try {
                await limit.limiter.consume(key, 1);
                reserved.push([limit, key]);
            }
            catch (err) {
                await giveBack(reserved);
                if (!(err instanceof RateLimiterRes)) {
                    throw err;
                }
                const waits = await Promise.all(checks.map(([l, k]) => l.exhausted(k)));
                const longest = Math.max(err.msBeforeNext, ...waits.filter((w) => w.limited).map((w) => w.retryAfterMs));
                throw tooMany(tooManyLoginsMessage(Math.max(1, Math.ceil(longest / 1000))), longest);
            }
        }
        return {
            succeeded: async () => {
                await Promise.all([this.byPair.reset(pair), giveBack(reserved.slice(1))]);
            },
            cancelled: async () => {
                await giveBack(reserved);
            }
        };
    }
}
