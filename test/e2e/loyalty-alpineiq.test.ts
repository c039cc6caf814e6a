import { expect } from 'chai';
import type { Browser } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
import { startFakeAlpineIq } from '../helpers/fake-alpineiq';
import { lastCode } from '../helpers/loyalty';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';
import { WIDGET_ROOT, clickChip, typeAndSend, waitForText as waitForMessage } from '../helpers/widget-page';

const ROOT = WIDGET_ROOT;

describe('the widget with LOYALTY_PROVIDER=alpineiq (against a local Alpine IQ-shaped server)', function () {
    this.timeout(90000);
    let t: TestServer;
    let browser: Browser;
    let merchant: { port: number; close(): Promise<void> };
    let shop: Tenant;
    let alpine: Awaited<ReturnType<typeof startFakeAlpineIq>>;

    before(async () => {
        alpine = await startFakeAlpineIq({ apiKey: 'aiq-e2e-key-1234', uid: 'acct-e2e', members: [
            { phone: '15555550100', contactId: 'AIQ-1', firstName: 'Alex', lastName: 'Rivera', email: 'alex@example.com', points: 2480, tier: 'Gold' }
        ] });
        t = await startTestServer({
            listen: true,
            env: { LOYALTY_PROVIDER: 'alpineiq', ALPINEIQ_API_KEY: 'aiq-e2e-key-1234', ALPINEIQ_UID: 'acct-e2e', ALPINEIQ_BASE_URL: alpine.url, ALPINEIQ_TIMEOUT_MS: '1000' }
        });
        shop = await createTenant(t.server, 'aiqshop', 'localhost');
        for (const q of DEFAULT_QUESTIONS) {
            await t.server.app.services.questions.create(shop.organization.id, q);
        }
        merchant = await startMerchantSite(`${t.url}/widget-aiqshop.js`);
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await merchant?.close();
        await t?.close();
        await alpine?.close();
    });

    it('shows the Alpine IQ points after the SMS code; when Alpine IQ fails at the code step the same code works on retry', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 390, height: 800 });
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(String(err)));
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await waitForMessage(page, 'Hi! Welcome to Store aiqshop support.');

        await clickChip(page, 'Check my loyalty points');
        await typeAndSend(page, '555-555-0100');
        await waitForMessage(page, 'I sent a 6-digit verification code to your phone.');
        const code = await lastCode(t.server, '+15555550100');

        // Alpine IQ goes down between the two steps: the connection text, and the code stays good.
        alpine.state.down = true;
        await typeAndSend(page, code);
        await waitForMessage(page, "Sorry, I'm having trouble verifying the code. Please try again.");
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-msgs').textContent`)).not.to.contain('Error:');
        await screenshot(page, 'alpineiq-01-provider-down');

        alpine.state.down = false;
        await typeAndSend(page, code);
        await waitForMessage(page, 'You have 2,480 loyalty points.');
        await screenshot(page, 'alpineiq-02-points');
        expect(alpine.requests.some((r) => r.url === '/api/v2/loyalty/lookup/15555550100')).to.equal(true);
        expect(errors).to.deep.equal([]);
    });

    it('says it has trouble connecting when Alpine IQ is down at the phone step', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 390, height: 800 });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await clickChip(page, 'Check my loyalty points');
        alpine.state.down = true;
        try {
            await typeAndSend(page, '555-555-0177');
            await waitForMessage(page, "Sorry, I'm having trouble connecting. Please try again.");
            await screenshot(page, 'alpineiq-03-down-at-phone');
        }
        finally {
            alpine.state.down = false;
        }
    });
});
