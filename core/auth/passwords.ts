import * as Crypto from 'crypto';
import { promisify } from 'util';

const scrypt = promisify(Crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: Crypto.ScryptOptions) => Promise<Buffer>;

/**
 * How much work a new hash costs. `owasp`: one of the OWASP password storage cheat sheet's scrypt minimums, N=2^13,
 * r=8, p=10. The cheat sheet lists five configurations as equivalent in the defence they give (N=2^17 p=1, 2^16 p=2,
 * 2^15 p=3, 2^14 p=5, 2^13 p=10, all r=8); we stay at that minimum, not above it, and take the one that costs the
 * server least per login: 8 MiB of memory per hash instead of 128 MiB, and on the project's 2-core machine about
 * 0.17 s instead of 0.6 s (Node runs the p lanes one after another; the large one's time goes into memory, issue 23's
 * sign-in budget). Until issue 23 new hashes were N=2^17, p=1; those still verify (a hash names its parameters) and are
 * rehashed at the next successful login (needsRehash). `test`: N=2^10, for test servers only (config refuses it
 * outside NODE_ENV=test), so that suites creating hundreds of users do not spend minutes hashing.
 */
export type PasswordCost = 'owasp' | 'test';
const COSTS: Record<PasswordCost, { N: number; r: number; p: number }> = {
    owasp: { N: 2 ** 13, r: 8, p: 10 },
    test: { N: 2 ** 10, r: 8, p: 1 }
};
let PARAMS = COSTS.owasp;

/** Sets the cost of new hashes for this process (createServer does, from PASSWORD_HASH_COST). */
export function usePasswordCost(cost: PasswordCost): void {
    if (COSTS[cost] !== PARAMS) {
        PARAMS = COSTS[cost];
        dummyHash = null;
    }
}
const KEY_LENGTH = 32;

function maxmem(N: number, r: number): number {
    return 128 * N * r + 1024 * 1024;
}

/** Hash in the form scrypt$N$r$p$salt$hash (base64url). */
export async function hashPassword(password: string): Promise<string> {
    const salt = Crypto.randomBytes(16);
    const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...PARAMS, maxmem: maxmem(PARAMS.N, PARAMS.r) });
    return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when a stored hash was made with other parameters than new hashes get now (rehash it at the next login). */
export function needsRehash(stored: string): boolean {
    const [kind, N, r, p] = stored.split('$');
    return kind !== 'scrypt' || Number(N) !== PARAMS.N || Number(r) !== PARAMS.r || Number(p) !== PARAMS.p;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') {
        return false;
    }
    const [N, r, p] = parts.slice(1, 4).map(Number);
    const salt = Buffer.from(parts[4], 'base64url');
    const expected = Buffer.from(parts[5], 'base64url');
    const key = await scrypt(password.normalize('NFKC'), salt, expected.length, { N, r, p, maxmem: maxmem(N, r) });
    return key.length === expected.length && Crypto.timingSafeEqual(key, expected);
}

/** A hash that never matches, to spend the same time when the email is unknown. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
    dummyHash ??= hashPassword(Crypto.randomBytes(16).toString('hex'));
    return dummyHash;
}
