import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { scopesOf, WidgetCaller } from '../../core/types/auth';
import type { Organization } from '../../core/types/api';
import { PUBLIC } from '../../core/http/access';
import { setWidgetCorsHeaders, widgetOriginAllowed } from '../../core/http/origins';

export const WIDGET_KEY_HEADER = 'x-widget-key';

/**
 * The 'widget' strategy: the bot instance's public key in the X-Widget-Key header (or ?key= for the
 * WebSocket and GETs). The organization comes from the key, never from the request body. A request from a
 * browser page whose Origin is not a registered domain of that organization is refused with 403.
 */
export function registerWidgetScheme(server: Server): void {
    server.auth.scheme('widget-key', () => ({
        authenticate: async (request: Request, h: ResponseToolkit) => {
            const key = (request.headers[WIDGET_KEY_HEADER] as string | undefined) ?? request.query.key;
            if (!key || typeof key !== 'string' || key.length > 100) {
                throw Boom.unauthorized('Missing widget key', 'WidgetKey');
            }
            const resolved = await server.app.services.users.organizations().resolveWidgetKey(key);
            if (!resolved) {
                throw Boom.unauthorized('Unknown or inactive widget key', 'WidgetKey');
            }
            if (!widgetOriginAllowed(server, request, resolved.organization)) {
                throw Boom.forbidden(`Origin ${request.headers.origin} is not a registered domain of this store`);
            }
            const caller: WidgetCaller = { kind: 'widget', botInstanceId: resolved.bot.id, organizationId: resolved.organization.id };
            return h.authenticated({ credentials: { caller, scope: scopesOf(caller) }, artifacts: { organization: resolved.organization } });
        },
        // CORS for the widget-key calls, on exactly the routes that use this strategy (the answers to a real
        // request from a registered domain of the store, errors included; a refused origin never gets here).
        // The preflight names no key, so it is answered below for any origin (it grants nothing, and never
        // credentials). Customer-token calls: the 'customer' strategy (plugins/livechat/customer-auth.ts).
        response: (request: Request, h: ResponseToolkit) => {
            if (request.headers.origin && request.route.settings.tags?.includes('widget')) {
                setWidgetCorsHeaders(server, request, (request.auth.artifacts as { organization?: Organization } | undefined)?.organization ?? null);
            }
            return h.continue;
        }
    }));
    server.auth.strategy('widget', 'widget-key');

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
