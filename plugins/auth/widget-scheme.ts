import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { scopesOf, WidgetCaller } from '../../core/types/auth';
import type { Organization } from '../tenants/services/tenant-service';
import { PUBLIC } from '../../core/http/access';

export const WIDGET_KEY_HEADER = 'x-widget-key';

function hostOf(origin: string): string | null {
    try {
        return new URL(origin).hostname.toLowerCase();
    }
    catch {
        return null;
    }
}

/** A page origin is allowed when its host is one of the organization's domains (or a subdomain of one), or PUBLIC_URL's. */
export function originAllowed(origin: string, organization: Organization, publicUrl: string | null, requestHost?: string): boolean {
    const host = hostOf(origin);
    if (!host) {
        return false;
    }
    const domains = [organization.domain, ...organization.extraDomains];
    if (publicUrl) {
        const publicHost = hostOf(publicUrl);
        if (publicHost) {
            domains.push(publicHost);
        }
    }
    if (requestHost && origin.replace(/^https?:\/\//, '') === requestHost) {
        return true;        // same origin as the API itself
    }
    return domains.some((domain) => host === domain || host.endsWith('.' + domain));
}

/**
 * The one CORS decision of the widget's calls, with its key or with a customer token (DESIGN §5): a request
 * without Origin is not from a browser page and passes; a page's Origin must be one of the organization's
 * registered domains (or this server's own origin, or PUBLIC_URL's).
 */
export function widgetOriginAllowed(server: Server, request: Request, organization: Organization): boolean {
    const origin = request.headers.origin as string | undefined;
    return !origin || originAllowed(origin, organization, server.app.config.publicUrl, request.info.host);
}

/**
 * CORS headers of a widget call's answer: Access-Control-Allow-Origin echoes the page's Origin only when
 * `widgetOriginAllowed` accepts it for the organization (never `*`, never with credentials: the calls carry
 * their key or token in a header, not in cookies). Vary: Origin either way, so a cache keeps them apart.
 */
export function setWidgetCorsHeaders(server: Server, request: Request, organization: Organization | null): void {
    const origin = request.headers.origin as string | undefined;
    const response = request.response as any;
    if (!origin || !response) {
        return;
    }
    const allowed = !!organization && widgetOriginAllowed(server, request, organization);
    if (response.isBoom) {
        const headers = response.output.headers as Record<string, string>;
        headers.vary = headers.vary ? `${headers.vary}, origin` : 'origin';
        if (allowed) {
            headers['access-control-allow-origin'] = origin;
        }
        return;
    }
    response.vary('origin');
    if (allowed) {
        response.header('access-control-allow-origin', origin);
    }
}

/**
 * The 'widget' strategy: the bot instance's public key in the X-Widget-Key header (or ?key= for the
 * WebSocket and GETs). The organization comes from the key, never from the request body. A request from a
 * browser page whose Origin is not a registered domain of that organization is refused with 403.
 */
export function registerWidgetScheme(server: Server): void {
    server.auth.scheme('widget-key', () => ({
        authenticate: async (request: Request, h: ResponseToolkit) => {
            const key = (request.headers[WIDGET_KEY_HEADER] as string | undefined) ?? (request.query as any)?.key;
            if (!key || typeof key !== 'string' || key.length > 100) {
                throw Boom.unauthorized('Missing widget key', 'WidgetKey');
            }
            const resolved = await server.app.services.tenants.resolveWidgetKey(key);
            if (!resolved) {
                throw Boom.unauthorized('Unknown or inactive widget key', 'WidgetKey');
            }
            if (!widgetOriginAllowed(server, request, resolved.organization)) {
                throw Boom.forbidden(`Origin ${request.headers.origin} is not a registered domain of this store`);
            }
            const caller: WidgetCaller = { kind: 'widget', botInstanceId: resolved.bot.id, organizationId: resolved.organization.id };
            return h.authenticated({ credentials: { caller, scope: scopesOf(caller) }, artifacts: { organization: resolved.organization } });
        }
    }));
    server.auth.strategy('widget', 'widget-key');

    // CORS for widget routes (tagged 'widget'): the preflight names no key, so it is answered for any origin
    // (it grants nothing, and never credentials); the real request is checked against the organization's
    // domains above, and only then gets Access-Control-Allow-Origin. Customer-token calls: plugins/livechat.
    server.ext('onPreResponse', (request, h) => {
        if (!request.headers.origin || !request.route.settings.tags?.includes('widget')) {
            return h.continue;
        }
        if (request.auth.credentials?.caller?.kind !== 'widget') {
            return h.continue;
        }
        setWidgetCorsHeaders(server, request, (request.auth.artifacts as { organization?: Organization } | undefined)?.organization ?? null);
        return h.continue;
    });
    server.route({
        method: 'OPTIONS',
        path: '/api/{any*}',
        options: { id: 'auth.cors.preflight', auth: PUBLIC },
        handler: (request, h) => h.response()
            .code(204)
            .header('access-control-allow-origin', (request.headers.origin as string | undefined) ?? '*')
            .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE')
            .header('access-control-allow-headers', 'content-type, x-widget-key, authorization')
            .header('access-control-max-age', '600')
            .header('vary', 'origin')
    });
}
