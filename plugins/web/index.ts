import * as Fs from 'fs';
import * as Path from 'path';
import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { PUBLIC } from '../../core/http/access';
import { PUBLIC_DIR } from '../../core/paths';
import { contentSecurityPolicy } from '../../core/http/security';

/** Client-side routes of the admin app (SPEC §2). Anything else renders the app's '404 Page Not Found' with status 404. */
export const CLIENT_ROUTES = [
    '/', '/demo',
    '/admin-access-2024', '/admin-login', '/admin-dashboard', '/analytics', '/test', '/test-dashboard',
    '/admin-chat', '/admin-questions', '/ai-management', '/ai-test', '/super-admin-login', '/super-admin', '/org-login',
    '/org-dashboard'
];

const ADMIN_DIR = Path.join(PUBLIC_DIR, 'admin');

let cachedIndex: string | null = null;
function indexHtml(): string {
    if (cachedIndex === null || process.env.NODE_ENV !== 'production') {
        const file = Path.join(ADMIN_DIR, 'index.html');
        cachedIndex = Fs.existsSync(file)
            ? Fs.readFileSync(file, 'utf8')
            : '<!doctype html><title>loyalty-chat</title><p>The admin app is not built. Run <code>npm run build</code>.</p>';
    }
    return cachedIndex;
}

/** Serves the built admin app: hashed assets cached for a year, index.html for every client route. */
const feature: FeaturePlugin = {
    plugin: {
        name: 'web',
        register(server: Server) {
            server.route({
                method: 'GET',
                path: '/assets/{file*}',
                options: {
                    id: 'web.assets.get',
                    auth: PUBLIC,
                    cache: { privacy: 'public', expiresIn: 365 * 24 * 3600 * 1000 },
                    handler: { directory: { path: Path.join(ADMIN_DIR, 'assets'), listing: false, index: false, etagMethod: 'simple' } }
                }
            });
            server.route({
                method: 'GET',
                path: '/{path*}',
                options: {
                    id: 'web.app.get',
                    auth: PUBLIC,
                    handler: (request, h) => {
                        const path = '/' + (request.params.path ?? '');
                        if (path.startsWith('/api/') || path === '/api') {
                            throw Boom.notFound(`No route at GET ${path}`);
                        }
                        const known = CLIENT_ROUTES.includes(path.replace(/\/+$/, ''));
                        return h.response(indexHtml())
                            .type('text/html; charset=utf-8')
                            .header('cache-control', 'no-cache')
                            .header('content-security-policy', contentSecurityPolicy(request))
                            .code(known ? 200 : 404);
                    }
                }
            });
        }
    }
};

export default feature;
