import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';

async function questionTitles(page: Page): Promise<string[]> {
    return page.$$eval('.lc-question-title', (els) => els.map((e) => e.textContent ?? ''));
}

async function clickButton(page: Page, text: string, scope = 'body'): Promise<void> {
    await page.waitForFunction((s: string, t: string) => Array.from(document.querySelectorAll(`${s} button`)).some((b) => b.textContent?.trim() === t), {}, scope, text);
    await page.evaluate((s: string, t: string) => {
        (Array.from(document.querySelectorAll(`${s} button`)).find((b) => b.textContent?.trim() === t) as HTMLButtonElement).click();
    }, scope, text);
}

describe('the admin questions screen (/admin-questions) in a browser', function () {
    this.timeout(90000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'qshop');
        // This screen's test starts from its own two questions, not a new store's five defaults.
        await t.server.app.db('premade_questions').where('organization_id', shop.organization.id).delete();
        for (const q of [['What are your store hours?', 'Monday-Saturday 9AM-8PM.'], ['How do I earn points?', '1 point per $1 spent.']]) {
            await t.server.app.services.questions.create(shop.organization.id, { question: q[0], answer: q[1] });
        }
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    it('adds, edits, disables, reorders and deletes questions, and previews the active ones', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1100, height: 900 });
        await storeAdminToken(page, t.url, shop.admin.token);
        await page.goto(`${t.url}/admin-questions`, { waitUntil: 'networkidle0' });
        await page.waitForSelector('.lc-question-title');
        expect(await questionTitles(page)).to.deep.equal(['What are your store hours?', 'How do I earn points?']);
        await screenshot(page, 'admin-questions-01-list');

        // Add: Save stays disabled until both fields are filled.
        await clickButton(page, 'Add Question');
        await page.waitForSelector('#q-question');
        const saveDisabled = () => page.evaluate(() => (Array.from(document.querySelectorAll('.bp5-dialog button')).find((b) => b.textContent === 'Save') as HTMLButtonElement).disabled);
        expect(await saveDisabled()).to.equal(true);
        await page.type('#q-question', 'Do you ship abroad?');
        expect(await saveDisabled()).to.equal(true);
        // A points check or live support needs no answer (the widget never shows it; issue 23): optional for those.
        await page.select('#q-kind', 'loyalty_check');
        expect(await saveDisabled()).to.equal(false);
        expect(await page.$eval('label[for="q-answer"]', (l) => l.textContent)).to.contain('(optional)');
        await page.select('#q-kind', 'answer');
        expect(await saveDisabled()).to.equal(true);
        await page.type('#q-answer', 'We ship to the US and Canada.');
        expect(await saveDisabled()).to.equal(false);
        await screenshot(page, 'admin-questions-02-add');
        await clickButton(page, 'Save', '.bp5-dialog');
        await page.waitForFunction(() => document.querySelectorAll('.lc-question-title').length === 3);
        expect(await questionTitles(page)).to.deep.equal(['What are your store hours?', 'How do I earn points?', 'Do you ship abroad?']);

        // Move: up is blocked on the first, down on the last; moving saves the order on the server.
        const arrows = await page.$$eval('.lc-question', (cards) => cards.map((c) => [
            (c.querySelector('[aria-label="Move up"]') as HTMLButtonElement).disabled,
            (c.querySelector('[aria-label="Move down"]') as HTMLButtonElement).disabled
        ]));
        expect(arrows).to.deep.equal([[true, false], [false, false], [false, true]]);
        await page.evaluate(() => (document.querySelectorAll('.lc-question')[2].querySelector('[aria-label="Move up"]') as HTMLButtonElement).click());
        await page.waitForFunction(() => document.querySelectorAll('.lc-question-title')[1].textContent === 'Do you ship abroad?');
        // The list moves at once; the order reaches the server a moment later.
        const storedOrder = async () => (await t.server.app.services.questions.list(shop.organization.id)).map((q) => q.question);
        const movedOrder = ['What are your store hours?', 'Do you ship abroad?', 'How do I earn points?'];
        for (let i = 0; i < 50 && JSON.stringify(await storedOrder()) !== JSON.stringify(movedOrder); i++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(await storedOrder()).to.deep.equal(movedOrder);

        // Edit the first one.
        await page.evaluate(() => (Array.from(document.querySelectorAll('.lc-question')[0].querySelectorAll('button')).find((b) => b.textContent === 'Edit') as HTMLButtonElement).click());
        await page.waitForSelector('#q-answer');
        await page.$eval('#q-answer', (el) => (el as HTMLTextAreaElement).select());
        await page.type('#q-answer', 'Monday-Saturday 9AM-8PM, Sunday 10AM-6PM.');
        await clickButton(page, 'Save', '.bp5-dialog');
        await page.waitForFunction(() => document.querySelector('.lc-question-answer')?.textContent === 'Monday-Saturday 9AM-8PM, Sunday 10AM-6PM.');

        // Disable the last one.
        await page.evaluate(() => (document.querySelectorAll('.lc-question')[2].querySelector('input[type=checkbox]') as HTMLInputElement).click());
        await page.waitForFunction(() => document.querySelectorAll('.lc-question')[2].textContent?.includes('Inactive'));
        await screenshot(page, 'admin-questions-03-edited');

        // Delete asks for confirmation.
        await page.evaluate(() => (Array.from(document.querySelectorAll('.lc-question')[1].querySelectorAll('button')).find((b) => b.textContent === 'Delete') as HTMLButtonElement).click());
        await page.waitForFunction(() => document.querySelector('.bp5-alert')?.textContent?.includes('Are you sure you want to delete this question?'));
        await new Promise((resolve) => setTimeout(resolve, 500));     // let the dialog's transition finish
        await screenshot(page, 'admin-questions-04-confirm-delete');
        await clickButton(page, 'Delete', '.bp5-alert');
        await page.waitForFunction(() => document.querySelectorAll('.lc-question-title').length === 2);
        expect(await questionTitles(page)).to.deep.equal(['What are your store hours?', 'How do I earn points?']);

        // Preview: the active questions under 'How can I help you?'.
        await page.evaluate(() => (Array.from(document.querySelectorAll('[role=tab]')).find((b) => b.textContent === 'Preview') as HTMLElement).click());
        await page.waitForSelector('.lc-preview');
        const preview = await page.$eval('.lc-preview', (el) => ({ title: el.querySelector('h2')?.textContent, items: Array.from(el.querySelectorAll('.lc-preview-chip')).map((b) => b.textContent) }));
        expect(preview).to.deep.equal({ title: 'How can I help you?', items: ['What are your store hours?'] });
        await new Promise((resolve) => setTimeout(resolve, 400));
        await screenshot(page, 'admin-questions-05-preview');
        await page.close();
    });
});
