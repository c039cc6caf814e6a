import { expect } from 'chai';
import type { Browser } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
import { connectAgent, request as nesRequest, setAvailable } from '../helpers/livechat-client';
import { importCustomers, lastCode } from '../helpers/loyalty';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';
import { seedDemo } from '../../bin/commands/seed';
import { WIDGET_ROOT as ROOT, messagesText, waitForText as waitForMessage, clickChip, typeAndSend } from '../helpers/widget-page';

describe('the customer widget on a merchant site (cross-origin)', function () {
    this.timeout(90000);
    let t: TestServer;
    let browser: Browser;
    let merchant: { port: number; close(): Promise<void> };
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'shop', 'localhost');
        await importCustomers(t.server, shop.organization.id, [['+15555550100', 'Alex Rivera', 'alex@example.com', 'LC-1001', 1250]]);
        // A new store starts with the five default questions (tenants' onOrganizationCreated hook).
        merchant = await startMerchantSite(`${t.url}/widget-shop.js`);
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await merchant?.close();
        await t?.close();
    });

    it('answers a question, shows points after an SMS code, handles a wrong code, an unknown phone and New Chat @smoke', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(String(err)));
        // The merchant page is on localhost:<port>; the API on 127.0.0.1:<other port>: a different origin.
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        const label = await page.evaluate(`${ROOT}.querySelector('.lc-launcher').getAttribute('aria-label')`);
        expect(label).to.equal('Open chat with Store shop support');
        await screenshot(page, 'widget-01-closed');

        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await waitForMessage(page, 'Hi! Welcome to Store shop support.');
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-title').textContent`)).to.equal('Store shop Support');
        expect(await page.evaluate(`${ROOT}.activeElement?.className`)).to.equal('lc-input');
        const chips = await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-chip')].map((b) => b.textContent)`);
        expect(chips).to.deep.equal(DEFAULT_QUESTIONS.map((q) => q.question));
        await screenshot(page, 'widget-02-open');

        await clickChip(page, 'What are your store hours?');
        await waitForMessage(page, 'We are open Monday-Saturday 9AM-8PM and Sunday 10AM-6PM.');
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-quick').hidden`)).to.equal(true);
        await page.waitForFunction(`!${ROOT}.querySelector('.lc-quick').hidden`, { timeout: 3000 });
        await screenshot(page, 'widget-03-faq-answer');

        // A blank message is ignored.
        const before = await messagesText(page);
        await typeAndSend(page, '   ');
        expect(await messagesText(page)).to.equal(before);

        await clickChip(page, 'Check my loyalty points');
        await waitForMessage(page, 'Please enter the phone number linked to your loyalty account.');
        await typeAndSend(page, '555-555-0100');
        await waitForMessage(page, 'I sent a 6-digit verification code to your phone.');
        const code = await lastCode(t.server, '+15555550100');
        await screenshot(page, 'widget-04-code-sent');

        await typeAndSend(page, code === '000000' ? '111111' : '000000');
        await waitForMessage(page, 'Error: Invalid verification code. Please try entering the code again.');
        const errorColor = await page.evaluate(`getComputedStyle([...${ROOT}.querySelectorAll('.lc-msg')].pop()).color`);
        expect(errorColor).to.equal('rgb(220, 38, 38)');
        await screenshot(page, 'widget-05-wrong-code');

        await typeAndSend(page, code);
        await waitForMessage(page, 'You have 1,250 loyalty points.');
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-link:nth-child(2)').hidden`)).to.equal(false);
        await screenshot(page, 'widget-06-points');

        await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-link')].find((b) => b.textContent === 'More Help').click()`);
        await clickChip(page, 'Check my loyalty points');
        await typeAndSend(page, '+1 555 555 9999');
        await waitForMessage(page, "I couldn't find that phone number in our system. You can sign up for our loyalty program in any store!");
        await screenshot(page, 'widget-07-unknown-phone');

        await clickChip(page, 'Talk to live support');
        await waitForMessage(page, "I'm sorry, but our live support team is currently unavailable. Please try again later or continue with the pre-made questions for quick help.");
        await screenshot(page, 'widget-08-live-unavailable');

        await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-link')].find((b) => b.textContent === 'New Chat').click()`);
        expect(await messagesText(page)).to.equal('');
        await waitForMessage(page, 'Hi! Welcome to Store shop support.', 2000);
        expect(await page.evaluate(`${ROOT}.querySelectorAll('.lc-msg').length`)).to.equal(1);
        await screenshot(page, 'widget-09-new-chat');

        await page.keyboard.press('Escape');
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-panel').hidden`)).to.equal(true);
        expect(errors).to.deep.equal([]);

        // The flow's analytics events, stored through the job queue with the page's host name.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await t.server.app.jobs.drain();
        const events = await t.server.app.db('analytics_events').where('organization_id', shop.organization.id).orderBy('id');
        const actions = events.map((e: any) => e.action);
        for (const action of ['widget_loaded', 'widget_opened', 'question_clicked', 'verification_sent', 'code_verification_failed',
            'points_retrieved', 'verification_failed', 'live_chat_requested']) {
            expect(actions, action).to.include(action);
        }
        const points = events.find((e: any) => e.action === 'points_retrieved');
        expect(points).to.include({ phone_number: '+15555550100', points_retrieved: 1250, domain: 'localhost' });
        expect(!!points.success).to.equal(true);
        const failed = events.find((e: any) => e.action === 'code_verification_failed');
        expect(failed).to.include({ phone_number: '+15555550100', error_message: 'Invalid verification code' });
        expect(!!failed.success).to.equal(false);
        const unknown = events.find((e: any) => e.action === 'verification_failed');
        expect(unknown.phone_number).to.equal('+15555559999');
        await page.close();
    });

    it('falls back to the five built-in questions when the store\'s questions cannot be loaded', async () => {
        const page = await browser.newPage();
        await page.setRequestInterception(true);
        page.on('request', (request) => {
            if (request.url().includes('/api/questions')) {
                void request.respond({ status: 500, contentType: 'application/json', body: '{"message":"down"}', headers: { 'access-control-allow-origin': '*' } });
            }
            else {
                void request.continue();
            }
        });
        // A store whose own questions differ from the defaults, so the fallback is visible.
        await t.server.app.services.questions.create(shop.organization.id, { question: 'Only this store asks this?', answer: 'Yes.' });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await waitForMessage(page, 'Hi! Welcome to Store shop support.');
        const chips = await page.evaluate(`Array.from(${ROOT}.querySelectorAll('.lc-chip')).map((b) => b.textContent)`);
        expect(chips).to.deep.equal(['Check my loyalty points', 'How do I redeem points in store?', 'Talk to live support', 'What are your store hours?', 'How do I earn points?']);
        await page.close();
    });

    it('sends the customer back to the questions when the code has expired', async () => {
        const page = await browser.newPage();
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await clickChip(page, 'Check my loyalty points');
        await typeAndSend(page, '+15555550100');
        await waitForMessage(page, 'I sent a 6-digit verification code to your phone.');
        await t.server.app.db('verification_codes').where({ organization_id: shop.organization.id }).update({ expires_at: Date.now() - 1 });
        await typeAndSend(page, await lastCode(t.server, '+15555550100'));
        await waitForMessage(page, 'Error: This code has expired. Please request a new code.');
        expect(await messagesText(page)).to.not.contain('Please try entering the code again');
        await page.waitForFunction(`!${ROOT}.querySelector('.lc-quick').hidden`, { timeout: 3000 });
        await screenshot(page, 'widget-12-expired-code');
        await page.close();
    });

    it('runs a live chat with an agent: badge, connected notice, messages both ways, end', async () => {
        // A real agent (a nes socket, as the console has), Available; the customer's widget connects for real.
        const agent = await connectAgent(t.url, shop);
        await setAvailable(t.server, shop, true);
        const page = await browser.newPage();
        try {
            await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
            await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
            await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
            await waitForMessage(page, 'Hi! Welcome');
            await clickChip(page, 'Talk to live support');
            await waitForMessage(page, 'Connecting you with a member of our team.', 5000);
            expect(await page.evaluate(`${ROOT}.querySelector('.lc-badge').hidden`)).to.equal(false);
            expect(await page.evaluate(`${ROOT}.querySelector('.lc-badge').textContent`)).to.equal('Live Chat Active');
            const request = await agent.box.waitFor((m: any) => m.type === 'new_customer');
            await waitForMessage(page, "You're connected! A member of our team will reply here shortly.", 6000);
            await nesRequest(agent.client, 'POST', `/api/chat/session/${request.sessionId}/accept`);
            await typeAndSend(page, 'Where is my order?');
            await agent.box.waitFor((m: any) => m.type === 'chat_message' && m.message === 'Where is my order?');
            await nesRequest(agent.client, 'POST', `/api/chat/session/${request.sessionId}/messages`, { message: '<b>Hi</b>, this is Sam.', clientMessageId: 'probe-1' });
            await waitForMessage(page, '<b>Hi</b>, this is Sam.', 5000);
            expect(await page.evaluate(`${ROOT}.querySelectorAll('.lc-msgs b').length`)).to.equal(0);     // text, never HTML
            await screenshot(page, 'widget-13-live-chat');
            await nesRequest(agent.client, 'POST', `/api/chat/session/${request.sessionId}/end`);
            await waitForMessage(page, 'The live chat has ended. You can continue with the questions below.', 5000);
            expect(await page.evaluate(`${ROOT}.querySelector('.lc-badge').hidden`)).to.equal(true);
            expect(await page.evaluate(`${ROOT}.querySelector('.lc-quick').hidden`)).to.equal(false);
        }
        finally {
            await page.close();
            await setAvailable(t.server, shop, false);
            agent.client.disconnect();
        }
    });

    it('fits a phone screen', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 375, height: 700, isMobile: true, hasTouch: true });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await waitForMessage(page, 'Hi! Welcome to Store shop support.');
        const box = await page.evaluate(`(() => { const r = ${ROOT}.querySelector('.lc-panel').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`);
        expect(box).to.deep.equal([0, 0, 375, 700]);
        await screenshot(page, 'widget-10-phone');
        await page.close();
    });

    it('refuses the widget\'s API calls from a page on a domain the store has not registered', async () => {
        const page = await browser.newPage();
        // Same merchant server reached as 127.0.0.1: not the store's domain (localhost).
        await page.goto(`http://127.0.0.1:${merchant.port}/`, { waitUntil: 'load' });
        const status = await page.evaluate(async (api: string, key: string) => {
            const res = await fetch(`${api}/api/questions`, { headers: { 'X-Widget-Key': key } }).catch(() => null);
            return res ? res.status : 'blocked';
        }, t.url, shop.bot.publicKey);
        // The server answers 403 without an Access-Control-Allow-Origin header, so the page cannot even read it.
        expect(status).to.equal('blocked');
        const direct = await t.server.inject({ method: 'GET', url: '/api/questions', headers: { 'x-widget-key': shop.bot.publicKey, origin: `http://127.0.0.1:${merchant.port}` } });
        expect(direct.statusCode).to.equal(403);
        await page.close();
    });

    it('hosts the demo widget on the demo storefront at /', async () => {
        await seedDemo(t.server);
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        await page.goto(`${t.url}/`, { waitUntil: 'load' });
        expect(await page.$eval('header', (h) => (h as HTMLElement).innerText)).to.match(/Test Dashboard[\s\S]*Analytics[\s\S]*Live Chat[\s\S]*Manage Questions[\s\S]*Admin Login[\s\S]*Cart \(2\)/);
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await waitForMessage(page, 'Hi! Welcome to Demo Store support.');
        await clickChip(page, 'Check my loyalty points');
        await typeAndSend(page, '+15555550100');
        await waitForMessage(page, 'I sent a 6-digit verification code to your phone.');
        await typeAndSend(page, await lastCode(t.server, '+15555550100'));
        await waitForMessage(page, 'You have 1,250 loyalty points.');
        await screenshot(page, 'widget-11-demo-storefront');
        await page.close();
    });
});
