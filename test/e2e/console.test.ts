import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { sleep, until } from '../helpers/wait';
import { startTestServer, createTenant, TestServer, Tenant } from '../helpers/server';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';
import { createLiveChat } from '../../widget/src/live-chat';
import { agentSends } from '../helpers/live-chat-page';

/** With SCREENSHOTS=1: the viewport (or the full page) under console/. */
const shot = (page: Page, name: string, fullPage = false) => screenshot(page, `console/${name}`, { fullPage });

/** A customer: the widget's live chat client (widget/src/live-chat.ts) with the real nes client, in Node. */
function customer(url: string, tenant: Tenant, sessionId: string) {
    const incoming: Array<{ sender: string; message: string }> = [];
    let ended: string | null = null;
    let agentTyping = 0;
    const chat = createLiveChat({
        apiOrigin: url,
        widgetKey: tenant.bot.publicKey,
        sessionId,
        onMessage: (m) => incoming.push(m),
        onTyping: () => {
            agentTyping += 1;
        },
        onEnded: (reason) => {
            ended = reason;
        },
        WebSocket: require('ws'),
        reconnectDelay: { min: 100, max: 1000 }
    });
    return { chat, incoming, ended: () => ended, agentTyping: () => agentTyping };
}

const replyValue = (page: Page) => page.$eval('[data-testid="agent-input"]', (el) => (el as HTMLTextAreaElement).value);
const conversationText = (page: Page) => page.$eval('[data-testid="conversation"]', (el) => el.textContent ?? '');
const focusedChat = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.chatButton ?? null);
const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the agent console in a browser (issue 14)', function () {
    this.timeout(120000);
    let browser: Browser;
    let t: TestServer;
    let tenant: Tenant;
    let page: Page;
    const ann = () => customers.ann;
    const customers: Record<string, ReturnType<typeof customer>> = {};

    before(async () => {
        browser = await launchBrowser();
        t = await startTestServer({ listen: true });
        tenant = await createTenant(t.server, 'e2econsole', 'localhost');
        await t.server.app.services.loyalty.seedDemoCustomers(tenant.organization.id, [
            { phone: '+15555550101', name: 'Ann Archer', email: 'ann@example.com', loyaltyId: 'LC-101', points: 1250,
                orders: [{ productName: 'Trail Running Shoes', quantity: 1, price: 129.99, daysAgo: 3 }] }
        ]);
        await t.server.app.services.questions.create(tenant.organization.id, { question: 'What is your return policy?', answer: 'Returns are free within 30 days.', isActive: true });
        page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 860 });
        await storeAdminToken(page, t.url, tenant.admin.token);
        await page.goto(`${t.url}/admin-chat`, { waitUntil: 'networkidle2' });
        await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
        await page.evaluate(() => {
            const el = document.querySelector('[data-testid="availability"]') as HTMLElement;
            ((el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement).click();
        });
        await page.waitForFunction(() => document.body.innerText.includes('Available') && !document.body.innerText.includes('Unavailable'));
    });
    after(async () => {
        for (const c of Object.values(customers)) {
            await c.chat.end().catch(() => {});
        }
        await browser?.close();
        await t?.close();
    });

    /** A customer asks for a human; the agent accepts from the waiting list (the banner is dismissed with Esc). */
    async function arrive(name: string, phone: string, text: string): Promise<void> {
        customers[name] = customer(t.url, tenant, `console_${name}`);
        await customers[name].chat.start({ phoneNumber: phone, customerMessage: text });
        await page.waitForFunction((x) => document.querySelector('[data-testid="waiting-list"]')?.textContent?.includes(x), { timeout: 10000 }, text);
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });
        const [button] = await page.$$(`xpath/.//*[@data-testid="waiting-list"]/*[contains(., "${text}")]//button[contains(., "Accept Chat")]`);
        await button.click();
        await page.waitForFunction((x) => document.querySelector('[data-testid="conversation"]')?.textContent?.includes(x), { timeout: 10000 }, text);
    }

    it('handles two chats at once: j/k and Enter switch between them, each keeps its own draft, r goes back to the reply', async () => {
        await arrive('ann', '+15555550101', 'Hello from Ann about trail shoes');
        await arrive('bob', '+15555550102', 'Bob asks about returns');

        // Bob's chat is open (just accepted): a draft, then Esc leaves the reply box for Bob's entry in the list.
        await page.focus('[data-testid="agent-input"]');
        await page.keyboard.type('draft for Bob');
        await page.keyboard.press('Escape');
        expect(await focusedChat(page)).to.equal('console_bob');
        // Newest first: Bob, then Ann.
        expect(await page.$$eval('[data-testid="active-list"] [data-chat-button]', (els) => els.map((e) => (e as HTMLElement).dataset.chatButton)))
            .to.deep.equal(['console_bob', 'console_ann']);
        await page.keyboard.press('j');
        expect(await focusedChat(page), 'j moves down to Ann').to.equal('console_ann');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Chat with (555) 555-0101'));
        expect(await conversationText(page)).to.contain('Hello from Ann about trail shoes').and.not.contain('Bob asks about returns');
        expect(await replyValue(page), 'Bob\'s draft does not follow the agent into Ann\'s chat').to.equal('');
        await page.keyboard.press('r');
        // r moves the focus to the reply box on the next frame: type only once it is there.
        await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'agent-input');
        await page.keyboard.type('draft for Ann');
        await page.keyboard.press('Escape');
        await page.keyboard.press('ArrowUp');
        expect(await focusedChat(page), 'the arrow keys move too').to.equal('console_bob');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Chat with (555) 555-0102'));
        expect(await replyValue(page), 'Bob\'s draft is still there').to.equal('draft for Bob');
        await page.keyboard.press('r');
        // r moves the focus to the reply box on the next frame: type only once it is there.
        await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'agent-input');
        await page.keyboard.type(', sent');
        await page.keyboard.press('Enter');
        await until(() => customers.bob.incoming.some((m) => m.message === 'draft for Bob, sent'), 10000, 'Bob got his reply');
        await sleep(300);
        expect(ann().incoming.map((m) => m.message), 'nothing of Bob\'s reached Ann').to.not.include('draft for Bob, sent');
        expect(await replyValue(page)).to.equal('');

        // Back to Ann with j/k: her draft is kept; the customer panel shows her loyalty data.
        await page.keyboard.press('Escape');
        await page.keyboard.press('k');
        expect(await focusedChat(page), 'k at the top stays there').to.equal('console_bob');
        await page.keyboard.press('j');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Chat with (555) 555-0101'));
        expect(await replyValue(page)).to.equal('draft for Ann');
        await page.waitForFunction(() => document.querySelector('[data-testid="customer-points"]')?.textContent === '1,250', { timeout: 10000 });
        expect(await page.$eval('[data-testid="customer-panel"]', (el) => el.textContent)).to.contain('Ann Archer').and.contain('Trail Running Shoes');
        await shot(page, 'console-two-chats-desktop');
    });

    it('counts the customer messages of a chat that is not open as unread, and clears them when it is opened', async () => {
        customers.bob.chat.send('Are you still there?');
        await page.waitForFunction(() => document.querySelector('[data-session="console_bob"] [data-testid="unread-count"]')?.textContent === '1', { timeout: 10000 });
        expect(await page.$eval('[data-session="console_bob"] [data-testid="chat-preview"]', (el) => el.textContent)).to.equal('Are you still there?');
        await shot(page, 'console-unread');
        await page.click('[data-chat-button="console_bob"]');
        await page.waitForFunction(() => !document.querySelector('[data-session="console_bob"] [data-testid="unread-count"]'), { timeout: 10000 });
        const row = await t.server.app.db('chat_sessions').where({ session_id: 'console_bob' }).first();
        expect(row.agent_read_seq, 'read up to the newest message, on the server').to.equal(row.last_seq);
        await page.click('[data-chat-button="console_ann"]');
        await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Chat with (555) 555-0101'));
    });

    it('keeps the keystrokes in the reply box when a new request arrives mid-sentence (the banner is not modal)', async () => {
        await page.focus('[data-testid="agent-input"]');
        await page.keyboard.press('End');
        await page.keyboard.type(' typing while');
        customers.cara = customer(t.url, tenant, 'console_cara');
        await customers.cara.chat.start({ phoneNumber: '+15555550103', customerMessage: 'Cara needs help' });
        await page.waitForSelector('[data-testid="new-chat-banner"]', { timeout: 10000 });
        await page.keyboard.type(' a new customer arrives');
        expect(await replyValue(page)).to.equal('draft for Ann typing while a new customer arrives');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'focus stayed in the reply box').to.equal('agent-input');
        const banner = await page.$eval('[data-testid="new-chat-banner"]', (el) => {
            const r = el.getBoundingClientRect();
            const reply = document.querySelector('[data-testid="agent-input"]')!.getBoundingClientRect();
            return { overlapsReply: r.bottom > reply.top && r.top < reply.bottom, role: el.getAttribute('role') };
        });
        expect(banner).to.deep.equal({ overlapsReply: false, role: 'status' });
        await shot(page, 'console-banner-while-typing');
        await page.keyboard.press('Enter');
        await until(() => ann().incoming.some((m) => m.message === 'draft for Ann typing while a new customer arrives'), 10000, 'Ann got the whole sentence');
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });
    });

    it('calms the banner for prefers-reduced-motion', async () => {
        await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
        customers.dan = customer(t.url, tenant, 'console_dan');
        await customers.dan.chat.start({ phoneNumber: '+15555550104', customerMessage: 'Dan is here' });
        await page.waitForSelector('[data-testid="new-chat-banner"]', { timeout: 10000 });
        expect(await page.$eval('[data-testid="new-chat-banner"]', (el) => getComputedStyle(el).animationName)).to.equal('none');
        await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'no-preference' }]);
        expect(await page.$eval('[data-testid="new-chat-banner"]', (el) => getComputedStyle(el).animationName)).to.equal('lc-flash');
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });
    });

    it('inserts a canned reply with / in the reply box', async () => {
        await page.focus('[data-testid="agent-input"]');
        await page.keyboard.type('/return');
        await page.waitForSelector('[data-testid="canned-replies"]');
        await page.waitForFunction(() => document.querySelector('[data-testid="canned-replies"]')?.textContent?.includes('What is your return policy?'), { timeout: 10000 });
        await shot(page, 'console-canned-replies');
        await page.keyboard.press('Enter');
        expect(await replyValue(page)).to.equal('Returns are free within 30 days.');
        await page.waitForSelector('[data-testid="canned-replies"]', { hidden: true });
        await page.keyboard.press('Enter');
        await until(() => ann().incoming.some((m) => m.message === 'Returns are free within 30 days.'), 10000, 'the canned reply reached Ann');
    });

    it('shows the customer typing, and tells the customer when the agent types (issue 11)', async () => {
        expect(await page.$eval('[data-testid="customer-typing"]', (el) => el.textContent)).to.equal('');
        ann().chat.typing();
        await page.waitForFunction(() => document.querySelector('[data-testid="customer-typing"]')?.textContent?.includes('is typing…'), { timeout: 10000 });
        // The signal fades after a few seconds without another.
        await page.waitForFunction(() => document.querySelector('[data-testid="customer-typing"]')?.textContent === '', { timeout: 10000 });
        const before = ann().agentTyping();
        await page.focus('[data-testid="agent-input"]');
        await page.keyboard.type('Let me check');
        await until(() => ann().agentTyping() > before, 10000, 'Ann saw the agent typing');
        await page.keyboard.down('Control');
        await page.keyboard.press('a');
        await page.keyboard.up('Control');
        await page.keyboard.press('Backspace');
        expect(await replyValue(page)).to.equal('');
    });

    it('ends an active chat that is archived, and the customer is told', async () => {
        await page.click('[data-session="console_ann"] button[aria-label^="Archive"]');
        await page.waitForSelector('.bp5-alert');
        await shot(page, 'console-archive-confirm');
        await page.click('xpath/.//button[contains(., "End and archive")]');
        await until(() => ann().ended() !== null, 10000, 'Ann sees the chat end');
        expect(ann().ended()).to.equal('archived');
        await page.waitForFunction(() => !document.querySelector('[data-session="console_ann"]'), { timeout: 10000 });
        const row = await t.server.app.db('chat_sessions').where({ session_id: 'console_ann' }).first();
        expect(row.status).to.equal('completed');
        expect(!!row.is_archived).to.equal(true);
    });

    it('finds the ended chat in History by a word in it and opens its transcript', async () => {
        await page.click('xpath/.//a[contains(., "History")]');
        await page.waitForSelector('[data-testid="history-search"]');
        await page.type('[data-testid="history-search"]', 'zebra');
        await page.waitForFunction(() => document.body.innerText.includes('No chats match'), { timeout: 10000 });
        await page.click('[data-testid="history-search"]', { count: 3 });
        await page.type('[data-testid="history-search"]', 'TRAIL');
        await page.waitForFunction(() => {
            const list = document.querySelector('[data-testid="history-list"]');
            return list?.children.length === 1 && list.textContent?.includes('(555) 555-0101') && list.textContent.includes('…Hello from Ann about trail shoes');
        }, { timeout: 10000 });
        await page.click('[data-chat-button="console_ann"]');
        await page.waitForFunction(() => document.querySelector('[data-testid="transcript"]')?.textContent?.includes('Returns are free within 30 days.'), { timeout: 10000 });
        expect(await page.$eval('[data-testid="transcript"]', (el) => el.textContent)).to.contain('Hello from Ann about trail shoes').and.contain('archived');
        expect(await page.$$eval('.lc-msg.is-match', (els) => els.map((e) => e.textContent ?? '')), 'the matching message is marked')
            .to.have.length(1).and.satisfy((texts: string[]) => texts[0].startsWith('Hello from Ann about trail shoes'));
        await shot(page, 'console-history-desktop');
    });

    it('works at 390×844 without horizontal scrolling: list, conversation and customer as panes', async () => {
        await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
        await page.goto(`${t.url}/admin-chat`, { waitUntil: 'networkidle2' });
        await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
        await page.waitForSelector('[data-chat-button="console_bob"]');
        expect(await horizontalOverflow(page), 'the list pane').to.equal(0);
        await shot(page, 'console-390-list');
        await page.click('[data-chat-button="console_bob"]');
        await page.waitForSelector('[data-testid="agent-input"]', { visible: true });
        expect(await horizontalOverflow(page), 'the conversation pane').to.equal(0);
        const replyWidth = await page.$eval('[data-testid="agent-input"]', (el) => el.getBoundingClientRect().width);
        expect(replyWidth, 'a usable reply box').to.be.above(250);
        expect(await page.$('[data-testid="waiting-list"]').then((el) => el!.boundingBox()), 'the list is hidden behind the conversation').to.equal(null);
        await agentSends(page, 'Replying from a phone');
        await until(() => customers.bob.incoming.some((m) => m.message === 'Replying from a phone'), 10000, 'the phone reply reached Bob');
        await shot(page, 'console-390-conversation');
        await page.click('xpath/.//button[contains(., "Customer")]');
        await page.waitForSelector('[data-testid="customer-panel"]', { visible: true });
        expect(await horizontalOverflow(page), 'the customer pane').to.equal(0);
        await shot(page, 'console-390-customer');
        await page.click('[data-testid="menu-button"]');
        await page.waitForSelector('#lc-shell-menu-panel');
        expect(await page.$eval('#lc-shell-menu-panel', (el) => el.textContent)).to.contain('Dashboard').and.contain('Questions').and.contain('Test');
        await shot(page, 'console-390-menu');
        await page.click('[data-testid="menu-button"]');
        await page.goto(`${t.url}/admin-chat/history`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('[data-testid="history-list"] li');
        expect(await horizontalOverflow(page), 'the history list').to.equal(0);
        await shot(page, 'console-390-history');
        await page.setViewport({ width: 1280, height: 860 });
    });
});
