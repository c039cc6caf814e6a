import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { migrations } from './migrations';
import { registerPrivacyRoutes } from './routes';
import { PrivacyService, RetentionPolicy } from './services/privacy-service';

export type { PersonExport, PersonFound, AuditRow } from './services/privacy-service';

const RETENTION_JOB = 'privacy-retention';
const DAY_MS = 24 * 3600 * 1000;
/** How often each node asks for the day's run (the job id makes it once a day). */
const RETENTION_CHECK_MS = 3600 * 1000;

/** Days each kind is kept when a store chose nothing (analytics: the server's ANALYTICS_RETENTION_DAYS). */
export const RETENTION_DEFAULTS: RetentionPolicy = { chats: 730, ai: 365, verifications: 90, analytics: 400, mail: 90, audit: 730 };

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
                staffEmails: async (ids) => new Map((await services.users.findRecordsByIds(ids)).map((u) => [u.id, u.email])),
                retentionDefaults: { ...RETENTION_DEFAULTS, analytics: config.analytics.retentionDays },
                organizationIds: async () => (await services.tenants.listOrganizations()).map((o) => o.id)
            });
            provide(server, 'privacy', service);
            registerPrivacyRoutes(server, service);

            // Retention: once a day (one job id per day, so several nodes run it once), every store's windows.
            server.app.jobs.define(RETENTION_JOB, async () => {
                const deleted = await service.runRetention();
                for (const [organizationId, counts] of Object.entries(deleted)) {
                    server.app.log.info({ organizationId: Number(organizationId), deleted: counts }, 'retention: old data deleted');
                }
            });
            const timers: NodeJS.Timeout[] = [];
            server.ext('onPostStart', () => {
                const queue = () => server.app.jobs.add(RETENTION_JOB, {}, { jobId: `privacy-retention-${Math.floor(Date.now() / DAY_MS)}`, attempts: 1 })
                    .catch((err) => server.app.log.warn({ err: err.message }, 'retention run not queued'));
                timers.push(setTimeout(queue, 60_000), setInterval(queue, RETENTION_CHECK_MS));
                timers.forEach((t) => t.unref());
            });
            server.ext('onPreStop', () => {
                timers.forEach((t) => clearTimeout(t));
            });
        }
    }
};

export default feature;
