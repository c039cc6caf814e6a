import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { setAvailable } from '../helpers/livechat-client';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';
import { PrivateRedis, startPrivateRedis } from '../helpers/private-redis';
import { sleep } from '../helpers/wait';
import { createLiveChat } from '../../widget/src/live-chat';

const conversationText = (page: Page) => page.evaluate(() => document.querySelector('[data-testid="conversation"]')?.textContent ?? '');

describe('the agent console after a Redis outage', function () {
    this.timeout(120000);
    let browser: Browser;
    let redis: PrivateRedis;
    let nodeA: TestServer;
    let nodeB: TestServer;
    let tenant: Tenant;

    before(async () => {
        browser = await launchBrowser();
        redis = await startPrivateRedis();
        nodeA = await startTestServer({ listen: true, env: { REDIS_URL: redis.url } });
        nodeB = await startTestServer({ listen: true, shareWith: nodeA, env: { REDIS_URL: redis.url } });
        tenant = await createTenant(nodeA.server, 'e2eresync', 'localhost');
    });
    after(async () => {
        await redis?.ensureUp();
        await browser?.close();
        await nodeB?.close();
        await nodeA?.close();
        await redis?.stop();
    });

    it('shows the customer message that was stored while Redis was down once Redis is back, without a reload', async () => {
        // The agent's browser on node A; the customer (the widget's live chat client) on node B.
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 860 });
        await storeAdminToken(page, nodeA.url, tenant.admin.token);
        await page.goto(`${nodeA.url}/admin-chat`, { waitUntil: 'networkidle2' });
        await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Connected', { timeout: 15000 });
        await setAvailable(nodeA.server, tenant, true);

        const customer = createLiveChat({
            apiOrigin: nodeB.url, widgetKey: tenant.bot.publicKey, sessionId: 'e2e_resync_1',
            onMessage() {}, onEnded() {}, WebSocket: require('ws'), reconnectDelay: { min: 100, max: 1000 }
        });
        await customer.start({ phoneNumber: '+15555550177', customerMessage: 'I need a human please' });
        await page.waitForFunction(() => document.querySelector('[data-testid="waiting-list"]')?.textContent?.includes('(555) 555-0177'), { timeout: 10000 });
        await page.click('[data-testid="new-chat-banner"]');      // dismissed: it covers the list for 6 s
        await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });
        const [accept] = await page.$$('xpath/.//button[contains(., "Accept Chat")]');
        await accept.click();
        await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('I need a human please'), { timeout: 10000 });

        await redis.kill();
        customer.send('Sent while Redis was down');
        const stored = async () => !!(await nodeA.server.app.db('chat_messages').where({ message: 'Sent while Redis was down' }).first());
        for (let i = 0; i < 100 && !(await stored()); i++) {
            await sleep(50);
        }
        expect(await stored(), 'stored on node B').to.equal(true);
        await sleep(500);
        expect(await conversationText(page), 'its push could not reach node A').to.not.contain('Sent while Redis was down');

        await redis.restart();
        await page.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('Sent while Redis was down'), { timeout: 15000 });
        expect(await page.evaluate(() => document.querySelector('[data-testid="connection-state"]')?.textContent), 'the socket never dropped').to.equal('Connected');
        await screenshot(page, 'redis-resync-agent-console');
        await customer.end();
        await page.close();
    });
});
