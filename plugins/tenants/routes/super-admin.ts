import Boom from '@hapi/boom';
import type { Request, ServerRoute } from '@hapi/hapi';
import * as Schemas from '../schemas';
import type { TenantService } from '../services/tenant-service';
import { idParams, requestBaseUrl } from './common';
import { allow } from '../../../core/http/access';
import { staffOf } from '../../../core/http/callers';

/**
 * The super-admin API (SPEC §7 'Super admin and organization'): every organization, bot instance and
 * user, with create, update and deactivate, so tenants can be run from the browser as well as the CLI.
 * Deactivating never deletes: rows stay for analytics and can be re-activated with an update.
 */
export function superAdminRoutes(tenants: () => TenantService): ServerRoute[] {
    const auth = allow('super_admin');
    const deactivate = { description: 'Deactivates (soft); reactivate with PATCH isActive: true' };
    return [
        // ---- organizations ----
        {
            method: 'GET',
            path: '/api/super-admin/organizations',
            options: { id: 'tenants.organizations.list', auth, handler: () => tenants().listOrganizations() }
        },
        {
            method: 'POST',
            path: '/api/super-admin/organizations',
            options: {
                id: 'tenants.organizations.create',
                auth,
                validate: { payload: Schemas.organizationCreate },
                handler: async (request, h) => h.response(await tenants().createOrganization(request.payload)).code(201)
            }
        },
        {
            method: 'PATCH',
            path: '/api/super-admin/organizations/{id}',
            options: {
                id: 'tenants.organizations.update',
                auth,
                validate: { params: idParams, payload: Schemas.organizationUpdate },
                handler: (request) => tenants().updateOrganization(Number(request.params.id), request.payload)
            }
        },
        {
            method: 'POST',
            path: '/api/super-admin/organizations/{id}/deactivate',
            options: {
                id: 'tenants.organizations.deactivate',
                auth,
                ...deactivate,
                validate: { params: idParams },
                handler: (request) => tenants().updateOrganization(Number(request.params.id), { isActive: false })
            }
        },
        // ---- bot instances ----
        {
            method: 'GET',
            path: '/api/super-admin/bot-instances',
            options: {
                id: 'tenants.bot-instances.list',
                auth,
                handler: (request) => tenants().listBotInstances({}, requestBaseUrl(request))
            }
        },
        {
            method: 'POST',
            path: '/api/super-admin/bot-instances',
            options: {
                id: 'tenants.bot-instances.create',
                auth,
                validate: { payload: Schemas.botCreate },
                handler: async (request, h) => h.response(await tenants().createBotInstance(request.payload, requestBaseUrl(request))).code(201)
            }
        },
        {
            method: 'PATCH',
            path: '/api/super-admin/bot-instances/{id}',
            options: {
                id: 'tenants.bot-instances.update',
                auth,
                validate: { params: idParams, payload: Schemas.botUpdate },
                handler: (request) => tenants().updateBotInstance(Number(request.params.id), request.payload, requestBaseUrl(request))
            }
        },
        {
            method: 'POST',
            path: '/api/super-admin/bot-instances/{id}/deactivate',
            options: {
                id: 'tenants.bot-instances.deactivate',
                auth,
                ...deactivate,
                validate: { params: idParams },
                handler: (request) => tenants().updateBotInstance(Number(request.params.id), { isActive: false }, requestBaseUrl(request))
            }
        },
        // ---- users ----
        {
            method: 'GET',
            path: '/api/super-admin/users',
            options: { id: 'tenants.users.list', auth, handler: () => tenants().listUsers() }
        },
        {
            method: 'POST',
            path: '/api/super-admin/users',
            options: {
                id: 'tenants.users.create',
                auth,
                validate: { payload: Schemas.userCreate },
                handler: async (request, h) => h.response(await tenants().createUser(request.payload)).code(201)
            }
        },
        {
            method: 'PATCH',
            path: '/api/super-admin/users/{id}',
            options: {
                id: 'tenants.users.update',
                auth,
                description: 'A new password or isActive false revokes every token of that user',
                validate: { params: idParams, payload: Schemas.userUpdate },
                handler: (request) => {
                    refuseSelfDisable(request, (request.payload as { isActive?: boolean }).isActive === false);
                    return tenants().updateUser(Number(request.params.id), request.payload);
                }
            }
        },
        {
            method: 'POST',
            path: '/api/super-admin/users/{id}/deactivate',
            options: {
                id: 'tenants.users.deactivate',
                auth,
                ...deactivate,
                validate: { params: idParams },
                handler: (request) => {
                    refuseSelfDisable(request, true);
                    return tenants().updateUser(Number(request.params.id), { isActive: false });
                }
            }
        }
    ];
}

/** A super admin cannot lock themselves out (there may be no other). */
function refuseSelfDisable(request: Request, disabling: boolean): void {
    if (disabling && staffOf(request).userId === Number(request.params.id)) {
        throw Boom.badRequest('You cannot deactivate your own account');
    }
}

