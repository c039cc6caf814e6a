import jwt from 'jsonwebtoken';
import type { Role } from '../types/api';

export type { Role };

export const ISSUER = 'loyalty-chat';
export const ALGORITHM = 'HS256';

/** Token lifetimes per role, in seconds. Staff tokens live at most 24 h. */
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

/** Verifies signature (HS256 only), expiry, issuer and audience. Throws on any failure. */
export function verifyUserToken(secret: string, token: string, roles: Role[]): TokenClaims {
    const decoded = jwt.verify(token, secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: roles.map(audienceFor) as [string, ...string[]]
    }) as jwt.JwtPayload;
    if (typeof decoded.sub !== 'string' || !roles.includes(decoded.role)) {
        throw new Error('Token role does not match');
    }
    return { sub: decoded.sub, role: decoded.role, org: decoded.org ?? null, tv: Number(decoded.tv) };
}
