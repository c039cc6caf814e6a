import * as Fs from 'fs';
import * as Path from 'path';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot, SCREENSHOT_DIR, SCREENSHOTS, storeAdminToken } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
import { clickChip } from '../helpers/widget-page';

const ROOT = `document.querySelector('[data-loyalty-chat]').shadowRoot`;

/** With SCREENSHOTS=1: the viewport under look/. */
const shot = (page: Page, name: string) => screenshot(page, `look/${name}`, { fullPage: false });

describe('the widget look of a bot instance: admin card with live preview, and the widget on the store page (issue 11)', function () {
    this.timeout(90000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'looks', 'localhost');
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    it('edits colour, side, title and greeting on the admin home, previews them live, and the widget shows them', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 1100 });
        await storeAdminToken(page, t.url, shop.admin.token);
        await page.goto(`${t.url}/admin-dashboard`, { waitUntil: 'domcontentloaded' });
        await page.waitForSelector('#look-color');
        expect(await page.$$eval('h1', (els) => els.length)).to.equal(1);
        const setValue = async (selector: string, value: string) => {
            await page.click(selector, { clickCount: 3 });
            await page.keyboard.press('Backspace');
            await page.type(selector, value);
        };
        await setValue('#look-color', '#fde047');
        await page.waitForFunction(() => document.body.textContent!.includes('(needs 4.5:1)'));
        expect(await page.$eval('.lc-look-card button.bp5-intent-primary', (b) => (b as HTMLButtonElement).disabled)).to.equal(true);
        await setValue('#look-color', '#7f1d1d');
        await page.select('#look-position', 'left');
        await setValue('#look-title', 'Ask Looks');
        await setValue('#look-greeting', 'Hello from Looks! What can we do for you?');
        // Consent (issue 25): the store's privacy line and policy, previewed live.
        await setValue('#look-privacy', 'Looks keeps chats 2 years to answer you.');
        await setValue('#look-privacy-url', 'https://looks.example/privacy');
        await page.waitForFunction(() => document.querySelector('[data-testid="look-privacy-preview"]')?.textContent === 'Looks keeps chats 2 years to answer you. Privacy policy');
        await page.waitForFunction(() => document.querySelector('.lc-look-head')?.textContent === 'Ask Looks');
        expect(await page.$eval('.lc-look-head', (el) => getComputedStyle(el).backgroundColor)).to.equal('rgb(127, 29, 29)');
        expect(await page.$eval('.lc-look-preview', (el) => el.classList.contains('lc-look-left'))).to.equal(true);
        await page.evaluate(() => (Array.from(document.querySelectorAll('.lc-look-card button')).find((b) => b.textContent === 'Save look') as HTMLButtonElement).click());
        await page.waitForSelector('.lc-look-saved');
        const card = await page.$('.lc-look-card');
        if (SCREENSHOTS) {
            Fs.mkdirSync(Path.join(SCREENSHOT_DIR, 'look'), { recursive: true });
            await card!.screenshot({ path: Path.join(SCREENSHOT_DIR, 'look', 'look-01-admin-card.png') as `${string}.png` });
        }
        expect((await t.server.app.services.tenants.getBotInstance(shop.bot.id))!.look)
            .to.deep.equal({ color: '#7f1d1d', position: 'left', title: 'Ask Looks', greeting: 'Hello from Looks! What can we do for you?', texts: {},
                privacy: 'Looks keeps chats 2 years to answer you.', privacyUrl: 'https://looks.example/privacy' });
        await page.close();

        const merchant = await startMerchantSite(`${t.url}/widget-looks.js`);
        const store = await browser.newPage();
        try {
            await store.setViewport({ width: 1200, height: 800 });
            await store.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
            await store.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
            const launcher = await store.evaluate(`(() => { const b = ${ROOT}.querySelector('.lc-launcher'); const r = b.getBoundingClientRect(); return [Math.round(r.left), getComputedStyle(b).backgroundColor]; })()`);
            expect(launcher).to.deep.equal([20, 'rgb(127, 29, 29)']);
            await store.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
            await store.waitForFunction(`!!${ROOT}.querySelector('.lc-msgs')?.textContent?.includes('Hello from Looks!')`);
            expect(await store.evaluate(`${ROOT}.querySelector('.lc-title').textContent`)).to.equal('Ask Looks');
            expect(await store.evaluate(`Math.round(${ROOT}.querySelector('.lc-panel').getBoundingClientRect().left)`)).to.equal(20);
            // The colour is the store's wherever the widget had its blue: head, chips, Send, the customer's messages.
            const colours = await store.evaluate(`(() => { const c = (s, p) => getComputedStyle(${ROOT}.querySelector(s))[p];
                return [c('.lc-head', 'backgroundColor'), c('.lc-chip', 'color'), c('.lc-chip', 'borderTopColor'), c('.lc-send', 'backgroundColor')]; })()`);
            expect(colours).to.deep.equal(['rgb(127, 29, 29)', 'rgb(127, 29, 29)', 'rgb(127, 29, 29)', 'rgb(127, 29, 29)']);
            // The privacy line and the policy link, before the first message is kept; gone once the customer wrote.
            expect(await store.evaluate(`${ROOT}.querySelector('[data-testid=privacy-line]').textContent`)).to.equal('Looks keeps chats 2 years to answer you. Privacy policy');
            expect(await store.evaluate(`${ROOT}.querySelector('[data-testid=privacy-line] a').href`)).to.equal('https://looks.example/privacy');
            await store.setViewport({ width: 390, height: 844 });
            await shot(store, 'look-03-widget-privacy-line-390');
            const line = await store.evaluate(`(() => { const r = ${ROOT}.querySelector('[data-testid=privacy-line]').getBoundingClientRect(); return { right: r.right, width: innerWidth, h: r.height }; })()`) as { right: number; width: number; h: number };
            expect(line.right, 'the line fits at 390 px').to.be.at.most(line.width);
            expect(line.h).to.be.greaterThan(0);
            await store.setViewport({ width: 1200, height: 800 });
            await clickChip(store, 'What are your store hours?');
            await store.waitForFunction(`!!${ROOT}.querySelector('.lc-user')`);
            await store.waitForFunction(`!${ROOT}.querySelector('[data-testid=privacy-line]')`);
            expect(await store.evaluate(`getComputedStyle(${ROOT}.querySelector('.lc-user')).backgroundColor`)).to.equal('rgb(127, 29, 29)');
            await shot(store, 'look-02-widget-left');
        }
        finally {
            await store.close();
            await merchant.close();
        }
    });
});
