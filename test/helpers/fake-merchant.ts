import * as Http from 'http';
import type { AddressInfo } from 'net';

/** A stand-in merchant site on its own port: one page that embeds the widget with the given script URL. */
export async function startMerchantSite(scriptUrl: string): Promise<{ port: number; close(): Promise<void> }> {
    const server = Http.createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Merchant</title>
<style>body{font-family:Georgia,serif;margin:40px;background:#fffbeb} button{all:unset} div{color:purple!important;font-size:30px!important}</style>
</head><body><h1>A merchant's shop</h1><p>Merchant CSS tries hard to restyle every div and button.</p>
<script src="${scriptUrl}" async></script></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    };
}
