import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { startTestServer, TestServer } from '../helpers/server';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';
import { seedDemo } from '../../bin/commands/seed';
import { signUserToken } from '../../core/auth/tokens';
import { DEMO_USERS } from '../../plugins/auth/demo-data';
import { openWidget, typeAndSend, waitForText, WIDGET_ROOT } from '../helpers/widget-page';
import { agentSends } from '../helpers/live-chat-page';

/** The header's Available switch (Blueprint puts the test id on its input, or its label). */
const SWITCH = `(() => { const el = document.querySelector('[data-testid="availability"]'); return el && (el.tagName === 'INPUT' ? el : el.querySelector('input')); })()`;

interface StaffPage { page: Page; id: number; name: string; errors: string[] }

/** An agent in a browser context of their own (their own localStorage), on a staff page, switched to Available. */
async function agentOn(context: BrowserContext, t: TestServer, user: { id: number; tokenVersion: number }, organizationId: number, name: string, path: string): Promise<StaffPage> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.setViewport({ width: 1280, height: 860 });
    const token = signUserToken(t.server.app.config.jwtSecret, { id: user.id, role: 'admin', organizationId, tokenVersion: user.tokenVersion });
    await storeAdminToken(page, t.url, token);
    await page.goto(`${t.url}${path}`, { waitUntil: 'networkidle2' });
    await page.waitForFunction(`!!${SWITCH} && !${SWITCH}.disabled`, { timeout: 15000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 }).catch(() => undefined);
    await page.evaluate(`${SWITCH}.checked || ${SWITCH}.click()`);      // Available already (another tab of theirs): kept
    await page.waitForFunction(`${SWITCH}.checked === true`, { timeout: 10000 });
    return { page, id: user.id, name, errors };
}

/** A customer on the demo storefront in a context of their own, every WebSocket frame their page receives kept. */
async function customerOn(context: BrowserContext, t: TestServer): Promise<{ page: Page; frames: string[]; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.setViewport({ width: 390, height: 800 });
    const frames: string[] = [];
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketFrameReceived', (e: { response: { payloadData: string } }) => frames.push(e.response.payloadData));
    await page.goto(`http://localhost:${new URL(t.url).port}/`, { waitUntil: 'load' });
    await openWidget(page);
    await waitForText(page, 'Welcome to Demo Store', 15000);
    return { page, frames, errors };
}

async function widgetText(page: Page): Promise<string> {
    return page.evaluate(`${WIDGET_ROOT}.querySelector('.lc-msgs').textContent`) as Promise<string>;
}

/**
 * Issue 26 as the team lives it: two agents of capacity 1 working on other staff pages, two customers asking for a
 * human; each agent is offered one chat and accepts it from the alert (nobody touches the queue's Accept Chat). Sam
 * hands his chat to Alex with a note; the customer reads "You're now chatting with Alex."; Alex writes an internal
 * note, which never reaches the customer's page (not a WebSocket frame, not a word on screen).
 */
describe('routing, hand-over and internal notes in the browser (issue 26)', function () {
    this.timeout(180000);
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

    it('gives two agents of capacity 1 one chat each from the alert, hands one over with a note the customer never sees', async () => {
        const { organizationId } = await seedDemo(t.server);
        const sam = (await t.server.app.services.users.findRecordByEmail(DEMO_USERS[1].email))!;
        const alexUser = await t.server.app.services.users.create({ email: 'alex@demo.local', password: 'correct-horse-battery', role: 'admin', organizationId, name: 'Alex Chen' });
        const alex = (await t.server.app.services.users.findRecordById(alexUser.id))!;
        const routing = t.server.app.services.livechatRouting;
        await routing.setCapacity(organizationId, sam.id, 1);
        await routing.setCapacity(organizationId, alex.id, 1);

        const samPage = await agentOn(await browser.createBrowserContext(), t, sam, organizationId, 'Sam', '/analytics');
        const alexPage = await agentOn(await browser.createBrowserContext(), t, alex, organizationId, 'Alex', '/admin-questions');

        // The admin turns auto-assign on on the team page (Sam's tab, then back to what he was doing).
        await samPage.page.goto(`${t.url}/admin-chat/team`, { waitUntil: 'networkidle2' });
        await samPage.page.waitForSelector('[data-testid="team"] table');
        await samPage.page.evaluate(() => (document.querySelector('[data-testid="auto-assign"] input, input[data-testid="auto-assign"]') as HTMLInputElement).click());
        await samPage.page.waitForFunction(() => (document.querySelector('[data-testid="auto-assign"] input, input[data-testid="auto-assign"]') as HTMLInputElement)?.checked === true);
        expect((await routing.settings(organizationId)).autoAssign).to.equal(true);
        await screenshot(samPage.page, 'routing-team-1280');
        await samPage.page.setViewport({ width: 390, height: 800 });
        await screenshot(samPage.page, 'routing-team-390');
        await samPage.page.setViewport({ width: 1280, height: 860 });
        await samPage.page.goto(`${t.url}/analytics`, { waitUntil: 'networkidle2' });
        await samPage.page.waitForFunction(`!!${SWITCH} && ${SWITCH}.checked === true`, { timeout: 10000 });

        // Two customers ask for a human, one after the other.
        const first = await customerOn(await browser.createBrowserContext(), t);
        await typeAndSend(first.page, 'I want to talk to a human about a refund');
        await waitForText(first.page, 'Connecting you with a member of our team.');
        const second = await customerOn(await browser.createBrowserContext(), t);
        await typeAndSend(second.page, 'I need a human for my delivery');
        await waitForText(second.page, 'Connecting you with a member of our team.');

        // Each agent, on whatever page, gets one offer and accepts it from the alert.
        for (const agent of [samPage, alexPage]) {
            await agent.page.waitForSelector('[data-testid="offer-accept"]', { timeout: 15000 });
        }
        await screenshot(alexPage.page, 'routing-offer-alert-1280');
        for (const agent of [samPage, alexPage]) {
            await agent.page.click('[data-testid="offer-accept"]');
            await agent.page.waitForFunction(() => location.pathname === '/admin-chat' && !!document.querySelector('[data-testid="conversation"]'), { timeout: 15000 });
            // The conversation's head draws before its messages load (seen in CI under load).
            await agent.page.waitForFunction(() => /refund|delivery/.test(document.querySelector('[data-testid="conversation"]')?.textContent ?? ''), { timeout: 15000 });
        }
        const samHas = await samPage.page.$eval('[data-testid="conversation"]', (el) => el.textContent ?? '');
        const alexHas = await alexPage.page.$eval('[data-testid="conversation"]', (el) => el.textContent ?? '');
        const samTookRefund = samHas.includes('refund');
        expect(samTookRefund ? alexHas : samHas, 'one chat each').to.include('delivery');
        expect(samTookRefund ? samHas : alexHas).to.include('refund');
        const samsCustomer = samTookRefund ? first : second;
        await waitForText(samsCustomer.page, 'Sam has joined the chat.');
        await waitForText(samTookRefund ? second.page : first.page, 'Alex has joined the chat.');
        const events = await routing.events(organizationId, { from: 0, to: Date.now() + 1000 });
        expect(events.filter((e) => e.type === 'assigned').map((e) => e.how), 'both from their offer, none from the queue').to.deep.equal(['offer', 'offer']);

        // Sam's chat needs Alex: Alex is at capacity, but a hand-over is a person's decision.
        await agentSends(samPage.page, 'Let me get my colleague who handles refunds.');
        await waitForText(samsCustomer.page, 'Let me get my colleague who handles refunds.');
        await samPage.page.click('[data-testid="transfer-open"]');
        await samPage.page.waitForSelector(`[data-testid="transfer-to-${alex.id}"]`, { timeout: 10000 });
        await samPage.page.evaluate((id) => (document.querySelector(`[data-testid="transfer-to-${id}"] input, input[data-testid="transfer-to-${id}"]`) as HTMLInputElement).click(), alex.id);
        await samPage.page.type('[data-testid="transfer-note"]', 'Refund for order 1042 approved, needs the card details step');
        await samPage.page.click('[data-testid="transfer-submit"]');
        await waitForText(samsCustomer.page, "You're now chatting with Alex.");
        // Sam still sees the chat among the store's active ones, marked as Alex's now.
        await samPage.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="chat-owner"]')).some((e) => e.textContent === 'with Alex'), { timeout: 10000 });
        await screenshot(samPage.page, 'routing-console-after-transfer-sender-1280');

        // Alex is told, opens the chat from the alert, and reads the note among the messages.
        await alexPage.page.waitForFunction(() => document.querySelector('[data-testid="new-chat-banner"]')?.textContent?.includes('Chat transferred to you'), { timeout: 10000 });
        await alexPage.page.click('[data-testid="new-chat-open"]');
        await alexPage.page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Refund for order 1042 approved'), { timeout: 10000 });
        expect(await alexPage.page.$eval('[data-testid="note"][data-kind="transfer"]', (el) => el.textContent)).to.include('Transferred by Sam to Alex');

        // Alex writes an internal note, then answers the customer.
        await alexPage.page.click('[data-testid="mode-note"]');
        await alexPage.page.type('[data-testid="note-input"]', 'VIP-NOTE: long-time customer, offer free shipping');
        await alexPage.page.keyboard.press('Enter');
        await alexPage.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="note"]')).some((n) => n.textContent?.includes('VIP-NOTE')), { timeout: 10000 });
        await alexPage.page.click('[data-testid="mode-reply"]');
        await agentSends(alexPage.page, 'Hi, Alex here: your refund is on its way.');
        await waitForText(samsCustomer.page, 'Hi, Alex here: your refund is on its way.');
        await screenshot(alexPage.page, 'routing-console-note-transfer-1280');
        await alexPage.page.setViewport({ width: 390, height: 800 });
        await alexPage.page.waitForFunction(() => !!document.querySelector('[data-testid="note"]')?.getBoundingClientRect().width);
        await screenshot(alexPage.page, 'routing-console-note-transfer-390');
        await screenshot(samsCustomer.page, 'routing-customer-after-transfer-390');

        // The customer's page: never a note, not on screen, not in a WebSocket frame it received.
        const seen = await widgetText(samsCustomer.page);
        expect(seen).to.include("You're now chatting with Alex.");
        for (const secret of ['VIP-NOTE', 'Refund for order 1042', 'card details']) {
            expect(seen, 'on screen').not.to.include(secret);
            expect(samsCustomer.frames.join('\n'), 'in a frame').not.to.include(secret);
        }
        expect(samsCustomer.frames.some((f) => f.includes('Hi, Alex here')), 'the frames were recorded').to.equal(true);
        expect(samsCustomer.frames.some((f) => f.includes('chat_note'))).to.equal(false);
        // The chat ends; History keeps the notes among the messages, for staff.
        const chatId = (await t.server.app.services.livechat.listSessions(organizationId, { status: 'active', includeArchived: true }))
            .find((c) => c.firstMessage?.includes('refund'))!.sessionId;
        await t.server.app.services.livechat.end(organizationId, chatId, 'agent');
        await waitForText(samsCustomer.page, 'The live chat has ended.');
        await alexPage.page.setViewport({ width: 1280, height: 860 });
        await alexPage.page.goto(`${t.url}/admin-chat/history?session=${encodeURIComponent(chatId)}`, { waitUntil: 'networkidle2' });
        await alexPage.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="transcript"] [data-testid="note"]')).some((n) => n.textContent?.includes('VIP-NOTE')), { timeout: 10000 });
        await screenshot(alexPage.page, 'routing-history-notes-1280');
        expect(seen).not.to.include('VIP-NOTE');
        for (const p of [samPage, alexPage]) {
            expect(p.errors, `${p.name}'s page errors`).to.deep.equal([]);
        }
        expect(first.errors.concat(second.errors)).to.deep.equal([]);
    });

    it('rings an agent who reloads the page while a chat is offered to them, and the Accept still works', async () => {
        const sam = (await t.server.app.services.users.findRecordByEmail(DEMO_USERS[1].email))!;
        const organizationId = sam.organizationId!;
        const alex = (await t.server.app.services.users.findRecordByEmail('alex@demo.local'))!;
        for (const s of await t.server.app.services.livechat.listSessions(organizationId, { status: 'active', includeArchived: true })) {
            await t.server.app.services.livechat.end(organizationId, s.sessionId, 'agent');
        }
        await t.server.app.services.presence.setAvailability(alex.id, organizationId, false);
        const samPage = await agentOn(await browser.createBrowserContext(), t, sam, organizationId, 'Sam', '/admin-dashboard');

        const customer = await customerOn(await browser.createBrowserContext(), t);
        await typeAndSend(customer.page, 'I want to talk to a human about my order');
        await waitForText(customer.page, 'Connecting you with a member of our team.');
        await samPage.page.waitForSelector('[data-testid="offer-accept"]', { timeout: 15000 });
        // The agent reloads (or the laptop wakes up) before answering: the offer is still theirs, and the page says so.
        await samPage.page.reload({ waitUntil: 'networkidle2' });
        await samPage.page.waitForSelector('[data-testid="offer-accept"]', { timeout: 15000 });
        await samPage.page.click('[data-testid="offer-accept"]');
        await samPage.page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('about my order'), { timeout: 15000 });
        await waitForText(customer.page, 'Sam has joined the chat.');
        expect(samPage.errors).to.deep.equal([]);
    });
});
