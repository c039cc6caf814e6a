import type { MigrationEntry } from './db/migration-source';
import type { FeaturePlugin } from './types/feature';
import initial from './db/migrations/20260101000000-initial';
import health from '../plugins/health';
import tenants from '../plugins/tenants';
import auth from '../plugins/auth';
import loyalty from '../plugins/loyalty';
import questions from '../plugins/questions';
import analytics from '../plugins/analytics';
import widget from '../plugins/widget';
import livechat from '../plugins/livechat';
import web from '../plugins/web';

/**
 * The explicit, ordered list of feature plugins. A new feature is one folder under plugins/ and one line
 * here. Order matters only for seeding; hapi resolves plugin dependencies itself.
 */
export const featurePlugins: FeaturePlugin[] = [
    health,
    tenants,
    auth,
    loyalty,
    questions,
    analytics,
    widget,
    livechat,
    web
];

export function allMigrations(): MigrationEntry[] {
    return [initial, ...featurePlugins.flatMap((feature) => feature.migrations ?? [])];
}

export type { FeaturePlugin };
