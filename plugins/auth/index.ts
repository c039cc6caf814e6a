import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Request, Server, ServerRoute } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import type { StaffCaller } from '../../core/types/auth';
import { allow, PUBLIC } from '../../core/http/access';
import { staffOf } from '../../core/http/callers';
import { signUserToken, Role } from '../../core/auth/tokens';
import { dummyPasswordHash, verifyPassword } from '../../core/auth/passwords';
import { registerJwtScheme } from './scheme';
import { registerWidgetScheme } from './widget-scheme';
import { LoginThrottle } from './throttle';
import { Semaphore } from './semaphore';
import baseline from './migrations/20260101000001-auth';

/** Password checks running at once per process (each scrypt check takes 128 MiB). */
const PASSWORD_CHECKS_AT_ONCE = 4;

export const INVALID_LOGIN = 'Invalid email or password';

const loginPayload = Joi.object({
    email: Joi.string().trim().email({ tlds: false }).max(320).required(),
    password: Joi.string().min(1).max(200).required()
});

/** Checks email + password for one of the roles; the same answer for every kind of failure. */
export async function checkLogin(server: Server, email: string, password: string, roles: Role[]) {
    const tenants = server.app.services.tenants;
    const user = await tenants.findUserRecordByEmail(email);
    const ok = await verifyPassword(password, user ? user.password_hash : await dummyPasswordHash());
    if (!user || !ok || !user.is_active || !roles.includes(user.role)) {
        throw Boom.unauthorized(INVALID_LOGIN);
    }
    let organization = null;
    if (user.organization_id) {
        organization = await tenants.getOrganization(user.organization_id);
        if (!organization || !organization.isActive) {
            throw Boom.unauthorized(INVALID_LOGIN);
        }
    }
    await tenants.touchLogin(user.id);
    const token = signUserToken(server.app.config.jwtSecret, {
        id: user.id, role: user.role, organizationId: user.organization_id, tokenVersion: user.token_version
    });
    return { user, organization, token };
}

function publicUser(c: StaffCaller) {
    return { id: c.userId, email: c.email, role: c.role, organizationId: c.organizationId };
}

const feature: FeaturePlugin = {
    migrations: [baseline],
    plugin: {
        name: 'auth',
        dependencies: ['tenants'],
        register(server: Server) {
            registerJwtScheme(server);
            registerWidgetScheme(server);
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
                    throw err;
                }
                await attempt.succeeded();
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
                                    organizationId: user.organization_id,
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
        }
    }
};

export default feature;
