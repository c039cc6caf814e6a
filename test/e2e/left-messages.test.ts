import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer, bearer } from '../helpers/server';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend, openWidget } from '../helpers/widget-page';

/**
 * Issue 23, the staff side, in a browser: with no agent available a customer leaves a message with the widget's form
 * on a merchant page; the agent console (open, connected, not Available) sees it arrive unread in its Messages inbox
 * without a reload, opens it (the customer's email, name and page beside it), and answers it: the answer is mailed to
 * the customer (the mail outbox), Reply-To the store, and kept in the thread.
 */
describe('left messages from the widget to the console\'s Messages inbox and back by email (issue 23)', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let merchant: { port: number; close(): Promise<void> };
    let shop: Tenant;
    let agent: Page;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'inbox', 'localhost');
        await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(shop.admin.token), payload: { emailNotificationsEnabled: false, emailRecipient: 'desk@inbox.test' } });
        merchant = await startMerchantSite(`${t.url}/widget-inbox.js`);
        browser = await launchBrowser();
        agent = await browser.newPage();
        await agent.setViewport({ width: 1280, height: 800 });
        await storeAdminToken(agent, t.url, shop.admin.token);
        await agent.goto(`${t.url}/admin-chat/messages`, { waitUntil: 'networkidle2' });
        await agent.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
        await agent.waitForFunction(() => document.body.innerText.includes('No open messages'), { timeout: 10000 });
    });
    after(async () => {
        await browser?.close();
        await merchant?.close();
        await t?.close();
    });

    async function offlineForm(width: number, height: number): Promise<Page> {
        const page = await browser.newPage();
        await page.setViewport({ width, height });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome to Store inbox support.');
        await typeAndSend(page, 'agent');
        await page.waitForFunction(`!!${ROOT}.querySelector('form.lc-offline')`, { timeout: 10000 });
        await waitForText(page, 'our live support team is currently unavailable');
        return page;
    }

    it('shows the leave-a-message form beside the conversation at 390 px (the messages keep their room)', async () => {
        const page = await offlineForm(390, 844);
        const box = await page.evaluate(`(() => {
            const r = (s) => ${ROOT}.querySelector(s).getBoundingClientRect();
            return { panel: r('.lc-panel').height, list: r('.lc-msgs').height, left: r('form.lc-offline').left, right: r('form.lc-offline').right, width: r('.lc-panel').width };
        })()`) as { panel: number; list: number; left: number; right: number; width: number };
        expect(box.list, JSON.stringify(box)).to.be.greaterThan(box.panel * 0.5);
        expect(box.right - box.left).to.be.at.most(box.width);
        expect(await page.evaluate(`${ROOT}.querySelector('form.lc-offline textarea').value`), 'a bare "agent" is not the message to leave').to.equal('');
        await screenshot(page, 'left-messages-01-widget-offline-form-390px');
        await page.close();
    });

    it('a customer leaves a message; the agent sees it unread, opens it, replies, and the reply is mailed to the customer', async () => {
        const page = await offlineForm(1280, 800);
        const name = await page.evaluateHandle(`${ROOT}.querySelector('form.lc-offline input[autocomplete=name]')`);
        await (name as any).type('Jo Park');
        const email = await page.evaluateHandle(`${ROOT}.querySelector('form.lc-offline input[type=email]')`);
        await (email as any).type('jo@example.test');
        const text = await page.evaluateHandle(`${ROOT}.querySelector('form.lc-offline textarea')`);
        await (text as any).type('Do you have the blue jacket in size M?');
        await screenshot(page, 'left-messages-02-widget-offline-form-1280x800');
        const box = await page.evaluate(`(() => {
            const r = (s) => ${ROOT}.querySelector(s).getBoundingClientRect();
            return { panel: r('.lc-panel').height, list: r('.lc-msgs').height };
        })()`) as { panel: number; list: number };
        expect(box.list, 'the form does not squeeze the messages at 1280×800').to.be.greaterThan(box.panel * 0.5);
        await page.evaluate(`${ROOT}.querySelector('form.lc-offline button[type=submit]').click()`);
        await waitForText(page, 'Thanks! Your message was sent to the store, which will answer by email.');

        // Pushed to the open console: unread in the list, and counted on the Messages tab. (The console's tab comes to
        // the front: a background tab draws no frames, and puppeteer's waits poll on animation frames.)
        await agent.bringToFront();
        await agent.waitForFunction(() => !!document.querySelector('[data-testid="messages-list"] [data-testid="message-unread"]'), { timeout: 10000 });
        expect(await agent.$eval('[data-testid="messages-unread"]', (el) => el.textContent)).to.equal('1');
        const item = await agent.$eval('[data-testid="messages-list"] li', (el) => (el as HTMLElement).innerText);
        expect(item).to.include('Jo Park').and.include('jo@example.test').and.include('Do you have the blue jacket in size M?');
        await screenshot(agent, 'left-messages-03-console-inbox-unread-1280');

        await agent.click('[data-testid="messages-list"] [data-chat-button]');
        await agent.waitForFunction(() => document.querySelector('[data-testid="message-thread"]')?.textContent?.includes('Do you have the blue jacket in size M?'));
        await agent.waitForFunction(() => document.querySelector('[data-testid="customer-email"]')?.textContent === 'jo@example.test');
        expect(await agent.$eval('[data-testid="customer-name"]', (el) => el.textContent)).to.equal('Jo Park');
        expect(await agent.$eval('[data-testid="customer-page"]', (el) => el.textContent)).to.equal(`http://localhost:${merchant.port}/`);
        // Read once opened: the badge and the tab's count go.
        await agent.waitForFunction(() => !document.querySelector('[data-testid="message-unread"]') && !document.querySelector('[data-testid="messages-unread"]'), { timeout: 10000 });
        await screenshot(agent, 'left-messages-04-console-message-open-1280');

        await agent.type('[data-testid="message-reply"]', 'Yes! We have two in M, shall we keep one for you?');
        await agent.click('[data-testid="message-send"]');
        await agent.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="message-thread"] .lc-msg-agent')).some((m) => m.textContent?.includes('Yes! We have two in M')), { timeout: 10000 });
        expect(await agent.$eval('[data-testid="message-reply"]', (el) => (el as HTMLTextAreaElement).value)).to.equal('');
        await screenshot(agent, 'left-messages-05-console-replied-1280');

        const mails = await t.server.app.services.mail.list({ to: 'jo@example.test' });
        expect(mails).to.have.length(1);
        expect(mails[0]).to.include({ replyTo: 'desk@inbox.test', subject: 'Re: your message to Store inbox' });
        expect(mails[0].body).to.include('Yes! We have two in M, shall we keep one for you?').and.include('> Do you have the blue jacket in size M?');
        // The store had the left message by mail too.
        expect((await t.server.app.services.mail.list({ to: 'desk@inbox.test' })).map((m) => m.subject)).to.deep.equal(['Offline message from jo@example.test (Store inbox)']);

        // Done: it leaves the open list.
        await agent.click('[data-testid="message-done"]');
        await agent.waitForFunction(() => document.body.innerText.includes('No open messages'), { timeout: 10000 });
        await page.close();
    });

    it('tells waiting customers apart: a visitor label for one without a phone, the phone in the store\'s national format', async () => {
        const chat = t.server.app.services.livechat;
        await chat.createSession({ organizationId: shop.organization.id, botInstanceId: shop.bot.id, sessionId: 'widget_1_visitorone', phoneNumber: null, customerMessage: 'Hello?', domain: 'localhost', pageUrl: 'https://localhost/cart' });
        await chat.createSession({ organizationId: shop.organization.id, botInstanceId: shop.bot.id, sessionId: 'widget_1_phoneone', phoneNumber: '+15555550142', customerMessage: 'Points?', domain: 'localhost' });
        await agent.bringToFront();
        await agent.goto(`${t.url}/admin-chat`, { waitUntil: 'networkidle2' });
        const label = (await chat.getSession(shop.organization.id, 'widget_1_visitorone')).visitorLabel;
        await agent.waitForFunction((l: string) => {
            const text = document.querySelector('[data-testid="waiting-list"]')?.textContent ?? '';
            return text.includes(l) && text.includes('(555) 555-0142');
        }, { timeout: 10000 }, label);
        expect(await agent.$eval('[data-testid="waiting-list"]', (el) => el.textContent)).to.not.include('Unknown').and.not.include('+15555550142');
        await screenshot(agent, 'left-messages-06-console-queue-visitor-and-phone-1280');
    });
});
