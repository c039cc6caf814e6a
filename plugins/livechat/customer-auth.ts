import Boom from '@hapi/boom';
import jwt from 'jsonwebtoken';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { bearerOf, CUSTOMER_AUDIENCE, verifyCustomerToken } from '../../core/auth/customer-token';
import { CustomerCaller, scopesOf } from '../../core/types/auth';
import { setWidgetCorsHeaders, widgetOriginAllowed } from '../../core/http/origins';
import type { Organization } from '../../core/types/api';

/**
 * How long an open customer socket's check trusts that its organization is active (a deactivation closes the
 * sockets at once anyway, through the revocation push; this is the fallback). HTTP requests always ask.
 */
const ORG_CHECK_MS = 5000;

/** A browser call from a store's page (an Origin, on a route tagged 'widget'): its origin decides, as for widget-key calls. */
function fromStorePage(request: Request): boolean {
    return !!request.headers.origin && !!request.route.settings.tags?.includes('widget');
}

/**
 * The 'customer' strategy: `Authorization: Bearer <customer token>` (the socket's hello sends it too), for an
 * organization that is still active. `verify` checks an open socket again (nes calls it on a frame at most
 * every few seconds): an expired token or a deactivated store closes it.
 *
 * CORS of the customer's HTTP calls from the store's page is the strategy's too, so it applies to exactly the
 * routes that accept a customer token: the same decision as the widget-key calls (plugins/auth/widget-scheme.ts).
 * A page on another origin is refused before the handler runs (403), and its answer carries no
 * Access-Control-Allow-Origin; a registered one gets it on every answer (`response`), errors included.
 */
export function registerCustomerScheme(server: Server): void {
    const checked = new Map<number, { active: boolean; at: number }>();
    async function requireActive(organizationId: number, cached: boolean): Promise<Organization | null> {
        let entry = checked.get(organizationId);
        let org: Organization | null = null;
        if (!cached || !entry || Date.now() - entry.at > ORG_CHECK_MS) {
            org = await server.app.services.tenants.getOrganization(organizationId);
            entry = { active: !!org?.isActive, at: Date.now() };
            checked.set(organizationId, entry);
        }
        if (!entry.active) {
            throw Boom.unauthorized('This store is not active', 'CustomerToken');
        }
        return org;
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
            const organization = await requireActive(caller.organizationId, false);
            if (fromStorePage(request) && (!organization || !widgetOriginAllowed(server, request, organization))) {
                const refused = Boom.forbidden(`Origin ${request.headers.origin} is not a registered domain of this store`);
                refused.output.headers.vary = 'origin';
                throw refused;
            }
            return h.authenticated({ credentials: { caller, scope: scopesOf(caller) }, artifacts: { expiresAt: Number(decoded.exp) * 1000, organization } });
        },
        response: (request: Request, h: ResponseToolkit) => {
            if (fromStorePage(request)) {
                const organization = (request.auth.artifacts as { organization?: Organization | null } | null)?.organization ?? null;
                setWidgetCorsHeaders(server, request, organization);
            }
            return h.continue;
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
