import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import jwt from 'jsonwebtoken';
import { audienceFor, Role, verifyUserToken } from '../../core/auth/tokens';
import { Caller, scopesOf, StaffCaller } from '../../core/types/auth';

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
export async function authenticateToken(server: Server, token: string, roles: Role[]): Promise<{ caller: StaffCaller; session: StaffSession }> {
    let claims;
    try {
        claims = verifyUserToken(server.app.config.jwtSecret, token, roles);
    }
    catch (err) {
        throw Boom.unauthorized(`Invalid token: ${(err as Error).message}`, 'Bearer');
    }
    const session: StaffSession = { userId: Number(claims.sub), role: claims.role, tokenVersion: claims.tv, expiresAt: claims.exp * 1000 };
    return { caller: await checkStaffSession(server, session), session };
}

/** What a staff token proved, kept as the request's (or socket's) auth artifacts to check it again later. */
export interface StaffSession {
    userId: number;
    role: Role;
    tokenVersion: number;
    /** Epoch ms of the token's exp. */
    expiresAt: number;
}

/**
 * The user of a staff token must still exist, be active, have the token's role and token_version (a password
 * change or disable bumps it, which revokes every earlier token), and belong to an active organization.
 */
async function checkStaffSession(server: Server, session: StaffSession): Promise<StaffCaller> {
    if (Date.now() >= session.expiresAt) {
        throw Boom.unauthorized('Token expired', 'Bearer');
    }
    const { users } = server.app.services;
    const user = await users.findRecordById(session.userId);
    if (!user || !user.isActive || user.tokenVersion !== session.tokenVersion || user.role !== session.role) {
        throw Boom.unauthorized('Token revoked', 'Bearer');
    }
    if (user.organizationId) {
        const org = await users.organizations().getOrganization(user.organizationId);
        if (!org || !org.isActive) {
            throw Boom.unauthorized('Organization disabled', 'Bearer');
        }
    }
    return { kind: 'staff', userId: user.id, email: user.email, role: user.role, organizationId: user.organizationId };
}

/**
 * hapi scheme 'jwt-role': options.roles lists the roles a strategy admits. `verify` checks an earlier
 * authentication again (nes calls it for open sockets), so a socket of a revoked user or an expired token
 * is closed at its next frame even if the revocation push was missed.
 */
export function registerJwtScheme(server: Server): void {
    server.auth.scheme('jwt-role', (srv, options) => {
        const roles = (options as { roles: Role[] }).roles;
        return {
            authenticate: async (request: Request, h: ResponseToolkit) => {
                const token = bearerToken(request);
                // No token, or a token for another kind of caller (e.g. a customer's): 'missing', so hapi tries
                // the route's next strategy.
                const audience = token ? (jwt.decode(token) as jwt.JwtPayload | null)?.aud : undefined;
                if (!token || (audience !== undefined && !roles.some((role) => audienceFor(role) === audience))) {
                    throw Boom.unauthorized(null, 'Bearer');
                }
                const { caller, session } = await authenticateToken(server, token, roles);
                return h.authenticated({ credentials: { caller, scope: scopesOf(caller) }, artifacts: { session } });
            },
            verify: async (auth) => {
                const session = (auth.artifacts as { session?: StaffSession } | null)?.session;
                if (!session) {
                    throw Boom.unauthorized('Not a staff session', 'Bearer');
                }
                await checkStaffSession(server, session);
            }
        };
    });
    server.auth.strategy('admin', 'jwt-role', { roles: ['admin'] });
    server.auth.strategy('super_admin', 'jwt-role', { roles: ['super_admin'] });
    server.auth.strategy('org_user', 'jwt-role', { roles: ['org_user'] });
}

/**
 * The sockets' periodic credentials check (core/realtime: Realtime.checkCredentialsWith), in one batch: a staff
 * socket is revoked when its token expired, or its user is gone, disabled, of another role or token version (a
 * password change), or its organization is deactivated; a customer socket when its organization is deactivated.
 * Two queries per pass, whatever the number of sockets.
 */
export async function revokedSockets(server: Server, sockets: Array<{ caller: Caller; artifacts: unknown }>): Promise<boolean[]> {
    const userIds = new Set<number>();
    const organizationIds = new Set<number>();
    for (const { caller } of sockets) {
        if (caller.kind === 'staff') {
            userIds.add(caller.userId);
        }
        if (caller.organizationId) {
            organizationIds.add(caller.organizationId);
        }
    }
    const { users } = server.app.services;
    const records = userIds.size ? await users.findRecordsByIds([...userIds]) : [];
    for (const user of records) {
        if (user.organizationId) {
            organizationIds.add(user.organizationId);
        }
    }
    const active = organizationIds.size ? await users.organizations().activeOrganizationIds([...organizationIds]) : new Set<number>();
    const byId = new Map(records.map((u) => [u.id, u]));
    const now = Date.now();
    return sockets.map(({ caller, artifacts }) => {
        if (caller.kind === 'staff') {
            const session = (artifacts as { session?: StaffSession } | null)?.session;
            const user = byId.get(caller.userId);
            if (!session || now >= session.expiresAt || !user || !user.isActive || user.tokenVersion !== session.tokenVersion || user.role !== session.role) {
                return true;
            }
            return !!user.organizationId && !active.has(user.organizationId);
        }
        if (caller.kind === 'customer') {
            return !active.has(caller.organizationId);
        }
        return false;
    });
}
