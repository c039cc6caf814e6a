import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, openSettingsDrawer, screenshot, storeAdminToken } from '../helpers/browser';
import { importCustomers, lastCode } from '../helpers/loyalty';

/**
 * Issue 25 in a browser: a store's admin opens Privacy, finds a customer by phone (typed as people type it), downloads
 * their data (a JSON file lands in the downloads folder), erases them after typing the phone, and the console's
 * History and the analytics Phones list no longer show them; the audit trail lists the export and the erasure. At
 * 1280×800 and 390 px.
 */
describe('a customer\'s data in the admin app: find, download, erase (issue 25)', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;
    let downloads: string;
    const PHONE = '+15555550166';

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'privacyui');
        const server = t.server;
        const widget = { 'x-widget-key': shop.bot.publicKey, origin: 'http://localhost' };
        await importCustomers(server, shop.organization.id, [[PHONE, 'Sam Lee', 'sam.lee@example.test', 'L-5', 410]]);
        await server.inject({ method: 'POST', url: '/api/loyalty/verify', headers: widget, payload: { identifier: PHONE, sessionId: 'widget_1_privacyui' } });
        const code = await lastCode(server, PHONE);
        expect((await server.inject({ method: 'POST', url: '/api/loyalty/view', headers: widget, payload: { identifier: PHONE, code, sessionId: 'widget_1_privacyui' } })).statusCode).to.equal(200);
        await server.inject({ method: 'POST', url: '/api/analytics/track', headers: widget, payload: { sessionId: 'widget_1_privacyui', action: 'points_retrieved', phoneNumber: PHONE, success: true } });
        const chat = server.app.services.livechat;
        await chat.createSession({ organizationId: shop.organization.id, botInstanceId: shop.bot.id, sessionId: 'widget_1_privacyui', phoneNumber: PHONE, customerMessage: 'Where is my order?', domain: 'localhost' });
        const [row] = await server.app.db('chat_sessions').where({ organization_id: shop.organization.id, widget_session_id: 'widget_1_privacyui' });
        await chat.end(shop.organization.id, row.session_id, 'customer');
        await server.app.jobs.drain();
        browser = await launchBrowser();
        downloads = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-privacy-dl-'));
    });
    after(async () => {
        await browser?.close();
        await t?.close();
        Fs.rmSync(downloads, { recursive: true, force: true });
    });

    async function adminPage(width: number, height: number): Promise<Page> {
        const page = await browser.newPage();
        await page.setViewport({ width, height });
        await storeAdminToken(page, t.url, shop.admin.token);
        const cdp = await page.createCDPSession();
        await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
        return page;
    }

    it('finds the customer by phone, downloads their data, erases them; History and Phones no longer show them', async () => {
        const page = await adminPage(1280, 800);
        await page.goto(`${t.url}/admin-dashboard`, { waitUntil: 'networkidle2' });
        // Out of the sections' way: the settings drawer leads there.
        await openSettingsDrawer(page);
        await page.waitForSelector('[data-testid="open-privacy"]');
        await page.click('[data-testid="open-privacy"]');
        await page.waitForSelector('[data-testid="privacy-phone"]');
        // The drawer gives the focus back to the settings button once it has closed: type after that.
        await page.waitForFunction(() => !document.querySelector('.lc-settings-drawer'), { timeout: 10000 });
        expect(await page.$eval('h1', (el) => el.textContent)).to.equal('Customers\' data');

        // History shows the chat before.
        const before = await t.server.inject({ url: '/api/chat/history?pageSize=100&archived=include', headers: bearer(shop.admin.token) });
        expect(before.payload).to.include(PHONE);
        expect((await t.server.inject({ url: '/api/analytics/phones?days=30', headers: bearer(shop.admin.token) })).payload).to.include(PHONE);

        await page.type('[data-testid="privacy-phone"]', '(555) 555-0166');
        await page.waitForFunction(() => (document.querySelector('[data-testid="privacy-phone"]') as HTMLInputElement).value === '(555) 555-0166');
        const [found] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith('/api/privacy/customers/find'), { timeout: 30000 }),
            page.keyboard.press('Enter')
        ]);
        expect(found.status(), await found.text()).to.equal(200);
        await page.waitForSelector('[data-testid="privacy-result"]');
        const result = await page.$eval('[data-testid="privacy-result"]', (el) => (el as HTMLElement).innerText);
        expect(result).to.include('(555) 555-0166').and.include('Live chats and left messages').and.include('Loyalty member record').and.include('Text messages sent');
        await screenshot(page, 'privacy-01-customer-found-1280');

        await page.click('[data-testid="privacy-download"]');
        const file = await waitForFile(downloads, /^customer-export-\d{4}-\d{2}-\d{2}\.json$/);
        const exported = JSON.parse(Fs.readFileSync(file, 'utf8'));
        expect(exported.person.phone).to.equal(PHONE);
        expect(exported.data['livechat.chat_messages'].map((m: { message: string }) => m.message)).to.include('Where is my order?');

        await page.click('[data-testid="privacy-erase"]');
        await page.waitForSelector('[data-testid="privacy-confirm"]');
        await page.type('[data-testid="privacy-confirm"]', '555 555 0100');
        expect(await page.evaluate(() => document.body.innerText.includes('That is not what was found'))).to.equal(true);
        await screenshot(page, 'privacy-02-erase-confirm-1280');
        await page.click('[data-testid="privacy-confirm"]', { clickCount: 3 });
        await page.type('[data-testid="privacy-confirm"]', '(555) 555-0166');
        await page.evaluate(() => Array.from(document.querySelectorAll<HTMLButtonElement>('.bp5-alert button')).find((b) => b.textContent === 'Erase for good')!.click());
        await page.waitForSelector('[data-testid="privacy-erased"]');
        expect(await page.$eval('[data-testid="privacy-erased"]', (el) => el.textContent)).to.match(/records were erased\. Nothing about this customer is left/);
        await screenshot(page, 'privacy-03-erased-1280');

        const history = await t.server.inject({ url: '/api/chat/history?pageSize=100&archived=include', headers: bearer(shop.admin.token) });
        expect(history.statusCode).to.equal(200);
        expect(history.payload).to.not.include(PHONE);
        await page.goto(`${t.url}/analytics`, { waitUntil: 'networkidle2' });
        const phones = await t.server.inject({ url: '/api/analytics/phones?days=30', headers: bearer(shop.admin.token) });
        expect(phones.payload).to.not.include(PHONE);

        // The audit trail: the export and the erasure, by the admin, naming the customer by a code only.
        await page.goto(`${t.url}/privacy`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('#bp5-tab-title_privacy-tabs_audit');
        await page.click('#bp5-tab-title_privacy-tabs_audit');
        await page.waitForSelector('[data-testid="privacy-audit"]');
        const trail = await page.$eval('[data-testid="privacy-audit"]', (el) => (el as HTMLElement).innerText);
        expect(trail).to.include('Erased a customer\'s data').and.include('Exported a customer\'s data').and.include(shop.admin.email);
        expect(trail).to.not.include('555');
        await screenshot(page, 'privacy-04-audit-1280');
        await page.close();
    });

    it('works at 390 px without sideways scrolling', async () => {
        const page = await adminPage(390, 844);
        await page.goto(`${t.url}/privacy`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('[data-testid="privacy-email"]');
        await page.type('[data-testid="privacy-email"]', 'nobody.here@example.test');
        await page.click('[data-testid="privacy-find"]');
        await page.waitForSelector('[data-testid="privacy-nothing"]');
        const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
        expect(overflow.scroll).to.be.at.most(overflow.width);
        await screenshot(page, 'privacy-05-nothing-390');
        await page.click('#bp5-tab-title_privacy-tabs_audit');
        // The trail (the other test's export and erasure), or its empty line when this test runs alone.
        await page.waitForFunction(() => !!document.querySelector('[data-testid="privacy-audit"]') || document.body.innerText.includes('Nothing recorded yet.'));
        const after = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
        expect(after.scroll, 'the trail scrolls inside its box').to.be.at.most(after.width);
        await screenshot(page, 'privacy-06-audit-390');

        // How long data is kept: chats 30 days, mails forever; a bad value is refused in place.
        await page.click('#bp5-tab-title_privacy-tabs_retention');
        await page.waitForFunction(() => (document.querySelector('[data-testid="retention-chats"]') as HTMLInputElement)?.value === '730');
        await page.click('[data-testid="retention-chats"]', { clickCount: 3 });
        await page.type('[data-testid="retention-chats"]', 'a month');
        expect(await page.$eval('[data-testid="retention-save"]', (el) => (el as HTMLButtonElement).disabled)).to.equal(true);
        await page.click('[data-testid="retention-chats"]', { clickCount: 3 });
        await page.type('[data-testid="retention-chats"]', '30');
        await page.click('[data-testid="retention-mail"]', { clickCount: 3 });
        await page.keyboard.press('Backspace');
        await page.click('[data-testid="retention-save"]');
        await page.waitForFunction(() => document.body.innerText.includes('Saved. The next daily run deletes what is older.'));
        const stored = JSON.parse((await t.server.inject({ url: '/api/privacy/retention', headers: bearer(shop.admin.token) })).payload);
        expect(stored).to.include({ chats: 30, mail: null, ai: 365 });
        const wide = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
        expect(wide.scroll).to.be.at.most(wide.width);
        await screenshot(page, 'privacy-07-retention-390');
        await page.close();
    });
});

async function waitForFile(dir: string, name: RegExp, timeoutMs = 10000): Promise<string> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
        // Chromium may create the file before it has written it: wait for a whole JSON document.
        const found = Fs.readdirSync(dir).find((f) => name.test(f));
        if (found) {
            try {
                JSON.parse(Fs.readFileSync(Path.join(dir, found), 'utf8'));
                return Path.join(dir, found);
            }
            catch {
                // not yet complete
            }
        }
        await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no download matching ${name} in ${dir}`);
}
