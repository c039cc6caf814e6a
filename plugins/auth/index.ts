import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import { clientIp } from '../../core/http/client-ip';
import type { Request, Server, ServerRoute } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import type { StaffCaller } from '../../core/types/auth';
import { allow, PUBLIC } from '../../core/http/access';
import { staffOf } from '../../core/http/callers';
import { signUserToken, Role } from '../../core/auth/tokens';
import { dummyPasswordHash, needsRehash, verifyPassword } from '../../core/auth/passwords';
import { registerJwtScheme, revokedSockets } from './scheme';
import { registerWidgetScheme } from './widget-scheme';
import { LoginThrottle } from './throttle';
import { Semaphore } from './semaphore';
import { UserService } from './services/user-service';
import { registerUserRoutes } from './routes/users';
import { registerProfileRoutes } from './routes/profile';
import { loginPayload } from './schemas';
import { DEMO_USERS } from './demo-data';
import { migrations } from './migrations';

declare module '../../core/types' {
    interface Services {
        users: UserService;
    }
}

/** Password checks running at once per process (each scrypt check takes 8 MiB, an older hash's up to 128 MiB). */
const PASSWORD_CHECKS_AT_ONCE = 4;

export const INVALID_LOGIN = 'Invalid email or password';

/** Checks email + password for one of the roles; the same answer for every kind of failure. */
export async function checkLogin(server: Server, email: string, password: string, roles: Role[]) {
    const { users } = server.app.services;
    const user = await users.findRecordByEmail(email);
    const ok = await verifyPassword(password, user ? user.passwordHash : await dummyPasswordHash());
    if (!user || !ok || !user.isActive || !roles.includes(user.role)) {
        throw Boom.unauthorized(INVALID_LOGIN);
    }
    let organization = null;
    if (user.organizationId) {
        organization = await users.organizations().getOrganization(user.organizationId);
        if (!organization || !organization.isActive) {
            throw Boom.unauthorized(INVALID_LOGIN);
        }
    }
    await users.touchLogin(user.id);
    if (needsRehash(user.passwordHash)) {
        // A hash of older parameters (N=2^17, p=1 until issue 23): the same password, hashed as new ones are now. Not a
        // password change, so no token is revoked.
        await users.rehashPassword(user.id, password);
    }
    const token = signUserToken(server.app.config.jwtSecret, {
        id: user.id, role: user.role, organizationId: user.organizationId, tokenVersion: user.tokenVersion
    });
    return { user, organization, token };
}

function publicUser(c: StaffCaller) {
    return { id: c.userId, email: c.email, role: c.role, organizationId: c.organizationId };
}

/**
 * The demo logins (super admin, admin and org user of the demo organization): fixed passwords outside
 * production, random ones in production, printed once by the caller. Idempotent.
 */
async function seedDemoLogins(server: Server, organizationId: number): Promise<string[]> {
    const users = server.app.services.users;
    const production = server.app.config.env === 'production';
    const lines: string[] = [];
    for (const demo of DEMO_USERS) {
        if (await users.findRecordByEmail(demo.email)) {
            lines.push(`Login exists: ${demo.role.padEnd(11)} ${demo.email}`);
            continue;
        }
        const password = production ? Crypto.randomBytes(12).toString('base64url') : demo.password;
        await users.create({
            email: demo.email,
            password,
            role: demo.role,
            name: demo.name,
            organizationId: demo.role === 'super_admin' ? null : organizationId
        });
        lines.push(`Created login: ${demo.role.padEnd(11)} ${demo.email}  password: ${password}`);
    }
    return lines;
}

/**
 * Staff accounts and every way of proving who calls: the users table and its service (`services.users`), the
 * logins, the staff token strategies, the widget-key strategy with the widget's CORS, and the super-admin user API.
 * It registers before the tenants plugin, which plugs the organizations in (`users.useOrganizations`): auth asks
 * them only while serving requests; start-up fails if no plugin did.
 */
const feature: FeaturePlugin = {
    migrations,
    seedDemo: seedDemoLogins,
    plugin: {
        name: 'auth',
        register(server: Server) {
            const users = new UserService({
                db: server.app.db,
                revoke: (who) => server.app.realtime.revoke(who)
            });
            provide(server, 'users', users);
            server.ext('onPreStart', () => {
                users.organizations();
            });

            registerJwtScheme(server);
            registerWidgetScheme(server);
            // Every node re-checks its sockets' users and organizations (WS_REVOCATION_CHECK_MS): revocation holds
            // even when the pub/sub push that closes them on other nodes is lost (Redis down or hung).
            server.app.realtime.checkCredentialsWith((sockets) => revokedSockets(server, sockets));
            const throttle = new LoginThrottle(server);
            const passwordChecks = new Semaphore(PASSWORD_CHECKS_AT_ONCE);

            /**
             * Throttled login for the given roles (throttle.ts): 429 once a limit is exhausted, one message for
             * every kind of failure. Only a 401 counts as a failure; a success clears its account + address
             * counter, and any other error (no verdict on the password) gives the reservation back.
             */
            async function login(request: Request, roles: Role[]) {
                const { email, password } = request.payload as { email: string; password: string };
                const attempt = await throttle.begin(request, email);
                let result;
                try {
                    result = await passwordChecks.run(() => checkLogin(server, email, password, roles));
                }
                catch (err) {
                    if (!(Boom.isBoom(err) && err.output.statusCode === 401)) {
                        await attempt.cancelled();
                    }
                    else {
                        // A refused sign-in names no account (the address may be nobody's): the role tried and the address.
                        await server.app.audit.fromRequest(request, { organizationId: null, action: 'auth.sign_in_failed', details: { roles: roles.join(',') } });
                    }
                    throw err;
                }
                await attempt.succeeded();
                await server.app.audit.record({
                    organizationId: result.user.organizationId, actorUserId: result.user.id, actorRole: result.user.role,
                    action: 'auth.sign_in', target: `user:${result.user.id}`, ip: clientIp(request)
                });
                return result;
            }

            const verify = (id: string, path: string, strategy: Role): ServerRoute => ({
                method: 'GET',
                path,
                options: {
                    id,
                    auth: allow(strategy),
                    description: `Checks a ${strategy} token`,
                    handler: (request: Request) => ({ valid: true, user: publicUser(staffOf(request)) })
                }
            });

            server.route([
                {
                    method: 'POST',
                    path: '/api/admin/login',
                    options: {
                        id: 'auth.admin.login',
                        auth: PUBLIC,
                        description: 'Staff (admin) login',
                        validate: { payload: loginPayload },
                        handler: async (request: Request) => {
                            const { token } = await login(request, ['admin']);
                            return { token, message: 'Login successful' };
                        }
                    }
                },
                verify('auth.admin.verify', '/api/admin/verify', 'admin'),
                {
                    method: 'POST',
                    path: '/api/super-admin/login',
                    options: {
                        id: 'auth.super-admin.login',
                        auth: PUBLIC,
                        description: 'Super admin login',
                        validate: { payload: loginPayload },
                        handler: async (request: Request) => {
                            const { token } = await login(request, ['super_admin']);
                            return { token, message: 'Login successful' };
                        }
                    }
                },
                verify('auth.super-admin.verify', '/api/super-admin/verify', 'super_admin'),
                {
                    method: 'POST',
                    path: '/api/org/login',
                    options: {
                        id: 'auth.org.login',
                        auth: PUBLIC,
                        description: 'Organization user login',
                        validate: { payload: loginPayload },
                        handler: async (request: Request) => {
                            const { token, user, organization } = await login(request, ['org_user']);
                            return {
                                token,
                                message: 'Login successful',
                                user: {
                                    id: user.id,
                                    email: user.email,
                                    name: user.name,
                                    role: user.role,
                                    organizationId: user.organizationId,
                                    organization: organization && {
                                        id: organization.id,
                                        name: organization.name,
                                        domain: organization.domain,
                                        subdomain: organization.subdomain,
                                        subscriptionPlan: organization.subscriptionPlan,
                                        isActive: organization.isActive
                                    }
                                }
                            };
                        }
                    }
                },
                verify('auth.org.verify', '/api/org/verify', 'org_user')
            ]);

            registerUserRoutes(server, users);
            registerProfileRoutes(server, users);
        }
    }
};

export default feature;
export { UserService };
