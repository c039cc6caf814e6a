import type { Browser, Page } from 'puppeteer-core';
import { seedDemo } from '../../bin/commands/seed';
import { signUserToken } from '../../core/auth/tokens';
import { DEMO_USERS } from '../../plugins/auth/demo-data';
import { startTestServer, TestServer } from './server';
import { launchBrowser, storeAdminToken } from './browser';
import { WIDGET_ROOT, waitForText } from './widget-page';

/**
 * The two sides of a live chat in the browser tests (an agent's console, a customer's widget on the demo
 * storefront), set up the one way every e2e file does it.
 */

/** The demo store seeded on a test server, and a signed token of its admin (the agent of the live chat tests). */
export async function demoAgent(t: TestServer): Promise<{ organizationId: number; token: string; userId: number }> {
    const { organizationId } = await seedDemo(t.server);
    const admin = (await t.server.app.services.users.findRecordByEmail(DEMO_USERS[1].email))!;
    const token = signUserToken(t.server.app.config.jwtSecret, { id: admin.id, role: 'admin', organizationId, tokenVersion: admin.tokenVersion });
    return { organizationId, token, userId: admin.id };
}

export interface Viewport { width: number; height: number; isMobile?: boolean; hasTouch?: boolean }

/** Page errors (uncaught exceptions) of a page, collected from now on: a test expects the list empty at its end. */
export function collectPageErrors(page: Page): string[] {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    return errors;
}

/**
 * A new page signed in as `token` at `path` of the admin app (the console by default), once its agent socket says
 * Connected (elsewhere once the page has settled; `connected: true` waits for the header's socket too). `watch` sees
 * the page before it loads.
 */
export async function openStaffPage(browser: Browser, baseUrl: string, token: string,
    options: { path?: string; viewport?: Viewport; connected?: boolean; watch?: (page: Page) => void } = {}): Promise<Page> {
    const page = await browser.newPage();
    options.watch?.(page);
    await page.setViewport(options.viewport ?? { width: 1280, height: 860 });
    await storeAdminToken(page, baseUrl, token);
    await page.goto(`${baseUrl}${options.path ?? '/admin-chat'}`, { waitUntil: 'networkidle2' });
    if (options.connected ?? (options.path ?? '/admin-chat').startsWith('/admin-chat')) {
        await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
    }
    return page;
}

/** Makes the console's agent Available with its own switch (as the agent would) and waits until it says so. */
export async function becomeAvailable(agent: Page): Promise<void> {
    await agent.evaluate(() => {
        const el = document.querySelector('[data-testid="availability"]') as HTMLElement;
        ((el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement).click();
    });
    await agent.waitForFunction(() => document.body.innerText.includes('Available') && !document.body.innerText.includes('Unavailable'));
}

/**
 * A new page on the demo storefront of a test server (the store's registered domain is localhost, so the page is
 * opened on localhost:<port>), with the widget opened and its greeting shown. `watch` sees the page before it loads
 * (to record its requests from the first one).
 */
export async function openStorefrontWidget(browser: Browser, baseUrl: string, viewport: Viewport = { width: 1100, height: 800 },
    watch?: (page: Page) => void): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    await page.setViewport(viewport);
    const errors = collectPageErrors(page);
    watch?.(page);
    await page.goto(`http://localhost:${new URL(baseUrl).port}/`, { waitUntil: 'load' });
    await page.waitForFunction(`!!${WIDGET_ROOT}?.querySelector('.lc-launcher')`, { timeout: 15000 });
    await page.evaluate(`${WIDGET_ROOT}.querySelector('.lc-launcher').click()`);
    await waitForText(page, 'Welcome to Demo Store', 15000);
    return { page, errors };
}

/** A listening test server and two browsers, the agent's and the customer's (two profiles: no shared storage). */
export interface LiveChatPair { t: TestServer; agentBrowser: Browser; customerBrowser: Browser }

export async function startLiveChatPair(): Promise<LiveChatPair> {
    const pair: Partial<LiveChatPair> = {};
    try {
        pair.t = await startTestServer({ listen: true });
        pair.agentBrowser = await launchBrowser();
        pair.customerBrowser = await launchBrowser();
        return pair as LiveChatPair;
    }
    catch (err) {
        await stopLiveChatPair(pair);
        throw err;
    }
}

export async function stopLiveChatPair(pair: Partial<LiveChatPair>): Promise<void> {
    await pair.customerBrowser?.close();
    await pair.agentBrowser?.close();
    await pair.t?.close();
}

/**
 * The agent types `text` into the open chat's box and sends it with Enter, once the box is there and enabled: the
 * customer can be told "Sam has joined the chat." before the agent's own page has drawn the chat it accepted.
 */
export async function agentSends(agent: Page, text: string): Promise<void> {
    const input = '[data-testid="agent-input"]';
    await agent.waitForSelector(`${input}:not([disabled])`, { visible: true, timeout: 15000 });
    await agent.type(input, text);
    await agent.keyboard.press('Enter');
}

/**
 * The agent accepts the waiting chat from the console's list. The new-chat banner shows for 6 s only: a test that did
 * other things meanwhile (a customer's email form, a reload) may never see it, so the list's button is what counts.
 */
export async function acceptWaitingChat(agent: Page): Promise<void> {
    const accept = 'xpath/.//button[contains(., "Accept Chat")]';
    await agent.waitForSelector(accept, { visible: true, timeout: 15000 });
    await agent.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 9000 });
    await (await agent.$(accept))!.click();
}
