import * as Fs from 'fs';
import * as Path from 'path';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import type { Services } from '../../core/types';
import Joi from 'joi';
import { allow, PUBLIC } from '../../core/http/access';
import { adminOf } from '../../core/http/callers';
import { fields } from '../../core/http/fields';
import type { BotLook, StoreLanguages } from '../../core/types/api';
import { SHIPPED_LANGUAGES } from '../../core/shared/languages';
import { PUBLIC_DIR } from '../../core/paths';
import { contentSecurityPolicy } from '../../core/http/security';
import { STOREFRONT_CSS, storefrontHtml } from './storefront';

export const WIDGET_DIR = Path.join(PUBLIC_DIR, 'widget');

/** The public settings built into a served widget script (no secrets: the key is the bot's public key). */
export interface WidgetPublicConfig {
    key: string;
    storeName: string;
    apiOrigin: string;
    subdomain: string;
    /** The store's registered domains: the loader shows the widget only on their pages (issue 11). */
    domains: string[];
    /** The store's AI agent is on (optional services.ai): the panel offers the ai step. */
    aiEnabled: boolean;
    /** Colour, side, title and greeting of the bot instance (and per language: look.texts). */
    look: BotLook;
    /** The languages the store enabled and its default (issue 27): the widget chooses among them. */
    languages: StoreLanguages;
}

let cachedLoader: { mtimeMs: number; text: string } | null = null;
function loaderSource(): string | null {
    const file = Path.join(WIDGET_DIR, 'loader.js');
    try {
        const stat = Fs.statSync(file);
        if (!cachedLoader || cachedLoader.mtimeMs !== stat.mtimeMs) {
            cachedLoader = { mtimeMs: stat.mtimeMs, text: Fs.readFileSync(file, 'utf8') };
        }
        return cachedLoader.text;
    }
    catch {
        return null;
    }
}

/** PUBLIC_URL, else the origin the script was fetched from. */
function apiOrigin(server: Server, request: Request): string {
    if (server.app.config.publicUrl) {
        return server.app.config.publicUrl;
    }
    const proto = server.app.config.trustProxy && typeof request.headers['x-forwarded-proto'] === 'string'
        ? request.headers['x-forwarded-proto'].split(',')[0].trim()
        : request.server.info.protocol;
    return `${proto}://${request.info.host}`;
}

/** The contrast ratio of white text on a #rrggbb background (WCAG 2 relative luminance). */
export function whiteContrast(hex: string): number {
    const channel = (i: number) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    return 1.05 / (l + 0.05);
}

const text = (max: number) => Joi.string().trim().max(max).allow(null, '').empty('').default(null);

/** PUT /api/widget/bots/{id}/look: the whole look (a missing field goes back to its default). */
export const lookSchema = Joi.object<BotLook>({
    color: Joi.string().trim().lowercase().pattern(/^#[0-9a-f]{6}$/).allow(null).default(null)
        .custom((value: string | null, helpers) => (value && whiteContrast(value) < 4.5 ? helpers.error('color.contrast') : value))
        .messages({
            'string.pattern.base': '"color" must be a colour like #1d4ed8',
            'color.contrast': '"color" is too light: white text on it must have a contrast of at least 4.5:1'
        }),
    position: Joi.string().valid('left', 'right').default('right'),
    title: text(80),
    greeting: text(500),
    // Per language: its own title and greeting (a language left out, or both empty, gets the catalogue's texts).
    texts: Joi.object().pattern(Joi.string().valid(...SHIPPED_LANGUAGES), Joi.object({ title: text(80), greeting: text(500), privacy: Joi.string().trim().max(300).allow(null, '').empty('') }))
        .default({})
        .messages({ 'object.unknown': '"texts" takes the shipped languages ({{#label}} is not one: ' + SHIPPED_LANGUAGES.join(', ') + ')' }),
    // Consent (issue 25): the store's privacy line, and its privacy policy (a web page: http or https only).
    privacy: text(300),
    privacyUrl: Joi.string().trim().max(500).uri({ scheme: ['https', 'http'] }).allow(null, '').empty('').default(null)
        .messages({ 'string.uri': '"privacyUrl" must be a web address (https://…)', 'string.uriCustomScheme': '"privacyUrl" must be a web address (https://…)' })
});

/** PUT /api/widget/languages: the store's enabled languages (shipped ones, at least one) and its default among them. */
export const languagesSchema = Joi.object<StoreLanguages>({
    enabled: Joi.array().items(Joi.string().valid(...SHIPPED_LANGUAGES)).min(1).unique().required()
        .messages({ 'array.min': '"enabled" needs at least one language', 'array.unique': '"enabled" names a language twice' }),
    default: Joi.string().valid(Joi.in('enabled')).required()
        .messages({ 'any.only': '"default" must be one of the enabled languages' })
});

/** Whether the store's AI agent is on: false when the server runs without the AI feature or it cannot tell. */
async function aiEnabled(server: Server, organizationId: number): Promise<boolean> {
    const ai = (server.app.services as Partial<Services>).ai;
    try {
        return ai ? await ai.isEnabled(organizationId) : false;
    }
    catch {
        return false;
    }
}

/** JSON safe to put inside a <script>-loaded file (no '</script>' or line separators). */
function scriptJson(value: unknown): string {
    return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const feature: FeaturePlugin = {
    plugin: {
        name: 'widget',
        dependencies: ['tenants', 'auth'],
        register(server: Server) {
            server.route([
                {
                    method: 'GET',
                    path: '/widget-{subdomain}.js',
                    options: {
                        id: 'widget.script.get',
                        auth: PUBLIC,
                        handler: async (request, h) => {
                            const subdomain = String(request.params.subdomain).toLowerCase();
                            const js = (body: string, code: number, cache: string) => h.response(body)
                                .type('application/javascript; charset=utf-8')
                                .header('cache-control', cache)
                                .header('x-content-type-options', 'nosniff')
                                .code(code);
                            const notFound = (why: string) => js(`/* loyalty-chat: ${why} */\n`, 404, 'no-cache');
                            if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(subdomain)) {
                                return notFound('no widget at this address');
                            }
                            const tenants = server.app.services.tenants;
                            const organization = await tenants.getOrganizationBySubdomain(subdomain);
                            if (!organization || !organization.isActive) {
                                return notFound(`no active store with subdomain "${subdomain}"`);
                            }
                            const bot = (await tenants.listBotInstances({ organizationId: organization.id })).find((b) => b.isActive);
                            if (!bot) {
                                return notFound(`store "${subdomain}" has no active bot instance`);
                            }
                            const loader = loaderSource();
                            if (!loader) {
                                return js('/* loyalty-chat: the widget is not built (npm run build) */\n', 503, 'no-cache');
                            }
                            const config: WidgetPublicConfig = {
                                key: bot.publicKey,
                                storeName: organization.storeName,
                                apiOrigin: apiOrigin(server, request),
                                subdomain,
                                domains: [organization.domain, ...organization.extraDomains],
                                look: bot.look,
                                languages: organization.languages,
                                aiEnabled: await aiEnabled(server, organization.id)
                            };
                            // The loader reads and deletes this global synchronously when it runs.
                            return js(`window.__loyaltyChatWidget=${scriptJson(config)};\n${loader}`, 200, 'public, max-age=300');
                        }
                    }
                },
                {
                    method: 'GET',
                    path: '/widget/{file}',
                    options: {
                        id: 'widget.chunk.get',
                        auth: PUBLIC,
                        cache: { privacy: 'public', expiresIn: 365 * 24 * 3600 * 1000 },
                        handler: (request, h) => {
                            const file = String(request.params.file);
                            // Only the hashed chunks: the loader itself is served per store above.
                            if (!/^[A-Za-z0-9_-]+\.[0-9a-f]{10}\.js$/.test(file)) {
                                return h.response({ statusCode: 404, error: 'Not Found', message: 'No such widget file' }).code(404);
                            }
                            return h.file(Path.join(WIDGET_DIR, file), { confine: WIDGET_DIR, etagMethod: 'simple' })
                                .header('access-control-allow-origin', '*')
                                .header('cache-control', 'public, max-age=31536000, immutable');
                        }
                    }
                },
                {
                    method: 'GET',
                    path: '/api/widget/bots',
                    options: {
                        id: 'widget.bots.list',
                        auth: allow('admin'),
                        handler: (request) => server.app.services.tenants.listBotInstances({ organizationId: adminOf(request).organizationId })
                    }
                },
                {
                    method: 'PUT',
                    path: '/api/widget/bots/{id}/look',
                    options: {
                        id: 'widget.bot-look.update',
                        plugins: { audit: { action: 'settings.widget-look.update' } },
                        auth: allow('admin'),
                        validate: { params: Joi.object({ id: fields.id.required() }), payload: lookSchema.required() },
                        handler: (request) => server.app.services.tenants.updateBotLook(
                            adminOf(request).organizationId, Number((request.params as { id: number }).id), request.payload as BotLook)
                    }
                },
                {
                    method: 'GET',
                    path: '/api/widget/languages',
                    options: {
                        id: 'widget.languages.get',
                        auth: allow('admin'),
                        handler: async (request) => {
                            const organization = await server.app.services.tenants.getOrganization(adminOf(request).organizationId);
                            return { ...organization!.languages, shipped: SHIPPED_LANGUAGES };
                        }
                    }
                },
                {
                    method: 'PUT',
                    path: '/api/widget/languages',
                    options: {
                        id: 'widget.languages.update',
                        auth: allow('admin'),
                        validate: { payload: languagesSchema.required() },
                        handler: async (request) => ({
                            ...await server.app.services.tenants.updateLanguages(adminOf(request).organizationId, request.payload as StoreLanguages),
                            shipped: SHIPPED_LANGUAGES
                        })
                    }
                },
                ...['/', '/demo'].map((path) => ({
                    method: 'GET' as const,
                    path,
                    options: {
                        id: path === '/' ? 'widget.storefront.get' : 'widget.storefront.demo',
                        auth: PUBLIC,
                        handler: (request: Request, h: ResponseToolkit) => h.response(storefrontHtml())
                            .type('text/html; charset=utf-8')
                            .header('cache-control', 'no-cache')
                            .header('content-security-policy', contentSecurityPolicy(request))
                    }
                })),
                {
                    method: 'GET',
                    path: '/storefront.css',
                    options: {
                        id: 'widget.storefront.css',
                        auth: PUBLIC,
                        handler: (_request, h) => h.response(STOREFRONT_CSS)
                            .type('text/css; charset=utf-8')
                            .header('cache-control', 'public, max-age=300')
                    }
                }
            ]);
        }
    }
};

export default feature;
