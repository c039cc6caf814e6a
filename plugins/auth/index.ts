import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import type { UserCredentials } from '../../core/types';
import { signUserToken, Role } from '../../core/auth/tokens';
import { dummyPasswordHash, verifyPassword } from '../../core/auth/passwords';
import { registerJwtScheme } from './scheme';
import { registerWidgetScheme } from './widget-scheme';

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
    if (user.organization_id) {
        const org = await tenants.getOrganization(user.organization_id);
        if (!org || !org.isActive) {
            throw Boom.unauthorized(INVALID_LOGIN);
        }
    }
    await tenants.touchLogin(user.id);
    const token = signUserToken(server.app.config.jwtSecret, {
        id: user.id, role: user.role, organizationId: user.organization_id, tokenVersion: user.token_version
    });
    return { user, token };
}

const feature: FeaturePlugin = {
    plugin: {
        name: 'auth',
        dependencies: ['tenants'],
        register(server: Server) {
            registerJwtScheme(server);
            registerWidgetScheme(server);

            server.route([
                {
                    method: 'POST',
                    path: '/api/admin/login',
                    options: {
                        id: 'auth.admin.login',
                        auth: false,
                        validate: { payload: loginPayload },
                        handler: async (request) => {
                            const { email, password } = request.payload as { email: string; password: string };
                            const { token } = await checkLogin(server, email, password, ['admin']);
                            return { token, message: 'Login successful' };
                        }
                    }
                },
                {
                    method: 'GET',
                    path: '/api/admin/verify',
                    options: {
                        id: 'auth.admin.verify',
                        auth: 'admin',
                        handler: (request) => {
                            const c = request.auth.credentials as unknown as UserCredentials;
                            return { valid: true, user: { id: c.userId, email: c.email, role: c.role, organizationId: c.organizationId } };
                        }
                    }
                }
            ]);
        }
    }
};

export default feature;
