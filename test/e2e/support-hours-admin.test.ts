import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer, bearer } from '../helpers/server';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';
import { hoursStatus } from '../../core/shared/support-hours';

const ZONE = 'America/Chicago';
const localDate = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

/**
 * Issue 26, the admin's side: the support hours page, used with the keyboard only, previews "open now / opens …" in
 * the store's zone, named, from the unsaved form, and saves the schedule the widget then follows.
 */
describe('the support hours settings page (issue 26)', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'hoursadmin', 'localhost');
        await t.server.app.db('organizations').where('id', shop.organization.id).update({ time_zone: ZONE });
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    async function open(width: number, height: number): Promise<Page> {
        const page = await browser.newPage();
        await page.setViewport({ width, height });
        await storeAdminToken(page, t.url, shop.admin.token);
        await page.goto(`${t.url}/admin-chat/hours`, { waitUntil: 'networkidle2' });
        await page.waitForFunction(() => document.body.innerText.includes('Every week'), { timeout: 15000 });
        return page;
    }
    const preview = (page: Page) => page.$eval('[data-testid="hours-preview"]', (el) => (el as HTMLElement).innerText);
    /** Moves the focus with Tab until the element matching `selector` has it (a person tabbing through the form). */
    async function tabTo(page: Page, test: string): Promise<void> {
        for (let i = 0; i < 80; i += 1) {
            await page.keyboard.press('Tab');
            const found = await page.evaluate(`(() => { const el = document.activeElement; return !!el && (${test}); })()`);
            if (found) {
                return;
            }
        }
        throw new Error(`Tab never reached ${test}`);
    }

    it('is used with the keyboard: adds hours and a holiday, previews the next opening in the store\'s zone, and saves (1280 px)', async () => {
        const page = await open(1280, 860);
        expect(await preview(page)).to.include('No support hours set: live support is open whenever an agent is Available.');
        expect(await page.evaluate(() => document.body.innerText)).to.include(`in the store's time zone (${ZONE})`);

        // Monday and Tuesday, 9 to 5; the first is added, then its opening moved to 10:00 with the keyboard.
        await tabTo(page, `el.getAttribute('aria-label') === 'Add hours on Monday'`);
        await page.keyboard.press('Enter');
        await tabTo(page, `el.getAttribute('aria-label') === 'Add hours on Tuesday'`);
        await page.keyboard.press('Enter');
        await page.focus('input[aria-label="Tuesday: opens"]');
        await page.keyboard.type('1000AM');
        // Today (the store's date) is a holiday.
        await tabTo(page, `el.textContent.trim() === 'Add a date'`);
        await page.keyboard.press('Enter');
        await tabTo(page, `el.getAttribute('aria-label') === 'That day'`);
        // The AI agent alone when closed: arrows move within the radio group.
        await tabTo(page, `el.type === 'radio'`);
        await page.keyboard.press('ArrowDown');

        const draft = {
            weekly: [{ day: 1, open: '09:00', close: '17:00' }, { day: 2, open: '10:00', close: '17:00' }],
            exceptions: [{ date: localDate(Date.now(), ZONE), closed: true as const }]
        };
        const status = hoursStatus(draft, ZONE);
        expect(status.open).to.equal(false);
        const at = Date.parse(status.opensAt!);
        const when = new Intl.DateTimeFormat('en-US', {
            timeZone: ZONE, weekday: 'long', hour: 'numeric', minute: '2-digit', ...(at - Date.now() > 6 * 86_400_000 ? { month: 'short', day: 'numeric' } : {})
        }).format(at);
        await page.waitForFunction((text) => (document.querySelector('[data-testid="hours-preview"]') as HTMLElement).innerText.includes(text), { timeout: 5000 },
            `Closed now. Opens ${when} (store time, ${ZONE})`);
        await screenshot(page, 'hours-admin-1280');

        await tabTo(page, `el.type === 'submit'`);
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.body.innerText.includes('Support hours saved'), { timeout: 5000 });
        const saved = await t.server.inject({ method: 'GET', url: '/api/chat/business-hours', headers: bearer(shop.admin.token) });
        expect(saved.result).to.deep.include({ ...draft, whenClosed: 'ai_only', configured: true, timeZone: ZONE });
        await page.close();
    });

    it('shows what the server refuses and keeps the form as typed; reads at 390 px', async () => {
        const page = await open(390, 844);
        // The saved schedule comes back into the form.
        expect(await page.$$eval('input[type="time"]', (els) => els.map((e) => (e as HTMLInputElement).value))).to.deep.equal(['09:00', '17:00', '10:00', '17:00']);
        // Two Monday ranges that overlap: the preview says so, and so does the server on Save.
        await page.click('button[aria-label="Add hours on Monday"]');
        const inputs = await page.$$('input[aria-label="Monday: opens"]');
        await inputs[1].focus();
        await page.keyboard.type('1200PM');
        await page.waitForFunction(() => (document.querySelector('[data-testid="hours-preview"]') as HTMLElement | null)?.innerText.includes('overlap')
            || document.body.innerText.includes('overlap'), { timeout: 5000 });
        await page.click('button[type="submit"]');
        await page.waitForFunction(() => document.querySelector('[role="alert"]')?.textContent?.includes('Monday: the ranges 09:00–17:00 and 12:00–'), { timeout: 5000 });
        await screenshot(page, 'hours-admin-390');
        const kept = await t.server.inject({ method: 'GET', url: '/api/chat/business-hours', headers: bearer(shop.admin.token) });
        expect((kept.result as any).weekly).to.have.length(2);
        await page.close();
    });
});
