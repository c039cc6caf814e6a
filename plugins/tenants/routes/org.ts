import type { Server } from '@hapi/hapi';
import type { TenantService } from '../services/tenant-service';
import { requestBaseUrl } from './common';
import { allow } from '../../../core/http/access';
import { organizationQuery, ownOrganizationId } from '../../../core/http/own-organization';

/** SPEC §7: the organization user's own bot instances (org token). Its analytics: the analytics plugin. */
export function registerOrgRoutes(server: Server, tenants: TenantService): void {
    server.route({
        method: 'GET',
        path: '/api/org/bot-instances',
        options: {
            id: 'tenants.org-bot-instances.list',
            auth: allow('org_user'),
            description: 'The bot instances of the caller\'s organization, with public key and embed snippet',
            validate: { query: organizationQuery },
            handler: (request) => tenants.listBotInstances({ organizationId: ownOrganizationId(request) }, requestBaseUrl(request))
        }
    });
}
