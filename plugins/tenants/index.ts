import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { PUBLIC } from '../../core/http/access';
import { localBaseUrl } from '../../config';
import { TenantService } from './services/tenant-service';
import baseline from './migrations/20260101000000-tenants';
import { superAdminRoutes } from './routes/super-admin';
import { orgRoutes } from './routes/org';
import { DEMO_USERS as DEMO_LOGINS } from './demo-data';
import { DEMO_ORG, DEMO_USERS } from './demo-data';

declare module '../../core/types' {
    interface Services {
        tenants: TenantService;
    }
}

/**
 * Creates (or finds) the demo organization with its bot instance and logins. Returns the lines to print. The
 * other features add their demo data through their seedDemo hooks (bin/commands/seed.ts).
 */
export async function seedDemoOrganization(server: Server): Promise<{ organizationId: number; lines: string[] }> {
    const tenants = server.app.services.tenants;
    const production = server.app.config.env === 'production';
    const lines: string[] = [];

    let org = await tenants.getOrganizationBySubdomain(DEMO_ORG.subdomain);
    if (!org) {
        org = await tenants.createOrganization(DEMO_ORG);
        lines.push(`Created organization "${org.name}" (subdomain ${org.subdomain}, domain ${org.domain})`);
    }
    const bots = await tenants.listBotInstances({ organizationId: org.id });
    const bot = bots[0] ?? await tenants.createBotInstance({ organizationId: org.id, name: 'Demo Store widget', description: 'The widget on the demo storefront' });
    if (!bots.length) {
        lines.push(`Created bot instance "${bot.name}": ${bot.embedSnippet}`);
    }

    for (const demo of DEMO_USERS) {
        if (await tenants.findUserRecordByEmail(demo.email)) {
            lines.push(`Login exists: ${demo.role.padEnd(11)} ${demo.email}`);
            continue;
        }
        const password = production ? Crypto.randomBytes(12).toString('base64url') : demo.password;
        await tenants.createUser({
            email: demo.email,
            password,
            role: demo.role,
            name: demo.name,
            organizationId: demo.role === 'super_admin' ? null : org.id
        });
        lines.push(`Created login: ${demo.role.padEnd(11)} ${demo.email}  password: ${password}`);
    }

    return { organizationId: org.id, lines };
}

const feature: FeaturePlugin = {
    migrations: [baseline],
    plugin: {
        name: 'tenants',
        register(server: Server) {
            // Without PUBLIC_URL, snippets point at this server: its real port once it listens (PORT may be 0).
            const { config } = server.app;
            provide(server, 'tenants', new TenantService(server.app.db, config.publicUrl,
                () => localBaseUrl(config.host, server.info.port || config.port), (who) => server.app.realtime.revoke(who)));
            const tenants = () => server.app.services.tenants;

            // The demo super-admin login for the login screen's demo box: only outside production, and
            // only while that demo login exists.
            server.route({
                method: 'GET',
                path: '/api/super-admin/demo-credentials',
                options: {
                    id: 'tenants.demo-credentials.get',
                    auth: PUBLIC,
                    description: 'The demo super-admin login (404 in production)',
                    handler: async () => {
                        const demo = DEMO_LOGINS.find((u) => u.role === 'super_admin')!;
                        if (server.app.config.env === 'production' || !await tenants().findUserRecordByEmail(demo.email)) {
                            throw Boom.notFound('No demo credentials');
                        }
                        return { email: demo.email, password: demo.password };
                    }
                }
            });

            // The super-admin and organization APIs use auth strategies that the auth plugin (which
            // depends on this one) defines, so they are added once it is registered.
            server.dependency('auth', async (srv) => {
                srv.route([...superAdminRoutes(tenants), ...orgRoutes(server, tenants)]);
            });
        }
    }
};

export default feature;
export { TenantService };
