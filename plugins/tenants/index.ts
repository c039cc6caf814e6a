import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { localBaseUrl } from '../../config';
import { TenantService } from './services/tenant-service';
import { registerSuperAdminRoutes } from './routes/super-admin';
import { registerOrgRoutes } from './routes/org';
import { DEMO_BOT, DEMO_ORG } from './demo-data';
import { migrations } from './migrations';

declare module '../../core/types' {
    interface Services {
        tenants: TenantService;
    }
}

/**
 * Creates (or finds) the demo organization with its bot instance. Returns the organization and the lines to print.
 * The other features add their demo data, the demo logins too, through their seedDemo hooks (bin/commands/seed.ts).
 */
export async function seedDemoOrganization(server: Server): Promise<{ organizationId: number; lines: string[] }> {
    const tenants = server.app.services.tenants;
    const lines: string[] = [];

    let org = await tenants.getOrganizationBySubdomain(DEMO_ORG.subdomain);
    if (!org) {
        org = await tenants.createOrganization(DEMO_ORG);
        lines.push(`Created organization "${org.name}" (subdomain ${org.subdomain}, domain ${org.domain})`);
    }
    const bots = await tenants.listBotInstances({ organizationId: org.id });
    if (!bots.length) {
        const bot = await tenants.createBotInstance({ organizationId: org.id, ...DEMO_BOT });
        lines.push(`Created bot instance "${bot.name}": ${bot.embedSnippet}`);
    }
    return { organizationId: org.id, lines };
}

/**
 * Organizations and bot instances (`services.tenants`), the super-admin API of both and the organization user's
 * bot instances. Its routes use the staff strategies of the auth plugin, which therefore registers first.
 */
const feature: FeaturePlugin = {
    migrations,
    plugin: {
        name: 'tenants',
        dependencies: ['auth'],
        register(server: Server) {
            const { config } = server.app;
            const tenants = new TenantService({
                db: server.app.db,
                publicUrl: config.publicUrl,
                // Without PUBLIC_URL, snippets point at this server: its real port once it listens (PORT may be 0).
                localUrl: () => localBaseUrl(config.host, server.info.port || config.port),
                revoke: (who) => server.app.realtime.revoke(who)
            });
            provide(server, 'tenants', tenants);
            // auth asks the organizations while serving (it cannot depend on tenants, which depends on it)
            server.app.services.users.useOrganizations(tenants);
            registerSuperAdminRoutes(server, tenants);
            registerOrgRoutes(server, tenants);
        }
    }
};

export default feature;
export { TenantService };
