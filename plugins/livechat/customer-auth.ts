import Boom from '@hapi/boom';
import { createSecretKey, KeyObject } from 'crypto';
import jwt from 'jsonwebtoken';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { ALGORITHM, ISSUER } from '../../core/auth/tokens';

export const CUSTOMER_AUDIENCE = 'loyalty-chat:customer';
/** A customer token lets the widget open its socket and resume its one chat; create-session renews it. */
export const CUSTOMER_TOKEN_TTL_SECONDS = 4 * 3600;

/** Credentials of a customer's socket or request: one chat session of one organization. */
export interface CustomerCredentials {
    kind: 'customer';
    organizationId: number;
    sessionId: string;
}

// jsonwebtoken turns a string secret into a KeyObject on every call (first trying it as a public key,
// which throws): on thousands of sockets re-verified each heartbeat that is most of the auth cost.
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
    let key = keys.get(secret);
    if (!key) {
        key = createSecretKey(Buffer.from(secret));
        keys.set(secret, key);
    }
    return key;
}

export function signCustomerToken(secret: string, claims: { organizationId: number; sessionId: string }): string {
    return jwt.sign({ org: claims.organizationId, sid: claims.sessionId }, keyOf(secret), {
        algorithm: ALGORITHM, issuer: ISSUER, audience: CUSTOMER_AUDIENCE, expiresIn: CUSTOMER_TOKEN_TTL_SECONDS, subject: `chat:${claims.sessionId}`
    });
}

export function verifyCustomerToken(secret: string, token: string): CustomerCredentials {
    const decoded = jwt.verify(token, keyOf(secret), { algorithms: [ALGORITHM], issuer: ISSUER, audience: CUSTOMER_AUDIENCE }) as jwt.JwtPayload;
    if (typeof decoded.org !== 'number' || typeof decoded.sid !== 'string') {
        throw new Error('Malformed customer token');
    }
    return { kind: 'customer', organizationId: decoded.org, sessionId: decoded.sid };
}

/** The 'chat-customer' strategy: `Authorization: Bearer <customer token>` (the socket's hello sends it too). */
export function registerCustomerScheme(server: Server): void {
    server.auth.scheme('chat-customer-token', () => ({
        authenticate: async (request: Request, h: ResponseToolkit) => {
            const match = /^Bearer\s+(\S+)$/i.exec((request.headers.authorization as string | undefined) ?? '');
            // Not a customer token (e.g. an admin's): 'missing', so hapi tries the route's next strategy.
            const decoded = match ? jwt.decode(match[1]) as jwt.JwtPayload | null : null;
            if (!match || !decoded || decoded.aud !== CUSTOMER_AUDIENCE) {
                throw Boom.unauthorized(null, 'CustomerToken');
            }
            try {
                const credentials = verifyCustomerToken(server.app.config.jwtSecret, match[1]);
                return h.authenticated({ credentials: credentials as any });
            }
            catch (err) {
                throw Boom.unauthorized(`Invalid customer token: ${(err as Error).message}`, 'CustomerToken');
            }
        }
    }));
    server.auth.strategy('chat-customer', 'chat-customer-token');
}
