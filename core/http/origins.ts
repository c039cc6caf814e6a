import type { Request, Server } from '@hapi/hapi';

/**
 * The host name of a URL, an Origin or a Referer header value: lowercase, without port; null when the value is
 * missing or not a URL. The one parse of page origins (widget CORS, the domain of analytics events, loyalty
 * sessions and live chats).
 */
export function hostOf(url?: string | null): string | null {
    if (!url) {
        return null;
    }
    try {
        return new URL(url).hostname.toLowerCase() || null;
    }
    catch {
        return null;
    }
}

/** The domains an organization registered for its store's pages: its main domain and the extra ones. */
export interface OrganizationDomains {
    domain: string;
    extraDomains: readonly string[];
}

/**
 * A page origin is allowed when its host is one of the organization's domains (or a subdomain of one), or
 * PUBLIC_URL's host, or when it is the origin the request reached (`requestHost`: the API's own pages).
 */
export function originAllowed(origin: string, organization: OrganizationDomains, publicUrl: string | null, requestHost?: string): boolean {
    const host = hostOf(origin);
    if (!host) {
        return false;
    }
    if (requestHost && origin.replace(/^https?:\/\//, '') === requestHost) {
        return true;        // same origin as the API itself
    }
    const domains = [organization.domain, ...organization.extraDomains];
    const publicHost = hostOf(publicUrl);
    if (publicHost) {
        domains.push(publicHost);
    }
    return domains.some((domain) => host === domain || host.endsWith('.' + domain));
}

/**
 * The one CORS decision of the widget's calls, with its key or with a customer token (DESIGN §5): a request
 * without Origin is not from a browser page and passes; a page's Origin must be one of the organization's
 * registered domains (or this server's own origin, or PUBLIC_URL's).
 */
export function widgetOriginAllowed(server: Server, request: Request, organization: OrganizationDomains): boolean {
    const origin = request.headers.origin as string | undefined;
    return !origin || originAllowed(origin, organization, server.app.config.publicUrl, request.info.host);
}

/**
 * CORS headers of a widget call's answer: Access-Control-Allow-Origin echoes the page's Origin only when
 * `widgetOriginAllowed` accepts it for the organization (never `*`, never with credentials: the calls carry
 * their key or token in a header, not in cookies). Vary: Origin either way, so a cache keeps them apart.
 */
export function setWidgetCorsHeaders(server: Server, request: Request, organization: OrganizationDomains | null): void {
    const origin = request.headers.origin as string | undefined;
    const response = request.response;
    if (!origin || !response) {
        return;
    }
    const allowed = !!organization && widgetOriginAllowed(server, request, organization);
    if ('isBoom' in response && response.isBoom) {
        const headers = response.output.headers as Record<string, string>;
        headers.vary = headers.vary ? `${headers.vary}, origin` : 'origin';
        if (allowed) {
            headers['access-control-allow-origin'] = origin;
        }
        return;
    }
    if ('vary' in response) {
        response.vary('origin');
        if (allowed) {
            response.header('access-control-allow-origin', origin);
        }
    }
}
