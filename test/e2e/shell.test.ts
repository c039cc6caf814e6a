import { expect } from 'chai';
import type { Browser } from 'puppeteer-core';
import { startTestServer, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';

describe('the admin app shell in a browser', function () {
    this.timeout(60000);
    let t: TestServer;
    let browser: Browser;

    before(async () => {
        t = await startTestServer({ listen: true });
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    it('renders the 404 page for an unknown path', async () => {
        const page = await browser.newPage();
        const response = await page.goto(`${t.url}/this-does-not-exist`, { waitUntil: 'networkidle0' });
        expect(response?.status()).to.equal(404);
        await page.waitForFunction(() => document.body.innerText.includes('404 Page Not Found'));
        await screenshot(page, 'shell-404');
        await page.close();
    });
});
