import * as Crypto from 'crypto';
import { promisify } from 'util';

const scrypt = promisify(Crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: Crypto.ScryptOptions) => Promise<Buffer>;

/**
 * How much work a new hash costs. `owasp`: the OWASP password storage cheat sheet's scrypt minimum, N=2^17,
 * r=8, p=1 (128 MiB of memory per hash; about 0.3 s here). `test`: N=2^10, for test servers only (config refuses
 * it outside NODE_ENV=test), so that suites creating hundreds of users do not spend minutes hashing. A stored
 * hash names its own parameters, so verification never depends on this setting.
 */
export type PasswordCost = 'owasp' | 'test';
const COSTS: Record<PasswordCost, { N: number; r: number; p: number }> = {
    owasp: { N: 2 ** 17, r: 8, p: 1 },
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
