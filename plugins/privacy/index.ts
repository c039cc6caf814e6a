import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { migrations } from './migrations';
import { registerPrivacyRoutes } from './routes';
import { PrivacyService } from './services/privacy-service';

export type { PersonExport, PersonFound, AuditRow } from './services/privacy-service';

declare module '../../core/types' {
    interface Services {
        privacy: PrivacyService;
    }
}

/**
 * Customers' data under their control (issue 25): right of access (export) and erasure over every plugin's tables
 * (each answers for its own through `server.app.personalData`), and the audit trail's store.
 */
const feature: FeaturePlugin = {
    migrations,
    plugin: {
        name: 'privacy',
        dependencies: ['tenants', 'auth'],
        register(server: Server) {
            const { db, config, personalData, audit, services } = server.app;
            const service = new PrivacyService({
                db, secret: config.jwtSecret, registry: personalData, audit,
                organization: async (id) => {
                    const org = await services.tenants.getOrganization(id);
                    return org ? { name: org.name, country: org.country ?? 'US', timeZone: await services.tenants.timeZoneOf(id) } : null;
                },
                staffEmails: async (ids) => new Map((await services.users.findRecordsByIds(ids)).map((u) => [u.id, u.email]))
            });
            provide(server, 'privacy', service);
            registerPrivacyRoutes(server, service);
        }
    }
};

export default feature;
