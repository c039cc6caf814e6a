import Boom from '@hapi/boom';
import jwt from 'jsonwebtoken';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { bearerOf, CUSTOMER_AUDIENCE, verifyCustomerToken } from '../../core/auth/customer-token';
import { CustomerCaller, scopesOf } from '../../core/types/auth';

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
            const raw = bearerOf(request.headers.authorization);
            // Not a customer token (e.g. an admin's): 'missing', so hapi tries the route's next strategy.
            const decoded = raw ? jwt.decode(raw) as jwt.JwtPayload | null : null;
            if (!raw || !decoded || decoded.aud !== CUSTOMER_AUDIENCE) {
                throw Boom.unauthorized(null, 'CustomerToken');
            }
            let caller: CustomerCaller;
            try {
                caller = verifyCustomerToken(server.app.config.jwtSecret, raw);
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
