import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { startTestServer, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { acceptWaitingChat, agentSends, becomeAvailable, demoAgent, openStaffPage, openStorefrontWidget } from '../helpers/live-chat-page';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend } from '../helpers/widget-page';

/** A live chat between two browsers: the customer's text may take longer to come than a page's own answer. */
const waitForWidgetText = (page: Page, text: string, timeout = 15000) => waitForText(page, text, timeout);

/**
 * Two browsers, as a customer and an agent would use them: the customer on the demo storefront with the real
 * widget (/widget-demo.js), the agent logged in at /admin-chat. Both sides are screenshotted.
 */
async function conversation(customerNode: TestServer, agentNode: TestServer, prefix: string): Promise<void> {
    const { organizationId, token } = await demoAgent(agentNode);

    const agentBrowser: Browser = await launchBrowser();
    const customerBrowser: Browser = await launchBrowser();
    try {
        // The agent signs in at /admin-chat and switches to Available.
        const agent = await openStaffPage(agentBrowser, agentNode.url, token);
        await becomeAvailable(agent);

        // The customer opens the demo storefront (domain localhost) and asks for a human.
        const { page: customer, errors: pageErrors } = await openStorefrontWidget(customerBrowser, customerNode.url);
        await typeAndSend(customer, 'I want to talk to a human please');
        await waitForWidgetText(customer, 'Connecting you with a member of our team.');
        expect(await customer.evaluate(`${ROOT}.querySelector('.lc-badge').hidden`), 'Live Chat Active badge').to.equal(false);
        await waitForWidgetText(customer, "You're connected!", 5000);

        // The agent sees the request: the flashing banner and the waiting timer.
        await agent.waitForSelector('[data-testid="new-chat-banner"]', { timeout: 15000 });
        await agent.waitForFunction(() => document.querySelector('[data-testid="waiting-list"]')?.textContent?.includes('Visitor '), { timeout: 10000 });
        expect(await agent.$eval('[data-testid="wait-timer"]', (el) => el.textContent)).to.match(/^00:\d\d$/);
        await screenshot(agent, `${prefix}-agent-request`);
        await screenshot(customer, `${prefix}-customer-waiting`);

        // The full-screen banner flashes for 6 s (SPEC §9), then the agent accepts.
        await acceptWaitingChat(agent);
        await agent.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('I want to talk to a human please'), { timeout: 10000 });
        await waitForWidgetText(customer, 'Sam has joined the chat.');      // the demo agent's first name (issue 23)

        // Messages both ways.
        await agentSends(agent, 'Hello! This is Sam from Demo Store. How can I help?');
        await waitForWidgetText(customer, 'Hello! This is Sam from Demo Store. How can I help?');
        await typeAndSend(customer, 'Where is my order <i>#77</i>?');
        await agent.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Where is my order <i>#77</i>?'), { timeout: 10000 });
        expect(await agent.$$eval('[data-testid="conversation"] i', (els) => els.length), 'customer text shown as text').to.equal(0);
        await agentSends(agent, 'It left the warehouse this morning.');
        await waitForWidgetText(customer, 'It left the warehouse this morning.');
        expect(await customer.evaluate(`${ROOT}.querySelectorAll('.lc-msgs i').length`), 'agent text shown as text').to.equal(0);
        await screenshot(agent, `${prefix}-agent-conversation`);
        await screenshot(customer, `${prefix}-customer-conversation`);

        // The agent ends the chat; the customer sees it and the badge goes away.
        const [end] = await agent.$$('xpath/.//button[contains(., "End")]');
        await end.click();
        await waitForWidgetText(customer, 'The live chat has ended.');
        expect(await customer.evaluate(`${ROOT}.querySelector('.lc-badge').hidden`)).to.equal(true);
        await agent.waitForFunction(() => document.querySelector('[data-testid="active-list"]')?.children.length === 0, { timeout: 10000 });
        await screenshot(agent, `${prefix}-agent-ended`);
        await screenshot(customer, `${prefix}-customer-ended`);
        expect(pageErrors).to.deep.equal([]);

        const rows = await agentNode.server.app.db('chat_sessions').where({ organization_id: organizationId });
        expect(rows).to.have.length(1);
        expect(rows[0].status).to.equal('completed');
        const stored = await agentNode.server.app.db('chat_messages').where({ chat_session_id: rows[0].id }).orderBy('seq');
        expect(stored.map((m: any) => `${m.sender}: ${m.message}`)).to.deep.equal([
            'customer: I want to talk to a human please',
            'agent: Hello! This is Sam from Demo Store. How can I help?',
            'customer: Where is my order <i>#77</i>?',
            'agent: It left the warehouse this morning.'
        ]);
    }
    finally {
        await customerBrowser.close();
        await agentBrowser.close();
    }
}

describe('live chat between the real widget and the agent console, in two browsers', function () {
    this.timeout(120000);

    it('lets a customer on the demo storefront reach an agent at /admin-chat, chat both ways, and see the agent end it @smoke', async () => {
        const t = await startTestServer({ listen: true });
        try {
            await conversation(t, t, 'widget-livechat');
        }
        finally {
            await t.close();
        }
    });

    it('does the same with the customer on one node and the agent on another', async function () {
        const { usingPostgres, usingRedis } = await import('../helpers/server');
        if (!(usingPostgres && usingRedis)) {
            this.skip();
        }
        const first = await startTestServer({ listen: true });
        const second = await startTestServer({ listen: true, shareWith: first });
        try {
            await conversation(second, first, 'widget-livechat-nodes');
        }
        finally {
            await second.close();
            await first.close();
        }
    });
});
