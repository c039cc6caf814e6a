import jwt from 'jsonwebtoken';
import type { Role } from '../types/api';

export type { Role };

export const ISSUER = 'loyalty-chat';
export const ALGORITHM = 'HS256';

/** Token lifetimes per role, in seconds: staff tokens live at most 12 h (DESIGN §8: every token carries exp). */
export const TOKEN_TTL: Record<Role, number> = {
    super_admin: 8 * 3600,
    admin: 12 * 3600,
    org_user: 12 * 3600
};

export function audienceFor(role: Role): string {
    return `loyalty-chat:${role}`;
}

export interface TokenClaims {
    sub: string;
    role: Role;
    org: number | null;
    tv: number;
    /** Expiry, seconds since the epoch. */
    exp: number;
}

export function signUserToken(secret: string, user: { id: number; role: Role; organizationId: number | null; tokenVersion: number }): string {
    const claims = { role: user.role, org: user.organizationId, tv: user.tokenVersion };
    return jwt.sign(claims, secret, {
        algorithm: ALGORITHM,
        expiresIn: TOKEN_TTL[user.role],
        issuer: ISSUER,
        audience: audienceFor(user.role),
        subject: String(user.id)
    });
}

/**
 * A token must say when it ends, and not later than `maxSeconds` after it was issued: a token without `exp`
 * (which jsonwebtoken accepts) or with a lifetime longer than ours was not made by this server.
 */
export function checkLifetime(decoded: jwt.JwtPayload, maxSeconds: number): void {
    if (typeof decoded.exp !== 'number' || typeof decoded.iat !== 'number') {
        throw new Error('Token has no expiry');
    }
    if (decoded.exp - decoded.iat > maxSeconds) {
        throw new Error('Token lives too long');
    }
}

/** Verifies signature (HS256 only), expiry (required, at most the role's lifetime), issuer and audience. Throws on any failure. */
export function verifyUserToken(secret: string, token: string, roles: Role[]): TokenClaims {
    const decoded = jwt.verify(token, secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: roles.map(audienceFor) as [string, ...string[]]
    }) as jwt.JwtPayload;
    if (typeof decoded.sub !== 'string' || !roles.includes(decoded.role)) {
        throw new Error('Token role does not match');
    }
    checkLifetime(decoded, TOKEN_TTL[decoded.role as Role]);
    return { sub: decoded.sub, role: decoded.role, org: decoded.org ?? null, tv: Number(decoded.tv), exp: decoded.exp as number };
}
