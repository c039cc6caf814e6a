import type { Request, ResponseObject, Server } from '@hapi/hapi';

/**
 * Routes that change what staff or customers rely on declare, as data, the audit entry a success records (issue 25):
 *
 *     options: { plugins: { audit: { action: 'knowledge.update', target: (r) => `knowledge:${r.params.id}` } } }
 *
 * One server-wide extension (here, in core: it belongs to every route that declares it) records the entry after a
 * 2xx answer, with the caller, their store and address. Failures record nothing: nothing changed.
 */
export interface RouteAudit {
    action: string;
    /** What the action was done to (`kind:id`), from the request or the answer; never personal data. */
    target?: (request: Request, source: unknown) => string | null;
    /** The store it was done in, when not the caller's own (a super admin acting on a store). */
    organization?: (request: Request, source: unknown) => number | null;
}

declare module '@hapi/hapi' {
    interface PluginSpecificConfiguration {
        audit?: RouteAudit;
    }
}

export function registerRouteAudit(server: Server): void {
    server.ext('onPreResponse', async (request, h) => {
        const audit = request.route.settings.plugins?.audit;
        const response = request.response as ResponseObject | (Error & { isBoom: true });
        if (!audit || 'isBoom' in response || response.statusCode >= 400) {
            return h.continue;
        }
        let target: string | null = null;
        let organizationId: number | null | undefined;
        try {
            target = audit.target?.(request, response.source) ?? null;
            organizationId = audit.organization?.(request, response.source);
        }
        catch {
            target = null;
        }
        await request.server.app.audit.fromRequest(request, {
            action: audit.action, target, ...(organizationId !== undefined ? { organizationId } : {}), details: { method: request.method.toUpperCase(), route: request.route.path }
        });
        return h.continue;
    });
}
