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
    '/admin-chat', '/admin-chat/history', '/admin-questions', '/ai-management', '/ai-test', '/super-admin-login', '/super-admin', '/org-login',
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

/**
 * The site's icon (every page's browser asks /favicon.ico): 32×32, a white chat bubble on the product's blue, drawn
 * here into an ICO (one 32-bit BMP image and its mask) so no binary file has to be shipped or built.
 */
export function faviconIco(): Buffer {
    const size = 32;
    const pixels = Buffer.alloc(size * size * 4);
    const inRoundedSquare = (x: number, y: number) => {
        const r = 7;
        const cx = Math.min(Math.max(x, r), size - 1 - r);
        const cy = Math.min(Math.max(y, r), size - 1 - r);
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
    };
    const inBubble = (x: number, y: number) => {
        const ellipse = ((x - 15.5) / 10) ** 2 + ((y - 14) / 7.5) ** 2 <= 1;
        const tail = y >= 19 && y <= 25 && x >= 9 && x <= 14 && x - 9 <= 25 - y;
        return ellipse || tail;
    };
    for (let row = 0; row < size; row++) {
        const y = size - 1 - row;                   // BMP rows go bottom-up
        for (let x = 0; x < size; x++) {
            const o = (row * size + x) * 4;
            if (!inRoundedSquare(x, y)) {
                continue;                           // transparent
            }
            const [b, g, r] = inBubble(x, y) ? [255, 255, 255] : [0xd7, 0x73, 0x2d];   // #2d72d7
            pixels.writeUInt8(b, o);
            pixels.writeUInt8(g, o + 1);
            pixels.writeUInt8(r, o + 2);
            pixels.writeUInt8(255, o + 3);
        }
    }
    const mask = Buffer.alloc(size * 4);            // 1 bit per pixel, rows padded to 4 bytes: all opaque (alpha rules)
    const info = Buffer.alloc(40);
    info.writeUInt32LE(40, 0);
    info.writeInt32LE(size, 4);
    info.writeInt32LE(size * 2, 8);                 // the image and its mask
    info.writeUInt16LE(1, 12);
    info.writeUInt16LE(32, 14);
    info.writeUInt32LE(pixels.length + mask.length, 20);
    const image = Buffer.concat([info, pixels, mask]);
    const header = Buffer.alloc(6 + 16);
    header.writeUInt16LE(0, 0);
    header.writeUInt16LE(1, 2);                     // an icon
    header.writeUInt16LE(1, 4);                     // one image
    header.writeUInt8(size, 6);
    header.writeUInt8(size, 7);
    header.writeUInt16LE(1, 10);
    header.writeUInt16LE(32, 12);
    header.writeUInt32LE(image.length, 14);
    header.writeUInt32LE(header.length, 18);
    return Buffer.concat([header, image]);
}

/** The meta element the admin app reads SUPPORT_EMAIL from (ui/src/pages/OrgLogin.tsx). */
export const SUPPORT_EMAIL_META = 'loyalty-chat:support-email';

function escapeAttribute(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** index.html with the settings the pages need before any request (no inline script: a meta element). */
function withSettings(html: string, supportEmail: string | null): string {
    if (!supportEmail) {
        return html;
    }
    const meta = `<meta name="${SUPPORT_EMAIL_META}" content="${escapeAttribute(supportEmail)}">`;
    return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : meta + html;
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
            const favicon = faviconIco();
            server.route({
                method: 'GET',
                path: '/favicon.ico',
                options: {
                    id: 'web.favicon.get',
                    auth: PUBLIC,
                    cache: { privacy: 'public', expiresIn: 7 * 24 * 3600 * 1000 },
                    handler: (request, h) => h.response(favicon).type('image/x-icon')
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
                        return h.response(withSettings(indexHtml(), server.app.config.supportEmail))
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
