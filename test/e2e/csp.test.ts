import { expect } from 'chai';
import type { Browser, HTTPResponse, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startMerchantSite, strictMerchantCsp } from '../helpers/fake-merchant';
import { connectAgent, request, setAvailable } from '../helpers/livechat-client';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';
import { seedDemo } from '../../bin/commands/seed';
import { WIDGET_ROOT as ROOT, waitForText as waitForWidgetText, clickChip, typeAndSend } from '../helpers/widget-page';

/** Runs in the page: the widget's shadow root. */

/**
 * Every Content-Security-Policy violation of a page, over all its navigations: Chrome's console report ("Refused
 * to …") and the securitypolicyviolation event (which also reaches the document from inside a shadow root).
 */
async function watchViolations(page: Page): Promise<string[]> {
    const violations: string[] = [];
    page.on('console', (message) => {
        const text = message.text();
        if (/Content Security Policy|Refused to/i.test(text)) {
            violations.push(text);
        }
    });
    await page.evaluateOnNewDocument(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
            console.error(`Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
        }, true);
    });
    return violations;
}

/** The widget's own styles took effect (they are refused when injected as <style> under a strict style-src). */
async function widgetStyles(page: Page): Promise<{ launcher: string[]; panel?: string[] }> {
    return page.evaluate(`(() => {
        const root = ${ROOT};
        const s = (el) => { const c = getComputedStyle(el); return [c.position, c.backgroundColor, c.borderRadius]; };
        const panel = root.querySelector('.lc-panel');
        return { launcher: s(root.querySelector('.lc-launcher')), panel: panel && !panel.hidden ? s(panel) : undefined };
    })()`) as Promise<{ launcher: string[]; panel?: string[] }>;
}

function cspOf(response: HTTPResponse | null): string {
    expect(response, 'a response').to.not.equal(null);
    return response!.headers()['content-security-policy'] ?? '';
}

describe('our pages and the widget under a strict Content-Security-Policy', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'shop', 'localhost');
        for (const q of DEFAULT_QUESTIONS) {
            await t.server.app.services.questions.create(shop.organization.id, q);
        }
        await seedDemo(t.server);
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    it('runs the admin app under its policy with no violation: sign in, dashboard, live chat, questions, analytics and the other logins', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 800 });
        const violations = await watchViolations(page);
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(String(err)));

        const login = await page.goto(`${t.url}/admin-login`, { waitUntil: 'networkidle0' });
        expect(cspOf(login)).to.contain("script-src 'self'").and.contain("style-src 'self'").and.not.contain('unsafe-inline');
        await page.waitForSelector('#login-email');
        await page.type('#login-email', shop.admin.email);
        await page.type('#login-password', shop.admin.password);
        await page.click('button[type=submit]');
        await page.waitForFunction(() => location.pathname === '/admin-dashboard', { timeout: 10000 });
        await page.waitForNetworkIdle({ idleTime: 300 });
        // Blueprint's stylesheet applies (a same-origin file): the button has its rounded, non-default look.
        await page.waitForSelector('.bp5-button', { timeout: 15000 });
        const radius = await page.$eval('.bp5-button', (b) => getComputedStyle(b).borderRadius);
        expect(radius).to.not.equal('0px');
        await screenshot(page, 'csp-admin-dashboard');

        for (const path of ['/admin-chat', '/admin-questions', '/analytics', '/ai-management', '/test', '/super-admin-login', '/org-login', '/no-such-page']) {
            const response = await page.goto(`${t.url}${path}`, { waitUntil: 'networkidle2' });
            expect(cspOf(response), path).to.contain("default-src 'self'");
            await new Promise((r) => setTimeout(r, 300));
            if (path === '/admin-questions') {
                // Its layout rules are a stylesheet now (they were an inline <style> element).
                await page.waitForSelector('.lc-toolbar');
                expect(await page.$eval('.lc-toolbar', (el) => getComputedStyle(el).justifyContent)).to.equal('flex-end');
                await screenshot(page, 'csp-admin-questions');
            }
        }
        await page.goto(`${t.url}/admin-chat`, { waitUntil: 'networkidle2' });
        await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
        await screenshot(page, 'csp-admin-chat');
        expect(violations).to.deep.equal([]);
        expect(errors).to.deep.equal([]);
        await page.close();
    });

    it('runs the demo storefront and its widget under our policy with no violation', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        const violations = await watchViolations(page);
        const response = await page.goto(`${t.url}/`, { waitUntil: 'load' });
        expect(cspOf(response)).to.contain("script-src 'self'").and.contain("style-src 'self'");
        // The page's styles come from /storefront.css.
        expect(await page.$eval('header', (h) => getComputedStyle(h).display)).to.equal('flex');
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await waitForWidgetText(page, 'Hi! Welcome to Demo Store support.');
        await clickChip(page, 'How do I earn points?');
        await waitForWidgetText(page, 'You earn 1 point for every $1 spent');
        const styles = await widgetStyles(page);
        expect(styles.launcher).to.deep.equal(['fixed', 'rgb(37, 99, 235)', '50%']);
        expect(styles.panel).to.deep.equal(['fixed', 'rgb(255, 255, 255)', '14px']);
        await screenshot(page, 'csp-demo-storefront');
        expect(violations).to.deep.equal([]);
        await page.close();
    });

    it('opens the widget on a merchant page with its own strict policy, answers a question and connects a live agent, with no violation', async () => {
        const api = t.url;
        const policy = strictMerchantCsp(api);
        const merchant = await startMerchantSite(`${api}/widget-shop.js`, { csp: policy });
        const agent = await connectAgent(t.url, shop);
        const page = await browser.newPage();
        try {
            await setAvailable(t.server, shop, true);
            await page.setViewport({ width: 1200, height: 800 });
            const violations = await watchViolations(page);
            const errors: string[] = [];
            page.on('pageerror', (err) => errors.push(String(err)));
            // The merchant page on localhost:<port>; the API on 127.0.0.1:<other port>.
            const response = await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
            expect(cspOf(response)).to.equal(policy);
            await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
            expect(violations, 'once the launcher is on the page').to.deep.equal([]);
            expect((await widgetStyles(page)).launcher).to.deep.equal(['fixed', 'rgb(37, 99, 235)', '50%']);

            await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
            await waitForWidgetText(page, 'Hi! Welcome to Store shop support.');
            await clickChip(page, 'What are your store hours?');
            await waitForWidgetText(page, 'We are open Monday-Saturday 9AM-8PM and Sunday 10AM-6PM.');
            expect((await widgetStyles(page)).panel).to.deep.equal(['fixed', 'rgb(255, 255, 255)', '14px']);
            await screenshot(page, 'csp-merchant-widget-answer');

            // Live chat: the widget's HTTP calls and its WebSocket, both allowed by the merchant's connect-src.
            await typeAndSend(page, 'I would like to talk to an agent');
            const request_ = await agent.box.waitFor((m) => m.type === 'new_customer', 10000);
            const accepted = await request(agent.client, 'POST', `/api/chat/session/${request_.sessionId}/accept`, {});
            expect(accepted.statusCode).to.equal(200);
            await request(agent.client, 'POST', `/api/chat/session/${request_.sessionId}/messages`, { message: 'Hi, Sam here. How can I help?' });
            await waitForWidgetText(page, 'Hi, Sam here. How can I help?');
            await typeAndSend(page, 'Do you ship to Canada?');
            await agent.box.waitFor((m) => m.type === 'chat_message' && m.message === 'Do you ship to Canada?', 10000);
            await screenshot(page, 'csp-merchant-widget-live-chat');

            expect(violations).to.deep.equal([]);
            expect(errors).to.deep.equal([]);
        }
        finally {
            await page.close();
            await agent.client.disconnect();
            await merchant.close();
        }
    });

    it('falls back to <style> elements in a browser without constructable stylesheets', async () => {
        const merchant = await startMerchantSite(`${t.url}/widget-shop.js`);
        const page = await browser.newPage();
        try {
            await page.evaluateOnNewDocument(() => {
                delete (ShadowRoot.prototype as any).adoptedStyleSheets;
            });
            await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
            await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
            await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
            await waitForWidgetText(page, 'Hi! Welcome to Store shop support.');
            expect(await page.evaluate(`${ROOT}.querySelectorAll('style').length`)).to.equal(2);
            const styles = await widgetStyles(page);
            expect(styles.launcher).to.deep.equal(['fixed', 'rgb(37, 99, 235)', '50%']);
            expect(styles.panel).to.deep.equal(['fixed', 'rgb(255, 255, 255)', '14px']);
        }
        finally {
            await page.close();
            await merchant.close();
        }
    });
});
