import Boom from '@hapi/boom';
import Joi from 'joi';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import { allow, PUBLIC } from '../../../core/http/access';
import { staffOf } from '../../../core/http/callers';
import { fields } from '../../../core/http/fields';
import * as Schemas from '../schemas';
import type { UserCreate, UserUpdate } from '../schemas';
import type { UserService } from '../services/user-service';
import { DEMO_SUPER_ADMIN } from '../demo-data';

const idParams = Joi.object<{ id: number }>({ id: fields.id.required() });

/** A super admin cannot lock themselves out (there may be no other). */
function refuseSelfDisable<Refs extends ReqRef>(request: Request<Refs>, id: number, disabling: boolean): void {
    if (disabling && staffOf(request).userId === id) {
        throw Boom.badRequest('You cannot deactivate your own account');
    }
}

/**
 * The super-admin user API (SPEC §7 'Super admin and organization'): every staff login, with create, update and
 * deactivate. Deactivating never deletes (reactivate with PATCH isActive: true); it revokes every token.
 */
export function registerUserRoutes(server: Server, users: UserService): void {
    const auth = allow('super_admin');

    server.route({
        method: 'GET',
        path: '/api/super-admin/users',
        options: { id: 'auth.users.list', auth, handler: () => users.list() }
    });
    server.route<{ Payload: UserCreate }>({
        method: 'POST',
        path: '/api/super-admin/users',
        options: {
            id: 'auth.users.create',
            plugins: { audit: { action: 'users.create', target: (_r, s) => `user:${(s as { id?: number })?.id ?? ''}` } },
            auth,
            validate: { payload: Schemas.userCreate },
            handler: async (request, h) => h.response(await users.create(request.payload)).code(201)
        }
    });
    server.route<{ Params: { id: number }; Payload: UserUpdate }>({
        method: 'PATCH',
        path: '/api/super-admin/users/{id}',
        options: {
            id: 'auth.users.update',
            plugins: { audit: { action: 'users.update', target: (r) => `user:${r.params.id}` } },
            auth,
            description: 'A new password or isActive false revokes every token of that user',
            validate: { params: idParams, payload: Schemas.userUpdate },
            handler: (request) => {
                refuseSelfDisable(request, request.params.id, request.payload.isActive === false);
                return users.update(request.params.id, request.payload);
            }
        }
    });
    server.route<{ Params: { id: number } }>({
        method: 'POST',
        path: '/api/super-admin/users/{id}/deactivate',
        options: {
            id: 'auth.users.deactivate',
            plugins: { audit: { action: 'users.deactivate', target: (r) => `user:${r.params.id}` } },
            auth,
            description: 'Deactivates (soft); reactivate with PATCH isActive: true',
            validate: { params: idParams },
            handler: (request) => {
                refuseSelfDisable(request, request.params.id, true);
                return users.update(request.params.id, { isActive: false });
            }
        }
    });

    // The demo super-admin login for the login screen's demo box: only outside production, and only while that
    // demo login exists.
    server.route({
        method: 'GET',
        path: '/api/super-admin/demo-credentials',
        options: {
            id: 'auth.demo-credentials.get',
            auth: PUBLIC,
            description: 'The demo super-admin login (404 in production)',
            handler: async () => {
                if (server.app.config.env === 'production' || !await users.findRecordByEmail(DEMO_SUPER_ADMIN.email)) {
                    throw Boom.notFound('No demo credentials');
                }
                return { email: DEMO_SUPER_ADMIN.email, password: DEMO_SUPER_ADMIN.password };
            }
        }
    });
}
