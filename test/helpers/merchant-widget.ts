import type { Browser } from 'puppeteer-core';
import { DEMO_KNOWLEDGE } from '../../plugins/ai/demo-data';
import { launchBrowser } from './browser';
import { startMerchantSite, strictMerchantCsp } from './fake-merchant';
import { connectAgent, Inbox, NesClient } from './livechat-client';
import { importCustomers } from './loyalty';
import { createTenant, startTestServer, Tenant, TestServer } from './server';

/** What a widget test on a merchant page runs against: the server, the store, the merchant's site, a browser and
 *  a connected agent socket of the store (started by startMerchantWidget, stopped by stopMerchantWidget). */
export interface MerchantWidget {
    t: TestServer;
    shop: Tenant;
    merchant: { port: number; close(): Promise<void> };
    browser: Browser;
    agent: { client: NesClient; box: Inbox };
}

/** The loyalty member every widget test verifies as (+15555550100, 1,250 points). */
export const ALEX: [string, string, string, string, number] = ['+15555550100', 'Alex Rivera', 'alex@example.com', 'LC-1001', 1250];

/**
 * The usual set-up of a widget test: a listening test server, a store `subdomain` on localhost with the demo
 * member (and the demo knowledge with `knowledge`), `prepare` for anything else the file needs before the page
 * exists, the merchant's site serving `/widget-<subdomain>.js` (with the strict CSP the widget must live under when
 * `strictCsp`), a browser and the store's agent socket.
 */
export async function startMerchantWidget(subdomain: string, options: {
    knowledge?: boolean; strictCsp?: boolean; css?: string; prepare?: (t: TestServer, shop: Tenant) => Promise<void>; env?: Record<string, string>;
} = {}): Promise<MerchantWidget> {
    const w: Partial<MerchantWidget> = {};
    try {
        const t = w.t = await startTestServer({ listen: true, env: options.env });
        const shop = w.shop = await createTenant(t.server, subdomain, 'localhost');
        if (options.knowledge) {
            for (const entry of DEMO_KNOWLEDGE) {
                await t.server.app.services.ai.createKnowledge(shop.organization.id, entry);
            }
        }
        await importCustomers(t.server, shop.organization.id, [ALEX]);
        await options.prepare?.(t, shop);
        if (options.env?.AI_MEANINGS === 'on') {
            // The sentence model's cold start (the worker loads it, then encodes the store's entries: over 10 s on a loaded
            // CI machine, where widget-ai's first answer timed out) is over before a browser asks its first question.
            await t.server.app.services.ai.retrieve(shop.organization.id, 'warm up');
        }
        w.merchant = await startMerchantSite(`${t.url}/widget-${subdomain}.js`, {
            ...(options.strictCsp ? { csp: strictMerchantCsp(t.url) } : {}), ...(options.css ? { css: options.css } : {})
        });
        w.browser = await launchBrowser();
        w.agent = await connectAgent(t.url, shop);
        return w as MerchantWidget;
    }
    catch (err) {
        await stopMerchantWidget(w);
        throw err;
    }
}

/** Stops what startMerchantWidget started (whatever of it a failed `before` left). */
export async function stopMerchantWidget(w: Partial<MerchantWidget>): Promise<void> {
    await w.agent?.client.disconnect();
    await w.browser?.close();
    await w.merchant?.close();
    await w.t?.close();
}
