import { expect } from 'chai';
import { sleep, until } from '../helpers/wait';
import type { Browser, Page } from 'puppeteer-core';
import { startTestServer, createTenant, TestServer, Tenant, usingPostgres, usingRedis } from '../helpers/server';
import { launchBrowser, openSettingsDrawer, screenshot, SCREENSHOTS, storeAdminToken } from '../helpers/browser';
import { createLiveChat, AGENT_JOINED_TEXT } from '../../widget/src/live-chat';
import { agentSends } from '../helpers/live-chat-page';

/** The customer: the widget's live chat client (widget/src/live-chat.ts) with the real nes client, in Node. */
function customer(url: string, tenant: Tenant, sessionId: string) {
    const incoming: Array<{ sender: string; message: string; timestamp: string }> = [];
    const log: Array<{ who: string; text: string }> = [{ who: 'You', text: 'I need a human please' }];
    let ended: string | null = null;
    const chat = createLiveChat({
        apiOrigin: url,
        widgetKey: tenant.bot.publicKey,
        sessionId,
        onMessage: (m) => {
            incoming.push(m);
            log.push({ who: m.sender === 'agent' ? 'Agent' : 'System', text: m.message });
        },
        onEnded: (reason) => {
            ended = reason;
        },
        WebSocket: require('ws'),
        reconnectDelay: { min: 100, max: 1000 }
    });
    return {
        chat,
        incoming,
        ended: () => ended,
        send(text: string) {
            log.push({ who: 'You', text });
            chat.send(text);
        },
        /** What the customer saw, as the transcript a widget would show (for the screenshot). */
        transcript(): Array<{ who: string; text: string }> {
            return [...log];
        }
    };
}

async function showCustomerSide(browser: Browser, name: string, lines: Array<{ who: string; text: string }>, badge: string): Promise<void> {
    const page = await browser.newPage();
    await page.setViewport({ width: 420, height: 640 });
    await page.setContent('<html><body style="font-family:sans-serif;margin:0"><div id="root"></div></body></html>');
    await page.evaluate((items, badgeText) => {
        const root = document.getElementById('root')!;
        const head = document.createElement('div');
        head.style.cssText = 'padding:12px;background:#2d72d2;color:#fff;font-weight:600';
        head.textContent = 'Customer side (live chat client transcript) ';
        const tag = document.createElement('span');
        tag.style.cssText = 'background:#238551;border-radius:8px;padding:2px 8px;font-size:12px';
        tag.textContent = badgeText;
        head.appendChild(tag);
        root.appendChild(head);
        for (const item of items) {
            const row = document.createElement('div');
            row.style.cssText = `margin:8px 12px;padding:8px 12px;border-radius:12px;max-width:75%;${item.who === 'You' ? 'margin-left:auto;background:#2d72d2;color:#fff' : item.who === 'System' ? 'color:#5f6b7c;font-size:12px' : 'background:#eef0f2'}`;
            row.textContent = `${item.who}: ${item.text}`;
            root.appendChild(row);
        }
    }, lines, badge);
    await screenshot(page, name);
    await page.close();
}

async function openConsole(browser: Browser, url: string, tenant: Tenant): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 860 });
    await storeAdminToken(page, url, tenant.admin.token);
    await page.goto(`${url}/admin-chat`, { waitUntil: 'networkidle2' });
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
    return page;
}

const textOf = (page: Page) => page.evaluate(() => document.body.innerText);

/**
 * The whole conversation: customer asks for a human on `customerNode`, the agent's browser is on `agentNode`.
 */
async function conversation(browser: Browser, agentNode: TestServer, customerNode: TestServer, tenant: Tenant, prefix: string): Promise<void> {
    const page = await openConsole(browser, agentNode.url, tenant);
    const cust = customer(customerNode.url, tenant, `${prefix}_session_1`);
    expect((await cust.chat.checkAvailability()).available, 'no agent is Available yet').to.equal(false);

    // Email transcript settings, in the shell's Settings drawer: enable, Save, Test (SPEC §8's messages).
    await openSettingsDrawer(page);
    // The form is enabled once the stored settings have arrived.
    await page.waitForFunction(() => {
        const label = Array.from(document.querySelectorAll('label')).find((l) => l.textContent?.includes('Email a transcript'));
        return !!label && !label.querySelector('input')?.disabled;
    }, { timeout: 10000 });
    await page.click('xpath/.//label[contains(., "Email a transcript")]');
    await page.click('xpath/.//button[contains(., "Save")]');
    await page.waitForFunction(() => document.body.innerText.includes('Settings Updated'), { timeout: 10000 });
    expect(await textOf(page)).to.contain(`Chat transcripts will be emailed to ${tenant.admin.email}`);
    await page.click('xpath/.//button[contains(., "Test")]');
    await page.waitForFunction(() => document.body.innerText.includes('Email Test'), { timeout: 10000 });
    expect(await textOf(page)).to.contain(`Test email sent to ${tenant.admin.email}`);
    // The busy Test button kept the focus (a disabled one drops it to the page, where Esc no longer reaches the drawer).
    expect(await page.evaluate(() => !!document.activeElement?.closest('.lc-settings-drawer')), 'the focus is still in the drawer').to.equal(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="settings-drawer"]', { hidden: true });

    await page.evaluate(() => {
        const el = document.querySelector('[data-testid="availability"]') as HTMLElement;
        ((el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement).click();
    });
    await page.waitForFunction(() => document.body.innerText.includes('Available') && !document.body.innerText.includes('Unavailable'));
    expect((await cust.chat.checkAvailability()).available, 'the agent switched to Available').to.equal(true);

    await cust.chat.start({ phoneNumber: '+15555550142', customerMessage: 'I need a human please' });
    await page.waitForSelector('[data-testid="new-chat-banner"]', { timeout: 10000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="waiting-list"]')?.textContent?.includes('(555) 555-0142'));
    const bannerAt = Date.now();
    expect(await textOf(page)).to.contain('New chat request!');
    await screenshot(page, `${prefix}-agent-new-request`);
    const timer = await page.$eval('[data-testid="wait-timer"]', (el) => ({ text: el.textContent, cls: el.className }));
    expect(timer.text).to.match(/^00:0\d$/);
    expect(timer.cls).to.contain('lc-timer-green');

    await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 9000 });
    const shown = Date.now() - bannerAt;
    expect(shown, 'the banner shows about 6 s').to.be.within(3000, 8000);

    const [accept] = await page.$$('xpath/.//button[contains(., "Accept Chat")]');
    await accept.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('I need a human please'));
    await until(() => cust.incoming.some((m) => m.message === AGENT_JOINED_TEXT), 10000, 'agent joined at the customer');

    await agentSends(page, 'Hi! I am Sam from the store. How can I help?');
    await until(() => cust.incoming.some((m) => m.sender === 'agent' && m.message.startsWith('Hi! I am Sam')), 10000, 'agent message at the customer');

    cust.send('My order #1234 has not arrived <b>yet</b>');
    await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('My order #1234 has not arrived <b>yet</b>'), { timeout: 10000 });
    const bold = await page.$$eval('[data-testid="conversation"] b', (els) => els.length);
    expect(bold, 'customer text is shown as text, not HTML').to.equal(0);

    await agentSends(page, 'It ships today, you will get a tracking link by SMS.');
    await until(() => cust.incoming.some((m) => m.message.startsWith('It ships today')), 10000, 'second agent message');
    await page.waitForFunction(() => document.querySelector('[data-testid="chat-stats"]')?.textContent?.startsWith('4 msgs'), { timeout: 10000 });
    await screenshot(page, `${prefix}-agent-conversation`);
    await showCustomerSide(browser, `${prefix}-customer-conversation`, cust.transcript(), 'Live Chat Active');

    const [end] = await page.$$('xpath/.//button[contains(., "End")]');
    await end.click();
    await until(() => cust.ended() !== null, 10000, 'the customer sees the end');
    expect(cust.ended()).to.equal('agent_ended');
    await page.waitForFunction(() => document.querySelector('[data-testid="active-list"]')?.children.length === 0, { timeout: 10000 });
    await screenshot(page, `${prefix}-agent-ended`);
    await showCustomerSide(browser, `${prefix}-customer-ended`, [...cust.transcript(), { who: 'System', text: `Chat ended (${cust.ended()})` }], 'Ended');

    const row = await agentNode.server.app.db('chat_sessions').where({ session_id: `${prefix}_session_1` }).first();
    expect(row.status).to.equal('completed');
    expect(row.agent_user_id).to.equal(tenant.admin.id);
    const stored = await agentNode.server.app.db('chat_messages').where({ chat_session_id: row.id }).orderBy('seq');
    expect(stored.map((m: any) => m.sender)).to.deep.equal(['customer', 'agent', 'customer', 'agent']);
    // The transcript job ran (in-process, or on Bull with two nodes) and stored the email in the outbox.
    let transcript: { body: string } | undefined;
    for (let i = 0; i < 100 && !transcript; i++) {
        transcript = (await agentNode.server.app.services.mail.list({ to: tenant.admin.email })).find((m) => m.subject.startsWith('Chat transcript'));
        await sleep(100);
    }
    expect(transcript, 'transcript email').to.not.equal(undefined);
    expect(transcript!.body).to.contain('Customer: My order #1234 has not arrived <b>yet</b>');

    // A second customer leaves on their own: the agent gets the 'Customer Disconnected' toast.
    const second = customer(customerNode.url, tenant, `${prefix}_session_2`);
    await second.chat.start({ phoneNumber: null, customerMessage: 'talk to an agent' });
    await page.waitForFunction(() => document.querySelector('[data-testid="waiting-list"]')?.textContent?.includes('Visitor '), { timeout: 10000 })
        .catch(async (err) => {
            console.log(await textOf(page), await agentNode.server.app.db('chat_sessions').select('session_id', 'status', 'phone_number'));
            throw err;
        });
    await page.click('[data-testid="new-chat-banner"]');      // a click dismisses the banner early
    await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });
    const [accept2] = await page.$$('xpath/.//button[contains(., "Accept Chat")]');
    await accept2.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="active-list"]')?.children.length === 1, { timeout: 10000 });
    await second.chat.end();
    await page.waitForFunction(() => document.body.innerText.includes('Customer Disconnected'), { timeout: 10000 });
    if (SCREENSHOTS) {
        await sleep(600);       // one toast at a time: let the previous one slide out
        await screenshot(page, `${prefix}-agent-customer-disconnected`);
    }
    await page.close();
}

describe('live chat end to end in a browser', function () {
    this.timeout(120000);
    let browser: Browser;

    before(async () => {
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
    });

    it('lets a customer ask for a human and an agent at /admin-chat accept, chat both ways and end it', async () => {
        const t = await startTestServer({ listen: true });
        try {
            const tenant = await createTenant(t.server, 'e2echat', 'localhost');
            await conversation(browser, t, t, tenant, 'livechat');
        }
        finally {
            await t.close();
        }
    });

    it('opens the chat the agent just accepted, even with another chat open, and sends the reply to that customer', async () => {
        const t = await startTestServer({ listen: true });
        try {
            const tenant = await createTenant(t.server, 'e2etwochats', 'localhost');
            const page = await openConsole(browser, t.url, tenant);
            await page.evaluate(() => {
                const el = document.querySelector('[data-testid="availability"]') as HTMLElement;
                ((el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement).click();
            });
            await page.waitForFunction(() => document.body.innerText.includes('Available') && !document.body.innerText.includes('Unavailable'));
            const acceptRow = async (text: string) => {
                await page.waitForFunction((t) => document.querySelector('[data-testid="waiting-list"]')?.textContent?.includes(t), { timeout: 10000 }, text);
                await page.click('[data-testid="new-chat-banner"]');      // the full-screen banner covers the list: dismiss it
                await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });
                const [button] = await page.$$(`xpath/.//*[@data-testid="waiting-list"]/*[contains(., "${text}")]//button[contains(., "Accept Chat")]`);
                await button.click();
                await page.waitForFunction((t) => document.querySelector('[data-testid="conversation"]')?.textContent?.includes(t), { timeout: 10000 }, text);
            };

            const first = customer(t.url, tenant, 'two_chats_first');
            await first.chat.start({ phoneNumber: '+15555550101', customerMessage: 'first customer here' });
            await acceptRow('first customer here');

            const second = customer(t.url, tenant, 'two_chats_second');
            await second.chat.start({ phoneNumber: '+15555550102', customerMessage: 'second customer here' });
            await acceptRow('second customer here');
            expect(await page.$eval('[data-testid="conversation"]', (el) => el.textContent), 'the pane shows the accepted chat')
                .to.contain('second customer here').and.not.contain('first customer here');

            await agentSends(page, 'Hello second customer');
            await until(() => second.incoming.some((m) => m.message === 'Hello second customer'), 10000, 'the reply reached the second customer');
            await sleep(300);
            expect(first.incoming.map((m) => m.message), 'nothing meant for the second customer reached the first').to.not.include('Hello second customer');
            await first.chat.end();
            await second.chat.end();
            await page.close();
        }
        finally {
            await t.close();
        }
    });

    it('sends a visitor without a valid admin token from /admin-chat to /admin-login', async () => {
        const t = await startTestServer({ listen: true });
        try {
            const page = await browser.newPage();
            await page.goto(`${t.url}/admin-chat`, { waitUntil: 'domcontentloaded' });
            await page.evaluate(() => localStorage.setItem('adminToken', 'not-a-valid-token'));
            await page.goto(`${t.url}/admin-chat`, { waitUntil: 'networkidle2' });
            await page.waitForFunction(() => location.pathname === '/admin-login', { timeout: 10000 });
            await page.close();
        }
        finally {
            await t.close();
        }
    });

    it('carries the same conversation with the customer on one node and the agent on another', async function () {
        if (!(usingPostgres && usingRedis)) {
            this.skip();
        }
        const first = await startTestServer({ listen: true });
        const second = await startTestServer({ listen: true, shareWith: first });
        try {
            const tenant = await createTenant(first.server, 'e2enodes', 'localhost');
            await conversation(browser, first, second, tenant, 'livechat-nodes');
        }
        finally {
            await second.close();
            await first.close();
        }
    });
});
