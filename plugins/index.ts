import type { FeaturePlugin } from '../core/types/feature';
import health from './health';
import auth from './auth';
import tenants from './tenants';
import loyalty from './loyalty';
import questions from './questions';
import analytics from './analytics';
import ai from './ai';
import widget from './widget';
import conversation from './conversation';
import livechat from './livechat';
import systemTest from './system-test';
import privacy from './privacy';
import web from './web';

/**
 * The composition root: the explicit, ordered list of feature plugins that `createServer(config, plugins)`
 * registers. A new feature is one folder under plugins/ and one line here. The order is the order of demo
 * seeding; hapi checks each plugin's `dependencies` itself. `auth` comes before `tenants`, whose routes use its
 * strategies (auth asks services.tenants only while serving). `web` serves the admin app's catch-all route,
 * so it stays last.
 */
export const plugins: FeaturePlugin[] = [
    health,
    auth,
    tenants,
    loyalty,
    questions,
    analytics,
    ai,
    conversation,
    widget,
    livechat,
    privacy,
    systemTest,
    web
];
