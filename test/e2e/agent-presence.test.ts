import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { startTestServer, TestServer } from '../helpers/server';
import { screenshot, SCREENSHOTS, storeAdminToken } from '../helpers/browser';
import { agentSends, collectPageErrors, demoAgent, openStaffPage, openStorefrontWidget, startLiveChatPair, stopLiveChatPair } from '../helpers/live-chat-page';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend } from '../helpers/widget-page';

/** A live chat between two browsers: the customer's text may take longer to come than a page's own answer. */
const waitForWidgetText = (page: Page, text: string, timeout = 15000) => waitForText(page, text, timeout);

/** The header's Available switch (Blueprint puts the test id on its input, or its label): click it, read it. */
const SWITCH = `(() => { const el = document.querySelector('[data-testid="availability"]'); return el && (el.tagName === 'INPUT' ? el : el.querySelector('input')); })()`;
async function toggleAvailable(page: Page): Promise<void> {
    await page.evaluate(`${SWITCH}.click()`);
}
async function isAvailable(page: Page): Promise<boolean> {
    return page.evaluate(`!!${SWITCH}?.checked`) as Promise<boolean>;
}
async function waitAvailable(page: Page, value: boolean): Promise<void> {
    await page.waitForFunction(`!!${SWITCH} && ${SWITCH}.checked === ${value} && !${SWITCH}.disabled`, { timeout: 10000 });
}
const WAITING = `document.querySelector('[data-testid="waiting-count"] .lc-presence-waiting-n')?.textContent`;

/** The header only (the presence under test), at the current viewport width. */
async function headerShot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) {
        await screenshot(page, name, { clip: { x: 0, y: 0, width: await page.evaluate(() => window.innerWidth), height: 160 } });
    }
}

/**
 * Issue 23: presence belongs to the staff app, not to /admin-chat. An agent sets Available and works on /analytics;
 * a customer asks the storefront's widget for a human; the agent is told on /analytics (banner, toast), opens the
 * chat in one click, accepts it in /admin-chat, and the customer reads the agent's display name.
 */
describe('an Available agent stays reachable on any staff page (issue 23)', function () {
    this.timeout(120000);
    let t: TestServer;
    let agentBrowser: Browser;
    let customerBrowser: Browser;

    before(async () => {
        ({ t, agentBrowser, customerBrowser } = await startLiveChatPair());
    });
    after(() => stopLiveChatPair({ t, agentBrowser, customerBrowser }));

    it('tells the agent on /analytics about a new chat; one click opens it in /admin-chat; the customer reads the agent\'s display name', async () => {
        const { organizationId, token } = await demoAgent(t);
        let agentErrors: string[] = [];
        const agent = await openStaffPage(agentBrowser, t.url, token, { path: '/admin-dashboard', watch: (page) => { agentErrors = collectPageErrors(page); } });

        // The profile dialog from the header: the display name customers will read.
        await agent.click('[data-testid="open-profile"]');
        // Enabled once it holds the stored profile (typing before that would be reset).
        await agent.waitForSelector('[data-testid="display-name"]:not([disabled])');
        expect(await agent.$eval('[data-testid="display-name"]', (i) => (i as HTMLInputElement).placeholder)).to.equal('Sam');
        if (SCREENSHOTS) {
            await screenshot(agent, 'profile-dialog-ready');
        }
        await agent.type('[data-testid="display-name"]', 'Sammy R.');
        await agent.click('[data-testid="save-profile"]');
        await agent.waitForFunction(() => document.querySelector('.lc-profile-dialog')?.textContent?.includes('Saved.'), { timeout: 10000 });
        await agent.keyboard.press('Escape');
        await agent.waitForSelector('.lc-profile-dialog', { hidden: true });

        // Available from the header (the dashboard, not /admin-chat), then on to /analytics in the same tab.
        await agent.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
        await toggleAvailable(agent);
        await waitAvailable(agent, true);
        await agent.click('nav[aria-label="Admin sections"] a[href="/analytics"]');
        await agent.waitForFunction(() => location.pathname === '/analytics' && !!document.querySelector('h1')?.textContent?.includes('Analytics'), { timeout: 15000 });
        expect(await isAvailable(agent), 'the switch is in the header of /analytics, on').to.equal(true);
        expect(await agent.$eval('[data-testid="connection-state"]', (el) => el.textContent)).to.equal('Connected');
        await agent.waitForFunction(`${WAITING} === '0'`, { timeout: 10000 });
        await headerShot(agent, 'presence-analytics-1280');
        await agent.setViewport({ width: 390, height: 844 });
        await agent.waitForFunction(() => !!document.querySelector('[data-testid="menu-button"]')?.getBoundingClientRect().width);
        const overflow = await agent.evaluate(() => {
            const bar = document.querySelector('.lc-shell-bar')!;
            return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, barRight: Math.max(...Array.from(bar.children).map((c) => c.getBoundingClientRect().right)) };
        });
        expect(overflow.scroll, 'no sideways scrolling at 390 px').to.be.at.most(overflow.width);
        expect(overflow.barRight, 'the header fits at 390 px').to.be.at.most(overflow.width);
        await headerShot(agent, 'presence-analytics-390');
        await agent.setViewport({ width: 1280, height: 860 });

        // The customer, on the demo storefront, asks for a human: an agent is available (the one on /analytics).
        const { page: customer } = await openStorefrontWidget(customerBrowser, t.url);
        await typeAndSend(customer, 'Can a person help me with my order?');
        await waitForWidgetText(customer, 'Connecting you with a member of our team.');

        // On /analytics: the banner, the toast with its Open chat action, the waiting count.
        await agent.waitForSelector('[data-testid="new-chat-banner"]', { timeout: 15000 });
        expect(await agent.evaluate(() => location.pathname)).to.equal('/analytics');
        await agent.waitForFunction(() => Array.from(document.querySelectorAll('.bp5-toast')).some((el) => el.textContent?.includes('New chat request')), { timeout: 5000 });
        // An unverified customer is named by their visitor label, as in the queue (never "A customer" or "Unknown").
        const bannerText = await agent.$eval('[data-testid="new-chat-banner"]', (el) => el.textContent ?? '');
        expect(bannerText).to.match(/(Visitor \d{4} is waiting for an agent|is transferring Visitor \d{4} to you)/).and.not.include('Unknown');
        await agent.waitForFunction(`${WAITING} === '1'`, { timeout: 10000 });
        await screenshot(agent, 'presence-analytics-new-chat');
        await headerShot(agent, 'presence-analytics-new-chat-1280');
        await agent.click('[data-testid="new-chat-open"]');
        await agent.waitForFunction(() => location.pathname === '/admin-chat', { timeout: 10000 });
        await agent.waitForFunction(() => document.querySelector('[data-testid="waiting-list"]')?.textContent?.includes('Can a person help me with my order?'), { timeout: 10000 });
        // The chat's Accept Chat has the focus: Enter accepts it.
        await agent.waitForFunction(() => document.activeElement?.textContent === 'Accept Chat', { timeout: 5000 });
        await agent.keyboard.press('Enter');
        await agent.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Can a person help me with my order?'), { timeout: 10000 });
        expect(await agent.$$eval('[data-testid="connection-state"]', (els) => els.length), 'one socket, one status').to.equal(1);

        // The customer reads who joined, and the name on the agent's messages.
        await waitForWidgetText(customer, 'Sammy R. has joined the chat.');
        await agentSends(agent, 'Hi! Let me look at your order.');
        await waitForWidgetText(customer, 'Hi! Let me look at your order.');
        expect(await customer.evaluate(`Array.from(${ROOT}.querySelectorAll('.lc-author')).map((el) => el.textContent)`)).to.deep.equal(['Sammy R.']);
        await screenshot(customer, 'presence-customer-sees-name');
        await screenshot(agent, 'presence-admin-chat-accepted');

        // A left message reaches the Available agent on any page too (a toast, one click to the Messages inbox).
        await agent.click('nav[aria-label="Admin sections"] a[href="/analytics"]');
        await agent.waitForFunction(() => location.pathname === '/analytics', { timeout: 10000 });
        await t.server.app.services.livechat.offlineMessage({ organizationId, botInstanceId: null, sessionId: 'widget_1_leftonanalytics', email: 'lee@example.test',
            name: 'Lee', message: 'Is the red scarf back in stock?', phoneNumber: null, domain: 'localhost' });
        await agent.waitForFunction(() => Array.from(document.querySelectorAll('.bp5-toast')).some((el) => el.textContent?.includes('Lee left a message')), { timeout: 10000 });
        await agent.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('.bp5-toast button, .bp5-toast a')).find((b) => b.textContent === 'View')?.click());
        await agent.waitForFunction(() => location.pathname === '/admin-chat/messages'
            && !!document.querySelector('[data-testid="messages-list"]')?.textContent?.includes('Is the red scarf back in stock?'), { timeout: 10000 });

        // One socket per tab: the server counts one connection for this agent.
        const status = await t.server.inject({ method: 'GET', url: '/api/chat/agent/status', headers: { authorization: `Bearer ${token}` } });
        expect(status.result).to.include({ available: true, connections: 1 });

        // Logout sets the agent Away before the token goes.
        await agent.click('[data-testid="logout"]');
        await agent.waitForFunction(() => location.pathname === '/admin-access-2024', { timeout: 10000 });
        const after = await t.server.inject({ method: 'GET', url: '/api/chat/agent/status', headers: { authorization: `Bearer ${token}` } });
        expect(after.result).to.include({ available: false, awayReason: 'logout' });
        expect(agentErrors).to.deep.equal([]);
        await customer.close();
        await agent.close();
    });

    it('tells an agent set Away for idleness in the header of any page, and Set Available brings them back', async () => {
        const idle = await startTestServer({ listen: true, env: { AGENT_IDLE_MINUTES: '0.03' } });     // 1.8 s
        const page = await agentBrowser.newPage();
        try {
            const { token } = await demoAgent(idle);
            await page.setViewport({ width: 1280, height: 860 });
            await storeAdminToken(page, idle.url, token);
            await page.goto(`${idle.url}/admin-questions`, { waitUntil: 'networkidle2' });
            await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
            await toggleAvailable(page);
            await waitAvailable(page, true);
            // No mouse or keyboard: Away after the window, said in the header.
            await page.waitForSelector('[data-testid="away-notice"]', { timeout: 15000 });
            expect(await page.$eval('[data-testid="away-notice"]', (el) => el.textContent)).to.contain('You were set to Away after 0.03 minutes without activity.');
            expect(await isAvailable(page)).to.equal(false);
            await headerShot(page, 'presence-away-notice-1280');
            await page.click('xpath/.//*[@data-testid="away-notice"]//button[contains(., "Set Available")]');
            await page.waitForSelector('[data-testid="away-notice"]', { hidden: true });
            await waitAvailable(page, true);
        }
        finally {
            await page.close();
            await idle.close();
        }
    });
});
