import Boom from '@hapi/boom';
import { createSecretKey, KeyObject } from 'crypto';
import jwt from 'jsonwebtoken';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { ALGORITHM, checkLifetime, ISSUER } from '../../core/auth/tokens';
import { CustomerCaller, scopesOf } from '../../core/types/auth';

export const CUSTOMER_AUDIENCE = 'loyalty-chat:customer';
/** A customer token lets the widget open its socket and resume its one chat; create-session renews it. */
export const CUSTOMER_TOKEN_TTL_SECONDS = 4 * 3600;


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

export function verifyCustomerToken(secret: string, token: string): CustomerCaller {
    const decoded = jwt.verify(token, keyOf(secret), { algorithms: [ALGORITHM], issuer: ISSUER, audience: CUSTOMER_AUDIENCE }) as jwt.JwtPayload;
    if (typeof decoded.org !== 'number' || typeof decoded.sid !== 'string') {
        throw new Error('Malformed customer token');
    }
    checkLifetime(decoded, CUSTOMER_TOKEN_TTL_SECONDS);
    return { kind: 'customer', organizationId: decoded.org, sessionId: decoded.sid };
}

/**
 * How long an open customer socket's check trusts that its organization is active (a deactivation closes the
 * sockets at once anyway, through the revocation push; this is the fallback). HTTP requests always ask.
 */
const ORG_CHECK_MS = 5000;

/**
 * The 'customer' strategy: `Authorization: Bearer <customer token>` (the socket's hello sends it too), for an
 * organization that is still active. `verify` checks an open socket again (nes calls it on a frame at most
 * every few seconds): an expired token or a deactivated store closes it.
 */
export function registerCustomerScheme(server: Server): void {
    const checked = new Map<number, { active: boolean; at: number }>();
    async function requireActive(organizationId: number, cached: boolean): Promise<void> {
        let entry = checked.get(organizationId);
        if (!cached || !entry || Date.now() - entry.at > ORG_CHECK_MS) {
            const org = await server.app.services.tenants.getOrganization(organizationId);
            entry = { active: !!org?.isActive, at: Date.now() };
            checked.set(organizationId, entry);
        }
        if (!entry.active) {
            throw Boom.unauthorized('This store is not active', 'CustomerToken');
        }
    }

    server.auth.scheme('chat-customer-token', () => ({
        authenticate: async (request: Request, h: ResponseToolkit) => {
            const match = /^Bearer\s+(\S+)$/i.exec((request.headers.authorization as string | undefined) ?? '');
            // Not a customer token (e.g. an admin's): 'missing', so hapi tries the route's next strategy.
            const decoded = match ? jwt.decode(match[1]) as jwt.JwtPayload | null : null;
            if (!match || !decoded || decoded.aud !== CUSTOMER_AUDIENCE) {
                throw Boom.unauthorized(null, 'CustomerToken');
            }
            let caller: CustomerCaller;
            try {
                caller = verifyCustomerToken(server.app.config.jwtSecret, match[1]);
            }
            catch (err) {
                throw Boom.unauthorized(`Invalid customer token: ${(err as Error).message}`, 'CustomerToken');
            }
            await requireActive(caller.organizationId, false);
            return h.authenticated({ credentials: { caller, scope: scopesOf(caller) }, artifacts: { expiresAt: Number(decoded.exp) * 1000 } });
        },
        verify: async (auth) => {
            const expiresAt = (auth.artifacts as { expiresAt?: number } | null)?.expiresAt ?? 0;
            if (Date.now() >= expiresAt) {
                throw Boom.unauthorized('Customer token expired', 'CustomerToken');
            }
            const caller = auth.credentials?.caller;
            if (caller?.kind !== 'customer') {
                throw Boom.unauthorized('Not a customer', 'CustomerToken');
            }
            await requireActive(caller.organizationId, true);
        }
    }));
    server.auth.strategy('customer', 'chat-customer-token');
}
