import jwt from 'jsonwebtoken';
import { ALGORITHM, checkLifetime, ISSUER } from './tokens';

/**
 * A mailed link's token (issue 28: the link to rate a chat): signed with the server's JWT secret (HS256, pinned),
 * for one purpose (`scope`, part of the audience, so a token of one purpose opens nothing else), naming the
 * organization and the thing it opens (`sub`), with an expiry the caller chooses and checks again on the way in.
 */
export const LINK_AUDIENCE = 'loyalty-chat:link';

export interface LinkClaims {
    scope: string;
    organizationId: number;
    /** What the link opens (for 'rate': the chat session id). */
    subject: string;
}

/** Why a link's token was refused: past its expiry, or not one this server signed for this purpose. */
export class LinkTokenError extends Error {
    constructor(readonly reason: 'expired' | 'invalid', message: string) {
        super(message);
    }
}

/** Signs a link token valid `ttlSeconds` from `now` (epoch ms; tests sign one in the past to see it expire). */
export function signLinkToken(secret: string, claims: LinkClaims, ttlSeconds: number, now = Date.now()): string {
    return jwt.sign({ org: claims.organizationId, iat: Math.floor(now / 1000) }, secret, {
        algorithm: ALGORITHM, issuer: ISSUER, audience: `${LINK_AUDIENCE}:${claims.scope}`,
        expiresIn: Math.max(1, Math.round(ttlSeconds)), subject: claims.subject
    });
}

/** Verifies a link token of this scope (signature, issuer, audience, expiry at most `maxSeconds`); throws LinkTokenError. */
export function verifyLinkToken(secret: string, token: string, scope: string, maxSeconds: number): LinkClaims {
    let decoded: jwt.JwtPayload;
    try {
        decoded = jwt.verify(token, secret, { algorithms: [ALGORITHM], issuer: ISSUER, audience: `${LINK_AUDIENCE}:${scope}` }) as jwt.JwtPayload;
        checkLifetime(decoded, Math.max(1, Math.round(maxSeconds)));
    }
    catch (err) {
        if (err instanceof jwt.TokenExpiredError) {
            throw new LinkTokenError('expired', 'This link has expired');
        }
        throw new LinkTokenError('invalid', 'This link is not valid');
    }
    const org = Number(decoded.org);
    if (!Number.isInteger(org) || org <= 0 || typeof decoded.sub !== 'string' || !decoded.sub) {
        throw new LinkTokenError('invalid', 'This link is not valid');
    }
    return { scope, organizationId: org, subject: decoded.sub };
}
