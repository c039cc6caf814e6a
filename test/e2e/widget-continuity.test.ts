import { expect } from 'chai';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { createTenant, Tenant, TestServer } from '../helpers/server';
import { screenshot } from '../helpers/browser';
import { startMerchantWidget, stopMerchantWidget } from '../helpers/merchant-widget';
import { startMerchantSite } from '../helpers/fake-merchant';
import { lastCode } from '../helpers/loyalty';
import { Inbox, NesClient, request, setAvailable } from '../helpers/livechat-client';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';
import { WIDGET_ROOT, waitForText, clickChip, typeAndSend, openWidget } from '../helpers/widget-page';

/** With SCREENSHOTS=1: the viewport under widget/. */
const shot = (page: Page, name: string) => screenshot(page, `widget/${name}`, { fullPage: false });

const ROOT = WIDGET_ROOT;

/** The paths of the requests the page makes to the API server from now on. */
function recordApiRequests(page: Page, apiUrl: string): string[] {
    const paths: string[] = [];
    page.on('request', (r: HTTPRequest) => {
        if (r.url().startsWith(apiUrl)) {
            paths.push(new URL(r.url()).pathname);
        }
    });
    return paths;
}

/** Page CSS that tries to restyle every element, the host's tag included, and to stretch children of body. */
const HOSTILE_CSS = `
*{margin:30px!important;padding:30px!important;border:5px solid red!important;min-height:50px!important}
body > *{min-height:100vh!important;display:block!important}
loyalty-chat-widget,[data-loyalty-chat]{width:500px!important;height:500px!important;position:static!important;background:red!important}`;

describe('the widget, second edition: continuity, privacy, isolation (issue 11)', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let merchant: { port: number; close(): Promise<void> };
    let shop: Tenant;
    let elsewhere: Tenant;
    let agent: { client: NesClient; box: Inbox };

    before(async () => {
        ({ t, shop, merchant, browser, agent } = await startMerchantWidget('cont', {
            strictCsp: true, css: HOSTILE_CSS,
            prepare: async (server, store) => {
                elsewhere = await createTenant(server.server, 'away', 'shop.example');
                // The loyalty question renamed: the behaviour follows its kind, not its text.
                const loyalty = (await server.server.app.services.questions.list(store.organization.id)).find((q) => q.kind === 'loyalty_check')!;
                await server.server.app.services.questions.update(store.organization.id, loyalty.id, { question: 'Mis puntos, por favor' });
            }
        }));
    });
    after(() => stopMerchantWidget({ t, merchant, browser, agent }));

    it('fetches nothing but the loader before the launcher is touched, and page CSS cannot size or move the host', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        const apiRequests = recordApiRequests(page, t.url);
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'networkidle0' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await new Promise((r) => setTimeout(r, 1500));
        expect(apiRequests).to.deep.equal(['/widget-cont.js']);
        const host = await page.evaluate(`(() => { const h = document.querySelector('[data-loyalty-chat]'); const r = h.getBoundingClientRect();
            const s = getComputedStyle(h); return { tag: h.localName, w: r.width, h: r.height, position: s.position, bg: s.backgroundColor, border: s.borderTopWidth }; })()`);
        expect(host).to.deep.equal({ tag: 'loyalty-chat-widget', w: 0, h: 0, position: 'fixed', bg: 'rgba(0, 0, 0, 0)', border: '0px' });
        const launcher = await page.evaluate(`(() => { const r = ${ROOT}.querySelector('.lc-launcher').getBoundingClientRect(); return [Math.round(innerWidth - r.right), Math.round(innerHeight - r.bottom), r.width]; })()`);
        expect(launcher).to.deep.equal([20, 20, 56]);
        await shot(page, 'continuity-01-hostile-css-closed');

        // Hovering loads the panel chunk (and only then).
        await page.hover(`loyalty-chat-widget`).catch(() => undefined);
        const button = await page.evaluateHandle(`${ROOT}.querySelector('.lc-launcher')`);
        await (button as any).hover();
        await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/widget\/panel\.[0-9a-f]+\.js$/.test(e.name)), { timeout: 10000 });
        await page.close();
    });

    it('runs the renamed loyalty question by its kind, and New Chat forgets the phone: create-session then carries Unknown', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(String(err)));
        page.on('console', (m) => {
            if (m.type() === 'error') {
                errors.push(m.text());
            }
        });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome to Store cont support.');
        const chips = await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-chip')].map((b) => b.textContent)`);
        expect(chips, 'a new store shows its five default questions').to.deep.equal(['Mis puntos, por favor', ...DEFAULT_QUESTIONS.slice(1).map((q) => q.question)]);
        await clickChip(page, 'Mis puntos, por favor');
        await waitForText(page, 'Please enter the phone number linked to your loyalty account.');
        await typeAndSend(page, '555-555-0100');
        await waitForText(page, 'I sent a 6-digit verification code to your phone.');
        const code = await lastCode(t.server, '+15555550100');
        await typeAndSend(page, code === '000000' ? '111111' : '000000');
        await waitForText(page, 'Error: Invalid verification code. Please try entering the code again.');
        await typeAndSend(page, code);
        await waitForText(page, 'You have 1,250 loyalty points.');
        await shot(page, 'continuity-02-points');
        expect(await page.evaluate(`sessionStorage.getItem('lc-flow:cont')`)).to.contain('555-555-0100');

        await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-link')].find((b) => b.textContent === 'New Chat').click()`);
        await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-msg').length === 1`);
        const saved = await page.evaluate(`sessionStorage.getItem('lc-flow:cont')`) as string;
        expect(saved).to.not.contain('555-555-0100');
        expect(saved).to.not.contain('1,250');
        await setAvailable(t.server, shop, true);
        agent.box.messages.length = 0;
        await typeAndSend(page, 'I want to talk to an agent');
        const asked = await agent.box.waitFor((m: any) => m.type === 'new_customer', 10000);
        expect(asked.phoneNumber).to.equal('Unknown');
        await waitForText(page, 'Connecting you with a member of our team.');
        const chat = await t.server.app.db('chat_sessions').where('session_id', asked.sessionId).first();
        expect(chat.phone_number).to.equal('Unknown');
        expect(errors, 'expected outcomes leave no red line in the console').to.deep.equal([]);
        await page.close();
        await request(agent.client, 'POST', `/api/chat/session/${asked.sessionId}/end`, {});
    });

    it('keeps a live chat across a reload, with the messages the agent wrote while the page was away', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome');
        await setAvailable(t.server, shop, true);
        agent.box.messages.length = 0;
        await clickChip(page, 'Talk to live support');
        const asked = await agent.box.waitFor((m: any) => m.type === 'new_customer', 10000);
        expect((await request(agent.client, 'POST', `/api/chat/session/${asked.sessionId}/accept`, {})).statusCode).to.equal(200);
        await request(agent.client, 'POST', `/api/chat/session/${asked.sessionId}/messages`, { message: 'Hi, Sam here. How can I help?' });
        await waitForText(page, 'Hi, Sam here. How can I help?');
        await typeAndSend(page, 'مرحبا، أين طلبي؟ (order #42)');
        await agent.box.waitFor((m: any) => m.type === 'chat_message' && m.sender === 'customer' && /order #42/.test(m.message), 10000);
        const dir = await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-user .lc-text')].pop().getAttribute('dir')`);
        expect(dir).to.equal('auto');
        const direction = await page.evaluate(`getComputedStyle([...${ROOT}.querySelectorAll('.lc-user .lc-text')].pop()).direction`);
        expect(direction, 'Arabic text runs right to left').to.equal('rtl');
        await shot(page, 'continuity-03-live-rtl');

        // The customer goes to another site; the agent writes meanwhile; the customer comes back with Back.
        await page.goto('about:blank');
        await request(agent.client, 'POST', `/api/chat/session/${asked.sessionId}/messages`, { message: 'Your order ships tomorrow.' });
        await page.goBack({ waitUntil: 'load' });
        await waitForText(page, 'Your order ships tomorrow.', 15000);
        const text = await page.evaluate(`${ROOT}.querySelector('.lc-msgs').textContent`) as string;
        expect(text).to.contain('Hi, Sam here. How can I help?');
        expect(text.split('Hi, Sam here.').length - 1, 'no message twice').to.equal(1);
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-badge').hidden`)).to.equal(false);
        await typeAndSend(page, 'Thanks!');
        await agent.box.waitFor((m: any) => m.type === 'chat_message' && m.message === 'Thanks!', 10000);
        // A reload, and a link to another page of the shop: the chat is there each time, each message once.
        await page.reload({ waitUntil: 'load' });
        await waitForText(page, 'Thanks!', 15000);
        await page.evaluate(`(() => { const a = document.createElement('a'); a.href = '/cart'; document.body.append(a); a.click(); })()`);
        await page.waitForFunction(() => location.pathname === '/cart');
        await waitForText(page, 'Thanks!', 15000);
        const after = await page.evaluate(`${ROOT}.querySelector('.lc-msgs').textContent`) as string;
        expect(after.split('Your order ships tomorrow.').length - 1, 'no message twice').to.equal(1);
        await shot(page, 'continuity-04-after-reload');
        await request(agent.client, 'POST', `/api/chat/session/${asked.sessionId}/end`, {});
        await waitForText(page, 'The live chat has ended.');
        await page.close();
    });

    it('on a landing page (from another site, typed) reads the saved conversation only when the launcher is touched', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome');
        await clickChip(page, 'What are your store hours?');
        await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-msg').length >= 3`);
        const before = await page.evaluate(`${ROOT}.querySelector('.lc-msgs').textContent`) as string;
        // Another site, then the shop's address again: a navigation with no referrer from the shop.
        await page.goto('about:blank');
        const apiRequests = recordApiRequests(page, t.url);
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'networkidle0' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        expect(apiRequests, 'the launcher alone: the panel is not brought back by itself').to.deep.equal(['/widget-cont.js']);
        expect(await page.evaluate(`!!${ROOT}.querySelector('.lc-panel')`)).to.equal(false);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await page.waitForFunction(`${ROOT}.querySelector('.lc-msgs')?.textContent === ${JSON.stringify(before)}`, { timeout: 10000 });
        await page.close();
    });

    it('shows a counter instead of cutting a long paste, and fits a 390 px phone with 16 px input', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome');
        const rect = await page.evaluate(`(() => { const r = ${ROOT}.querySelector('.lc-panel').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`);
        expect(rect).to.deep.equal([0, 0, 390, 844]);
        expect(await page.evaluate(`getComputedStyle(${ROOT}.querySelector('.lc-input')).fontSize`)).to.equal('16px');
        await page.evaluate(`(() => { const i = ${ROOT}.querySelector('.lc-input'); const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
            set.call(i, 'x'.repeat(10000)); i.dispatchEvent(new Event('input', { bubbles: true })); })()`);
        await page.waitForFunction(`!!${ROOT}.querySelector('.lc-count')`);
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-count').textContent`)).to.equal('10,000 / 2,000 characters: please shorten your message by 8,000.');
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-input').value.length`)).to.equal(10000);
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-send').disabled`)).to.equal(true);
        await shot(page, 'continuity-05-390px-long-paste');
        // Esc closes and gives the focus back to the launcher.
        await page.evaluate(`${ROOT}.querySelector('.lc-input').focus()`);
        await page.keyboard.press('Escape');
        await page.waitForFunction(`${ROOT}.querySelector('.lc-panel').hidden`);
        expect(await page.evaluate(`${ROOT}.activeElement?.className`)).to.equal('lc-launcher');
        await page.close();
    });

    it('asks the AI agent (the store has it on): answer with sources and feedback, and verify_phone runs the code steps then asks again', async () => {
        await t.server.app.services.ai.createKnowledge(shop.organization.id, { title: 'Shipping', content: 'We ship to Canada and the United States within 5 business days.' });
        const page = await browser.newPage();
        await page.setViewport({ width: 1200, height: 800 });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome');
        await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-link')].find((b) => b.textContent === 'New Chat').click()`);
        await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-msg').length === 1`);
        await typeAndSend(page, 'Do you ship to Canada?');
        await waitForText(page, 'Sources: Shipping');
        await clickChip(page, 'Yes, thanks');
        await waitForText(page, 'What else can I help you with?');
        // The panel answers at once; the feedback reaches the server a moment later.
        const resolved = async () => !!(await t.server.app.db('ai_chat_history').where('organization_id', shop.organization.id).orderBy('id', 'desc').first()).is_resolved;
        for (let i = 0; i < 50 && !await resolved(); i++) {
            await new Promise((r) => setTimeout(r, 100));
        }
        expect(await resolved(), 'the feedback reached the server').to.equal(true);
        await shot(page, 'continuity-06-ai-answer');

        // A question the AI answers only for a verified phone: the code steps, then the question asked again.
        await typeAndSend(page, 'What did I order last?');
        await waitForText(page, 'Please enter the phone number linked to your loyalty account.');
        await typeAndSend(page, '555-555-0100');
        await waitForText(page, 'I sent a 6-digit verification code to your phone.');
        await typeAndSend(page, await lastCode(t.server, '+15555550100'));
        await waitForText(page, 'You have 1,250 loyalty points.');
        await waitForText(page, "I couldn't find any orders for your account yet.");
        await page.close();
    });

    it('offers to leave a message when no agent is available: it reaches the store\'s mail and the console\'s Messages inbox', async () => {
        const auth = { authorization: `Bearer ${shop.admin.token}` };
        const saved = await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: auth, payload: { emailNotificationsEnabled: false, emailRecipient: 'desk@cont.test' } });
        expect(saved.statusCode).to.equal(200);
        await setAvailable(t.server, shop, false);
        const page = await browser.newPage();
        try {
            await page.setViewport({ width: 390, height: 844 });
            await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
            await openWidget(page);
            await waitForText(page, 'Hi! Welcome');
            await clickChip(page, 'Talk to live support');
            await page.waitForFunction(`!!${ROOT}.querySelector('form.lc-offline')`, { timeout: 10000 });
            const email = await page.evaluateHandle(`${ROOT}.querySelector('form.lc-offline input[type=email]')`);
            await (email as any).type('jo@example.test');
            expect(await page.evaluate(`${ROOT}.querySelector('form.lc-offline textarea').value`), 'the question\'s label is not the message').to.equal('');
            const text = await page.evaluateHandle(`${ROOT}.querySelector('form.lc-offline textarea')`);
            await (text as any).type('Is my order #77 ready for pickup?');
            await shot(page, 'continuity-07-offline-form-390px');
            await page.evaluate(`${ROOT}.querySelector('form.lc-offline button[type=submit]').click()`);
            await waitForText(page, 'Thanks! Your message was sent to the store, which will answer by email.');
            const mails = await t.server.app.services.mail.list({ to: 'desk@cont.test' });
            const mail = mails.find((m) => m.body.includes('Is my order #77 ready for pickup?'));
            expect(mail, 'the store got the message by mail').to.not.equal(undefined);
            expect(mail!.body).to.include('jo@example.test');
            // A left message is a conversation in the console's Messages inbox (issue 23), with the page it came from.
            const inbox = await t.server.inject({ method: 'GET', url: '/api/chat/left-messages', headers: auth });
            expect(inbox.statusCode).to.equal(200);
            const sessionId = JSON.parse(await page.evaluate(() => sessionStorage.getItem('lc-flow:cont') ?? '{}')).sessionId as string;
            const left = (inbox.result as any).messages.filter((m: any) => m.firstMessage === 'Is my order #77 ready for pickup?');
            expect(left, 'the Messages inbox has it').to.have.length(1);
            expect(left[0].sessionId).to.match(new RegExp(`^${sessionId}`));
            expect(left[0]).to.include({ customerEmail: 'jo@example.test', unreadCount: 1, pageUrl: `http://localhost:${merchant.port}/` });
        }
        finally {
            await page.close();
        }
    });

    it('stays away from a page whose host is not a registered domain of the store, with one console warning', async () => {
        const other = await startMerchantSite(`${t.url}/widget-away.js`);
        const page = await browser.newPage();
        try {
            const warnings: string[] = [];
            page.on('console', (m) => {
                if (m.type() === 'warn' || m.type() === 'error') {
                    warnings.push(`${m.type()}: ${m.text()}`);
                }
            });
            await page.goto(`http://localhost:${other.port}/`, { waitUntil: 'networkidle0' });
            await new Promise((r) => setTimeout(r, 500));
            expect(await page.evaluate(`!!document.querySelector('[data-loyalty-chat]')`)).to.equal(false);
            expect(warnings).to.deep.equal([`warn: loyalty-chat: this page (localhost) is not a registered domain of Store away; the chat widget is not shown.`]);
            void elsewhere;
        }
        finally {
            await page.close();
            await other.close();
        }
    });
});
