import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { TestServer } from '../helpers/server';
import { screenshot } from '../helpers/browser';
import { signCustomerToken } from '../../core/auth/customer-token';
import { acceptWaitingChat, agentSends, becomeAvailable, demoAgent, openStaffPage, openStorefrontWidget, startLiveChatPair, stopLiveChatPair } from '../helpers/live-chat-page';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend } from '../helpers/widget-page';


/** A live chat between two browsers: the customer's text may take longer to come than a page's own answer. */
const waitForWidgetText = (page: Page, text: string, timeout = 15000) => waitForText(page, text, timeout);

/**
 * Issue 28 end to end: a customer at 390 px chats with an agent at /admin-chat; the agent ends the chat; the widget asks
 * "How was your chat?" (its own chunk), the customer rates 4 with the keyboard and a comment; the agent is told at
 * once, History shows it, and the Quality tab counts it; a second rating of the chat is refused (409).
 */
describe('the rating after a live chat, from the widget to the Quality tab', function () {
    this.timeout(120000);
    let t: TestServer;
    let agentBrowser: Browser;
    let customerBrowser: Browser;

    before(async () => {
        ({ t, agentBrowser, customerBrowser } = await startLiveChatPair());
    });
    after(() => stopLiveChatPair({ t, agentBrowser, customerBrowser }));

    it('a chat ended by the agent is rated 4 with a comment at 390 px, the agent sees it, the Quality tab counts it, and a second rating is refused', async () => {
        const { organizationId, token } = await demoAgent(t);
        const agent = await openStaffPage(agentBrowser, t.url, token);
        await becomeAvailable(agent);

        const chunks: string[] = [];
        const { page: customer, errors: pageErrors } = await openStorefrontWidget(customerBrowser, t.url, { width: 390, height: 844, isMobile: true, hasTouch: true },
            (page) => page.on('request', (r) => chunks.push(r.url())));
        await typeAndSend(customer, 'I want to talk to a human please');
        await waitForWidgetText(customer, 'Connecting you with a member of our team.');

        await acceptWaitingChat(agent);
        await waitForWidgetText(customer, 'Sam has joined the chat.');
        await agentSends(agent, 'Your parcel ships today.');
        await waitForWidgetText(customer, 'Your parcel ships today.');
        expect(chunks.some((u) => /feature-rating/.test(u)), 'the rating chunk is not fetched before the chat ends').to.equal(false);

        // The agent ends the chat: the widget asks for a rating, in a chunk of its own.
        const [end] = await agent.$$('xpath/.//button[contains(., "End")]');
        await end.click();
        await waitForWidgetText(customer, 'The live chat has ended.');
        await customer.waitForFunction(`!!${ROOT}.querySelector('form.lc-rate')`, { timeout: 10000 });
        expect(chunks.some((u) => /feature-rating/.test(u)), 'the rating chunk').to.equal(true);
        expect(await customer.evaluate(`${ROOT}.querySelector('form.lc-rate legend').textContent`)).to.equal('How was your chat?');
        expect(await customer.evaluate(`[...${ROOT}.querySelectorAll('form.lc-rate input[type=radio]')].map((r) => r.closest('label').textContent)`))
            .to.deep.equal(['1 – Very bad', '2 – Bad', '3 – Okay', '4 – Good', '5 – Very good']);
        // Fits the phone: the card is no wider than the panel.
        const widths = await customer.evaluate(`(() => { const f = ${ROOT}.querySelector('form.lc-rate'); const p = ${ROOT}.querySelector('.lc-panel'); return [f.getBoundingClientRect().right, p.getBoundingClientRect().right, document.documentElement.scrollWidth]; })()`) as number[];
        expect(widths[0]).to.be.at.most(widths[1]);
        expect(widths[2]).to.be.at.most(390);

        // The keyboard: focus the first choice, arrow to 4, Tab to the comment.
        await customer.evaluate(`${ROOT}.querySelector('form.lc-rate input[type=radio]').focus()`);
        await customer.keyboard.press('Space');
        for (let i = 0; i < 3; i++) {
            await customer.keyboard.press('ArrowDown');
        }
        expect(await customer.evaluate(`${ROOT}.querySelector('form.lc-rate input[type=radio]:checked').value`)).to.equal('4');
        await customer.keyboard.press('Tab');
        await customer.keyboard.type('Quick and friendly, thanks Sam');
        await screenshot(customer, 'ratings-widget-390');
        const send = await customer.evaluateHandle(`${ROOT}.querySelector('form.lc-rate button[type=submit]')`);
        await (send as any).click();
        await waitForWidgetText(customer, 'Thanks for your rating!');
        expect(await customer.evaluate(`!!${ROOT}.querySelector('form.lc-rate')`)).to.equal(false);
        await screenshot(customer, 'ratings-widget-390-thanks');
        expect(pageErrors).to.deep.equal([]);

        // The agent is told at once (the console is open).
        await agent.waitForFunction(() => document.body.innerText.includes('The customer rated a chat 4 of 5'), { timeout: 10000 });
        expect(await agent.evaluate(() => document.body.innerText.includes('Quick and friendly, thanks Sam'))).to.equal(true);
        await screenshot(agent, 'ratings-console-toast');

        // History shows it with the conversation.
        const chat = await t.server.app.db('chat_sessions').where({ organization_id: organizationId }).first();
        await agent.goto(`${t.url}/admin-chat/history?session=${encodeURIComponent(chat.session_id)}`, { waitUntil: 'networkidle2' });
        await agent.waitForSelector('[data-testid="chat-rating"]', { timeout: 10000 });
        expect(await agent.$eval('[data-testid="chat-rating"]', (el) => el.textContent)).to.equal('Rated 4 of 5 “Quick and friendly, thanks Sam”');
        await screenshot(agent, 'ratings-console-history');

        // The Quality tab: one response, average 4, one rating of 4.
        await agent.goto(`${t.url}/analytics?tab=quality`, { waitUntil: 'networkidle2' });
        await agent.waitForSelector('[data-testid="csat-average"]', { timeout: 15000 });
        expect(await agent.$eval('[data-testid="csat-responses"]', (el) => el.textContent)).to.equal('1');
        expect(await agent.$eval('[data-testid="csat-average"]', (el) => el.textContent)).to.equal('4');
        expect(await agent.$$eval('[data-testid="csat-distribution"] li', (els) => els.map((e) => e.textContent))).to.deep.equal([
            '5 of 5: 0 ratings', '4 of 5: 1 rating', '3 of 5: 0 ratings', '2 of 5: 0 ratings', '1 of 5: 0 ratings'
        ]);
        expect(await agent.$eval('[data-testid="csat-agents"] tbody', (el) => el.textContent)).to.include('Sam');
        await screenshot(agent, 'ratings-quality-1280');

        // A second rating of the same chat is refused.
        const customerToken = signCustomerToken(t.server.app.config.jwtSecret, { organizationId, sessionId: chat.widget_session_id ?? chat.session_id, chatId: chat.session_id });
        const again = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.session_id}/rating`, headers: { authorization: `Bearer ${customerToken}` }, payload: { score: 1 } });
        expect(again.statusCode).to.equal(409);
        const stored = await t.server.app.db('chat_ratings').where({ organization_id: organizationId });
        expect(stored.map((r: any) => [Number(r.score), r.comment])).to.deep.equal([[4, 'Quick and friendly, thanks Sam']]);
    });
});
