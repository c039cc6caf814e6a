import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';

/** The livechat feature (stub: filled by its issue). */
const feature: FeaturePlugin = {
    plugin: {
        name: 'livechat',
        dependencies: ['tenants', 'auth'],
        register(_server: Server) {
            // routes, services and jobs of this feature
        }
    }
};

export default feature;
