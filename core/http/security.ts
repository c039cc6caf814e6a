import type { Request } from '@hapi/hapi';

/** A Host header or PUBLIC_URL host fit to go into a header: a name or address with an optional port. */
const HOST_PATTERN = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The Content-Security-Policy of our own HTML pages (the admin app and the demo storefront): scripts, styles,
 * fonts and calls from this origin only (and PUBLIC_URL's, where the widget's chunks and API live), the
 * WebSocket `/ws` of the same host(s), images also as data: URLs; no inline script or style, no plugins, no
 * framing, no <base>, forms posting here only.
 */
export function contentSecurityPolicy(request: Request): string {
    const extra = new Set<string>();
    const hosts = new Set<string>();
    const host = request.info.host;
    if (host && HOST_PATTERN.test(host)) {
        hosts.add(host.toLowerCase());
    }
    const publicUrl = request.server.app.config.publicUrl;
    if (publicUrl) {
        try {
            const url = new URL(publicUrl);
            if (HOST_PATTERN.test(url.host)) {
                hosts.add(url.host.toLowerCase());
                if (url.host.toLowerCase() !== host?.toLowerCase()) {
                    extra.add(url.origin);
                }
            }
        }
        catch { /* config validated it */ }
    }
    const own = ["'self'", ...extra].join(' ');
    const sockets = [...hosts].flatMap((h) => [`ws://${h}`, `wss://${h}`]).join(' ');
    return [
        "default-src 'self'",
        `script-src ${own}`,
        "style-src 'self'",
        `connect-src ${own}${sockets ? ' ' + sockets : ''}`,
        // Thumbnails of chat files (issue 29): from our own origin(s), and the picked file's preview (blob:).
        `img-src ${own} data: blob:`,
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'"
    ].join('; ');
}
