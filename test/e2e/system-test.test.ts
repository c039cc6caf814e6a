import * as Net from 'net';
import { expect } from 'chai';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { startTestServer, createTenant, TestServer, Tenant } from '../helpers/server';
import { launchBrowser, openSettingsDrawer, screenshot, storeAdminToken } from '../helpers/browser';
import { sleep, until } from '../helpers/wait';

/** With SCREENSHOTS=1: the full page under console/. */
const shot = (page: Page, name: string) => screenshot(page, `console/${name}`, { fullPage: true });

async function closedPort(): Promise<number> {
    const server = Net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as Net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
}

async function signedIn(browser: Browser, url: string, tenant: Tenant, path: string, width = 1280, height = 900): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width, height });
    await storeAdminToken(page, url, tenant.admin.token);
    await page.goto(`${url}${path}`, { waitUntil: 'networkidle2' });
    return page;
}

const cardStates = (page: Page) => page.$$eval('[data-testid^="test-"][data-state]', (els) =>
    Object.fromEntries(els.map((e) => [e.getAttribute('data-testid'), e.getAttribute('data-state')])));

describe('the admin shell and the /test dashboard in a browser (issue 14)', function () {
    this.timeout(120000);
    let browser: Browser;
    let t: TestServer;
    let tenant: Tenant;

    before(async () => {
        browser = await launchBrowser();
        t = await startTestServer({ listen: true });
        tenant = await createTenant(t.server, 'e2etest', 'localhost');
        await t.server.app.services.loyalty.seedDemoCustomers(tenant.organization.id, [
            { phone: '+15555550100', name: 'Avery Stone', email: 'avery@example.com', loyaltyId: 'LC-1', points: 1250, orders: [] }
        ]);
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    it('runs every round trip to Success on a healthy server, with times, system analytics and the websocket messages', async () => {
        await t.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': tenant.bot.publicKey },
            payload: { sessionId: 'systest_waiting', phoneNumber: '+15555550142', customerMessage: 'Is anyone there?' } });
        const page = await signedIn(browser, t.url, tenant, '/test');
        expect(await page.$$eval('h1', (els) => els.map((e) => e.textContent))).to.deep.equal(['System Tests']);
        expect(await cardStates(page)).to.deep.equal({ 'test-analytics': 'pending', 'test-websocket': 'pending', 'test-livechat': 'pending', 'test-loyalty': 'pending' });
        await page.click('[data-testid="run-all"]');
        await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid^="test-"][data-state]'))
            .every((e) => ['success', 'error'].includes(e.getAttribute('data-state')!)), { timeout: 20000 });
        expect(await cardStates(page)).to.deep.equal({ 'test-analytics': 'success', 'test-websocket': 'success', 'test-livechat': 'success', 'test-loyalty': 'success' });
        const badges = await page.$$eval('[data-testid="test-badge"]', (els) => els.map((e) => e.textContent));
        expect(badges).to.deep.equal(['Success', 'Success', 'Success', 'Success']);
        const times = await page.$$eval('[data-testid="test-ms"]', (els) => els.map((e) => e.textContent ?? ''));
        expect(times).to.have.length(4);
        times.forEach((text) => expect(text).to.match(/^\d+ ms$/));
        expect(await page.$eval('[data-testid="test-loyalty"] [data-testid="test-text"]', (el) => el.textContent)).to.contain('Found Avery Stone with 1250 points').and.contain('dry run');
        expect(await page.$eval('[data-testid="ws-messages"]', (el) => el.textContent)).to.contain('"type":"ping"').and.contain('"type":"pong"');
        await page.waitForFunction(() => document.querySelector('[data-testid="waiting-sessions"]')?.textContent?.includes('+15555550142'));
        expect(await page.$eval('[data-testid="system-analytics"]', (el) => el.textContent)).to.contain('Total interactions').and.contain('Success rate').and.contain('Active domains');
        await shot(page, 'test-dashboard-all-success');
        await page.goto(`${t.url}/test-dashboard`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('[data-testid="run-all"]');
        await page.close();
    });

    it('shows the loyalty card as Error with the provider\'s text when the provider is unreachable', async () => {
        const port = await closedPort();
        const down = await startTestServer({ listen: true, env: { LOYALTY_PROVIDER: 'alpineiq', ALPINEIQ_API_KEY: 'k', ALPINEIQ_UID: '1', ALPINEIQ_BASE_URL: `http://127.0.0.1:${port}` } });
        try {
            const other = await createTenant(down.server, 'e2etestdown', 'localhost');
            const page = await signedIn(browser, down.url, other, '/test');
            await page.click('[data-testid="run-all"]');
            await page.waitForFunction(() => document.querySelector('[data-testid="test-loyalty"]')?.getAttribute('data-state') === 'error', { timeout: 20000 });
            expect(await page.$eval('[data-testid="test-loyalty"] [data-testid="test-badge"]', (el) => el.textContent)).to.equal('Error');
            expect(await page.$eval('[data-testid="test-loyalty"] [data-testid="test-text"]', (el) => el.textContent))
                .to.match(/^Loyalty provider "alpineiq" failed: Alpine IQ cannot be reached/);
            await page.waitForFunction(() => ['analytics', 'websocket', 'livechat'].every((id) => document.querySelector(`[data-testid="test-${id}"]`)?.getAttribute('data-state') === 'success'), { timeout: 20000 });
            await shot(page, 'test-dashboard-loyalty-error');
            await page.close();
        }
        finally {
            await down.close();
        }
    });

    it('puts every staff page in one shell: sections, organization, user, Logout; the home\'s Add Question opens the add dialog', async () => {
        const page = await signedIn(browser, t.url, tenant, '/admin-dashboard');
        await page.waitForSelector('[data-testid="shell-organization"]');
        await page.waitForFunction(() => document.querySelector('[data-testid="shell-organization"]')?.textContent === 'Store e2etest');
        expect(await page.$eval('[data-testid="shell-user"]', (el) => el.textContent)).to.equal(tenant.admin.email);
        for (const path of ['/admin-dashboard', '/admin-chat', '/admin-questions', '/test', '/test-dashboard', '/analytics', '/ai-management']) {
            await page.goto(`${t.url}${path}`, { waitUntil: 'networkidle2' });
            await page.waitForSelector('h1');
            const landmarks = await page.evaluate(() => ({
                h1: document.querySelectorAll('h1').length, main: document.querySelectorAll('main').length,
                nav: Array.from(document.querySelectorAll('nav[aria-label="Admin sections"] a')).map((a) => a.textContent),
                logout: !!document.querySelector('[data-testid="logout"]')
            }));
            expect(landmarks, path).to.deep.equal({ h1: 1, main: 1, nav: ['Dashboard', 'Live Chat', 'Questions', 'AI', 'Analytics', 'Test'], logout: true });
        }
        await page.goto(`${t.url}/admin-dashboard`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('xpath/.//button[contains(., "Add Question")]');
        await page.click('xpath/.//button[contains(., "Add Question")]');
        await page.waitForFunction(() => location.pathname === '/admin-questions');
        await page.waitForSelector('.bp5-dialog');
        expect(await page.$eval('.bp5-dialog', (el) => el.textContent)).to.contain('Add question');
        expect(await page.evaluate(() => document.activeElement?.id), 'the question field has the focus').to.equal('q-question');
        await shot(page, 'admin-add-question-dialog');
        await page.keyboard.press('Escape');
        await page.waitForSelector('.bp5-dialog', { hidden: true });
        await openSettingsDrawer(page);
        await shot(page, 'admin-settings-drawer');
        await page.waitForFunction(() => !!document.activeElement?.closest('[data-testid="settings-drawer"]'), { timeout: 3000 });
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid="settings-drawer"]', { hidden: true });
        await page.waitForFunction(() => !document.querySelector('.bp5-overlay-backdrop'));
        await page.click('[data-testid="logout"]');
        await page.waitForFunction(() => location.pathname === '/admin-access-2024');
        expect(await page.evaluate(() => localStorage.getItem('adminToken'))).to.equal(null);
        await page.close();
    });

    it('keeps the stored token when a reload cuts the verify call off', async () => {
        const page = await signedIn(browser, t.url, tenant, '/admin-dashboard');
        await page.waitForSelector('[data-testid="shell-user"]');
        // The page's verify call is held; the agent reloads; the browser cuts the held call off while the old page is
        // still there (its next document is held too), as a reload during a slow verify does.
        await page.setRequestInterception(true);
        let verify: HTTPRequest | null = null;
        let nextDocument: HTTPRequest | null = null;
        page.on('request', (request) => {
            if (!verify && request.url().endsWith('/api/admin/verify')) {
                verify = request;
            }
            else if (verify && !nextDocument && request.isNavigationRequest()) {
                nextDocument = request;
            }
            else {
                void request.continue();
            }
        });
        await page.reload({ waitUntil: 'domcontentloaded' });
        await until(() => verify !== null, 10000, 'the verify call');
        void page.evaluate(() => location.reload());
        await until(() => nextDocument !== null, 10000, 'the reload');
        await verify!.abort('aborted');
        await sleep(500);
        await nextDocument!.continue();
        await page.waitForFunction(() => document.readyState === 'complete', { timeout: 10000 });
        expect(await page.evaluate(() => localStorage.getItem('adminToken')), 'the token survived the interrupted verify').to.equal(tenant.admin.token);
        await page.waitForSelector('[data-testid="shell-user"]', { timeout: 10000 });
        await page.close();
    });
});
