import * as Http from 'http';
import type { AddressInfo } from 'net';

/** The merchant's own CSS, served as a file (a page under a strict CSP has no inline style of its own either). */
const MERCHANT_CSS = 'body{font-family:Georgia,serif;margin:40px;background:#fffbeb} button{all:unset} div{color:purple!important;font-size:30px!important}';

export interface MerchantSiteOptions {
    /** A Content-Security-Policy header for the page, as a merchant with a strict policy sends it. */
    csp?: string;
    /** More of the shop's own CSS, after the default rules (e.g. hostile rules for the host element). */
    css?: string;
    /** The page's `<html lang>` (none by default). */
    lang?: string;
}

/**
 * A stand-in merchant site on its own port: one page that embeds the widget with the given script URL (and
 * /merchant.css, the shop's own styles, which try hard to restyle every div and button).
 */
export async function startMerchantSite(scriptUrl: string, options: MerchantSiteOptions = {}): Promise<{ port: number; close(): Promise<void> }> {
    const server = Http.createServer((req, res) => {
        if (req.url === '/merchant.css') {
            res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
            res.end(MERCHANT_CSS + (options.css ?? ''));
            return;
        }
        res.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            ...(options.csp ? { 'content-security-policy': options.csp } : {})
        });
        res.end(`<!doctype html><html${options.lang ? ` lang="${options.lang}"` : ''}><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Merchant</title>
<link rel="stylesheet" href="/merchant.css">
</head><body><h1>A merchant's shop</h1><p>Merchant CSS tries hard to restyle every div and button.</p>
<script src="${scriptUrl}" async></script></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((resolve) => {
            server.close(() => resolve());
            // The browser may hold a pre-connected socket that never sent a request: do not wait for its timeout.
            server.closeAllConnections();
        })
    };
}

/**
 * A merchant's strict Content-Security-Policy that still lets the widget of `apiUrl` run: scripts and
 * connections (HTTP and the WebSocket) to the API origin only, no inline styles or scripts.
 */
export function strictMerchantCsp(apiUrl: string): string {
    const ws = apiUrl.replace(/^http/, 'ws');
    return `default-src 'self'; script-src 'self' ${apiUrl}; connect-src 'self' ${apiUrl} ${ws}; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'`;
}
