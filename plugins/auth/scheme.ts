import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { Role, verifyUserToken } from '../../core/auth/tokens';
import type { UserCredentials } from '../../core/types';

export function bearerToken(request: Request): string | null {
    const header = request.headers.authorization as string | undefined;
    if (header) {
        const match = /^Bearer\s+(\S+)$/i.exec(header);
        return match ? match[1] : null;
    }
    return null;
}

/**
 * Verifies a staff token for the given roles: pinned HS256, expiry, issuer, audience per role, then the
 * user must still exist, be active, and carry the same token_version (a password change or disable
 * revokes every earlier token).
 */
export async function authenticateToken(server: Server, token: string, roles: Role[]): Promise<UserCredentials> {
    let claims;
    try {
        claims = verifyUserToken(server.app.config.jwtSecret, token, roles);
    }
    catch (err) {
        throw Boom.unauthorized(`Invalid token: ${(err as Error).message}`, 'Bearer');
    }
    const user = await server.app.services.tenants.findUserRecordById(Number(claims.sub));
    if (!user || !user.is_active || user.token_version !== claims.tv || user.role !== claims.role) {
        throw Boom.unauthorized('Token revoked', 'Bearer');
    }
    if (user.organization_id) {
        const org = await server.app.services.tenants.getOrganization(user.organization_id);
        if (!org || !org.isActive) {
            throw Boom.unauthorized('Organization disabled', 'Bearer');
        }
    }
    return { kind: 'user', userId: user.id, email: user.email, role: user.role, organizationId: user.organization_id };
}

/** hapi scheme 'jwt-role': options.roles lists the roles a strategy admits. */
export function registerJwtScheme(server: Server): void {
    server.auth.scheme('jwt-role', (srv, options) => {
        const roles = (options as { roles: Role[] }).roles;
        return {
            authenticate: async (request: Request, h: ResponseToolkit) => {
                const token = bearerToken(request);
                if (!token) {
                    throw Boom.unauthorized(null, 'Bearer');
                }
                const credentials = await authenticateToken(server, token, roles);
                return h.authenticated({ credentials: credentials as any });
            }
        };
    });
    server.auth.strategy('admin', 'jwt-role', { roles: ['admin'] });
    server.auth.strategy('super_admin', 'jwt-role', { roles: ['super_admin'] });
    server.auth.strategy('org_user', 'jwt-role', { roles: ['org_user'] });
}
