import type { Server } from '@hapi/hapi';
import * as Schemas from '../schemas';
import type { BotInstanceCreate, BotInstanceUpdate, OrganizationCreate, OrganizationUpdate } from '../schemas';
import type { TenantService } from '../services/tenant-service';
import { idParams, requestBaseUrl } from './common';
import { allow } from '../../../core/http/access';

/**
 * The super-admin API of organizations and bot instances (SPEC §7 'Super admin and organization'), with create,
 * update and deactivate, so tenants can be run from the browser as well as the CLI. Deactivating never deletes:
 * rows stay for analytics and can be re-activated with an update. (Users: the auth plugin.)
 */
export function registerSuperAdminRoutes(server: Server, tenants: TenantService): void {
    const auth = allow('super_admin');
    const deactivate = { description: 'Deactivates (soft); reactivate with PATCH isActive: true' };

    // ---- organizations ----
    server.route({
        method: 'GET',
        path: '/api/super-admin/organizations',
        options: { id: 'tenants.organizations.list', auth, handler: () => tenants.listOrganizations() }
    });
    server.route<{ Payload: OrganizationCreate }>({
        method: 'POST',
        path: '/api/super-admin/organizations',
        options: {
            id: 'tenants.organizations.create',
            plugins: { audit: { action: 'organizations.create', target: (_r, s) => `organization:${(s as { id?: number })?.id ?? ''}`, organization: (_r, s) => (s as { id?: number })?.id ?? null } },
            auth,
            validate: { payload: Schemas.organizationCreate },
            handler: async (request, h) => h.response(await tenants.createOrganization(request.payload)).code(201)
        }
    });
    server.route<{ Params: { id: number }; Payload: OrganizationUpdate }>({
        method: 'PATCH',
        path: '/api/super-admin/organizations/{id}',
        options: {
            id: 'tenants.organizations.update',
            plugins: { audit: { action: 'organizations.update', target: (r) => `organization:${r.params.id}`, organization: (r) => Number(r.params.id) } },
            auth,
            validate: { params: idParams, payload: Schemas.organizationUpdate },
            handler: (request) => tenants.updateOrganization(request.params.id, request.payload)
        }
    });
    server.route<{ Params: { id: number } }>({
        method: 'POST',
        path: '/api/super-admin/organizations/{id}/deactivate',
        options: {
            id: 'tenants.organizations.deactivate',
            plugins: { audit: { action: 'organizations.deactivate', target: (r) => `organization:${r.params.id}`, organization: (r) => Number(r.params.id) } },
            auth,
            ...deactivate,
            validate: { params: idParams },
            handler: (request) => tenants.updateOrganization(request.params.id, { isActive: false })
        }
    });

    // ---- bot instances ----
    server.route({
        method: 'GET',
        path: '/api/super-admin/bot-instances',
        options: {
            id: 'tenants.bot-instances.list',
            auth,
            handler: (request) => tenants.listBotInstances({}, requestBaseUrl(request))
        }
    });
    server.route<{ Payload: BotInstanceCreate }>({
        method: 'POST',
        path: '/api/super-admin/bot-instances',
        options: {
            id: 'tenants.bot-instances.create',
            plugins: { audit: { action: 'bot-instances.create', target: (_r, s) => `bot:${(s as { id?: number })?.id ?? ''}` } },
            auth,
            validate: { payload: Schemas.botCreate },
            handler: async (request, h) => h.response(await tenants.createBotInstance(request.payload, requestBaseUrl(request))).code(201)
        }
    });
    server.route<{ Params: { id: number }; Payload: BotInstanceUpdate }>({
        method: 'PATCH',
        path: '/api/super-admin/bot-instances/{id}',
        options: {
            id: 'tenants.bot-instances.update',
            plugins: { audit: { action: 'bot-instances.update', target: (r) => `bot:${r.params.id}` } },
            auth,
            validate: { params: idParams, payload: Schemas.botUpdate },
            handler: (request) => tenants.updateBotInstance(request.params.id, request.payload, requestBaseUrl(request))
        }
    });
    server.route<{ Params: { id: number } }>({
        method: 'POST',
        path: '/api/super-admin/bot-instances/{id}/deactivate',
        options: {
            id: 'tenants.bot-instances.deactivate',
            plugins: { audit: { action: 'bot-instances.deactivate', target: (r) => `bot:${r.params.id}` } },
            auth,
            ...deactivate,
            validate: { params: idParams },
            handler: (request) => tenants.updateBotInstance(request.params.id, { isActive: false }, requestBaseUrl(request))
        }
    });
}
