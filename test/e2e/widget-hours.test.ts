import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer, bearer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
import { connectAgent, createSession, setAvailable } from '../helpers/livechat-client';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend, openWidget } from '../helpers/widget-page';

const STORE_ZONE = 'America/Los_Angeles';
const CUSTOMER_ZONE = 'Europe/Madrid';
const localDate = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

/**
 * Issue 26 in a browser: a store in Los Angeles is closed today; a customer in Madrid asks for a person and reads
 * when the team is back in their own time, named, then gets what the store chose (the form, the AI agent, or no
 * live-support offer at all). And a waiting customer sees their place in the queue move when the chat ahead is accepted.
 */
describe('the widget outside support hours, and the customer\'s place in the queue (issue 26)', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let merchant: { port: number; close(): Promise<void> };
    let spanish: { port: number; close(): Promise<void> };
    let shop: Tenant;
    const clients: any[] = [];

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'hours', 'localhost');
        await t.server.app.db('organizations').where('id', shop.organization.id).update({ time_zone: STORE_ZONE });
        await t.server.app.services.questions.addDefaults(shop.organization.id);
        merchant = await startMerchantSite(`${t.url}/widget-hours.js`);
        spanish = await startMerchantSite(`${t.url}/widget-hours.js`, { lang: 'es' });
        browser = await launchBrowser();
        // An agent is online and Available all along: only the hours close live support.
        const agent = await connectAgent(t.url, shop);
        clients.push(agent.client);
        await setAvailable(t.server, shop, true);
    });
    after(async () => {
        for (const c of clients) {
            await c.disconnect().catch(() => {});
        }
        await browser?.close();
        await merchant?.close();
        await spanish?.close();
        await t?.close();
    });

    /** Open 9 to 5 every day in the store's zone, but closed all of today (the store's date). */
    async function closedToday(whenClosed: string): Promise<string> {
        const res = await t.server.inject({
            method: 'PUT', url: '/api/chat/business-hours', headers: bearer(shop.admin.token), payload: {
                weekly: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, open: '09:00', close: '17:00' })),
                exceptions: [{ date: localDate(Date.now(), STORE_ZONE), closed: true }], whenClosed
            }
        });
        expect(res.statusCode, res.payload).to.equal(200);
        const status = (res.result as any).status;
        expect(status.open).to.equal(false);
        return status.opensAt as string;
    }

    /** "at 6:00 PM your time (Madrid)": the opening, in the customer's zone, as en-US writes it. */
    function expectedBack(opensAt: string): RegExp {
        const time = new Intl.DateTimeFormat('en-US', { timeZone: CUSTOMER_ZONE, hour: 'numeric', minute: '2-digit' }).format(new Date(opensAt));
        return new RegExp(`We're back (today|tomorrow) at ${time.replace(/\s/g, '\\s')} your time \\(Madrid\\)\\.`);
    }

    async function customerPage(width: number, height: number): Promise<Page> {
        const page = await browser.newPage();
        // The loader script (with the store's settings, e.g. whether its AI agent is on) may be cached 5 minutes.
        await page.setCacheEnabled(false);
        await page.emulateTimezone(CUSTOMER_ZONE);
        await page.setViewport({ width, height });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome to Store hours support.');
        return page;
    }
    const chips = (page: Page) => page.evaluate(`Array.from(${ROOT}.querySelectorAll('.lc-quick .lc-chip')).map((b) => b.textContent)`) as Promise<string[]>;
    const messagesText = (page: Page) => page.evaluate(`${ROOT}.querySelector('.lc-msgs').innerText`) as Promise<string>;

    it('closed with the leave-a-message form: says when the team is back in the customer\'s time, then offers the form (390 px)', async () => {
        const opensAt = await closedToday('offline_form');
        // The store's 9 AM in Los Angeles is 6 PM in Madrid (both on winter time).
        expect(opensAt).to.match(/T09:00:00-0[78]:00$/);
        const page = await customerPage(390, 844);
        await page.waitForFunction(`Array.from(${ROOT}.querySelectorAll('.lc-chip')).some((b) => b.textContent === 'Talk to live support')`);
        await typeAndSend(page, 'Can I talk to a person?');
        await page.waitForFunction(`!!${ROOT}.querySelector('form.lc-offline')`, { timeout: 10000 });
        const text = await messagesText(page);
        expect(text).to.match(expectedBack(opensAt));
        expect(text).to.include('Leave us a message and we\'ll answer by email.');
        // The SPEC's "nobody available" text is for open hours only.
        expect(text).to.not.include('currently unavailable');
        await screenshot(page, 'hours-closed-offline-form-390');
        await page.close();
    });

    it('closed with hide: no live-support question, and asking for a person gets only the back-at time', async () => {
        const opensAt = await closedToday('hide');
        const page = await customerPage(390, 844);
        await page.waitForFunction(`Array.from(${ROOT}.querySelectorAll('.lc-chip')).some((b) => b.textContent === 'Check my loyalty points')`);
        // The questions and points stay; the live-support question is gone.
        await page.waitForFunction(`!Array.from(${ROOT}.querySelectorAll('.lc-chip')).some((b) => b.textContent === 'Talk to live support')`, { timeout: 5000 });
        expect(await chips(page)).to.include('How do I earn points?');
        await typeAndSend(page, 'agent');
        await page.waitForFunction(`${ROOT}.querySelector('.lc-msgs').innerText.includes("We're back")`, { timeout: 10000 });
        await new Promise((r) => setTimeout(r, 300));
        const text = await messagesText(page);
        expect(text).to.match(expectedBack(opensAt));
        expect(text).to.not.include('Leave us a message');
        expect(await page.evaluate(`!!${ROOT}.querySelector('form.lc-offline')`)).to.equal(false);
        expect(await page.evaluate(`!!${ROOT}.querySelector('.lc-launcher')`), 'the launcher stays').to.equal(true);
        await screenshot(page, 'hours-closed-hide-390');
        await page.close();
    });

    it('closed with the AI agent alone: the back-at time, then the assistant invites questions (1280 px)', async () => {
        const opensAt = await closedToday('ai_only');
        const page = await customerPage(1280, 800);
        await clickTalk(page);
        await waitForText(page, 'In the meantime, our assistant can answer your questions: just type them below.');
        const text = await messagesText(page);
        expect(text).to.match(expectedBack(opensAt));
        expect(await page.evaluate(`!!${ROOT}.querySelector('form.lc-offline')`)).to.equal(false);
        await screenshot(page, 'hours-closed-ai-only-1280');
        await page.close();
    });

    it('says it in the widget\'s language and the customer\'s zone: Spanish, in Mexico City', async () => {
        const opensAt = await closedToday('offline_form');
        const page = await browser.newPage();
        await page.emulateTimezone('America/Mexico_City');
        await page.setViewport({ width: 390, height: 844 });
        await page.goto(`http://localhost:${spanish.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await clickTalk(page);
        await page.waitForFunction(`!!${ROOT}.querySelector('form.lc-offline')`, { timeout: 10000 });
        // The store's 9 AM in Los Angeles is 11:00 in Mexico City, as Spanish writes it.
        const time = new Intl.DateTimeFormat('es', { timeZone: 'America/Mexico_City', hour: 'numeric', minute: '2-digit' }).format(new Date(opensAt));
        expect(time).to.equal('11:00');
        const text = await messagesText(page);
        expect(text).to.match(new RegExp(`Volvemos (hoy|mañana) a las ${time}, tu hora \\(Mexico City\\)\\.`));
        expect(text).to.include('Déjanos un mensaje y te responderemos por correo electrónico.');
        await screenshot(page, 'hours-closed-es-390');
        await page.close();
    });

    it('closed with the AI agent alone in a store whose AI agent is off: the form, so the customer is not left with nothing', async () => {
        await t.server.app.services.ai.setEnabled(shop.organization.id, false);
        try {
            await closedToday('ai_only');
            const page = await customerPage(390, 844);
            await clickTalk(page);
            await page.waitForFunction(`!!${ROOT}.querySelector('form.lc-offline')`, { timeout: 10000 });
            const text = await messagesText(page);
            expect(text).to.include('Leave us a message');
            expect(text).to.not.include('our assistant can answer');
            await page.close();
        }
        finally {
            await t.server.app.services.ai.setEnabled(shop.organization.id, true);
        }
    });

    async function clickTalk(page: Page): Promise<void> {
        const chip = `Array.from(${ROOT}.querySelectorAll('.lc-chip')).find((b) => b.textContent === 'Talk to live support' && !b.disabled)`;
        await page.waitForFunction(`!!${chip}`, { timeout: 5000 });
        await page.evaluate(`${chip}.click()`);
    }

    it('while waiting, shows the customer\'s place in the queue and moves it up when the chat ahead is accepted (390 px)', async () => {
        await t.server.inject({ method: 'PUT', url: '/api/chat/business-hours', headers: bearer(shop.admin.token), payload: { weekly: [], exceptions: [], whenClosed: 'offline_form' } });
        // Someone asked first.
        await createSession(t.server, shop, 'widget_ahead_1', 'I was here first');
        const page = await customerPage(390, 844);
        await typeAndSend(page, 'I need a human');
        const queueLine = `${ROOT}.querySelector('.lc-queue')?.textContent ?? ''`;
        await page.waitForFunction(`(${queueLine}).includes("You're number 2 in the queue.")`, { timeout: 10000 });
        // No chat was accepted yet: no typical wait to tell.
        expect(await page.evaluate(queueLine)).to.not.include('Typical wait');
        await screenshot(page, 'hours-queue-2-390');
        // The customer reloads the page while waiting: the chat and their place come back.
        await page.reload({ waitUntil: 'load' });
        await page.waitForFunction(`(${queueLine}).includes("You're number 2 in the queue.")`, { timeout: 15000 });

        const accepted = await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_ahead_1/accept', headers: bearer(shop.admin.token) });
        expect(accepted.statusCode).to.equal(200);
        await page.waitForFunction(`(${queueLine}).includes("You're number 1 in the queue.")`, { timeout: 10000 });
        expect(await page.evaluate(queueLine)).to.include('Typical wait: about 1 min.');
        await screenshot(page, 'hours-queue-1-390');

        // The agent takes this customer's chat: the queue line goes.
        const waiting = await t.server.inject({ method: 'GET', url: '/api/chat/waiting', headers: bearer(shop.admin.token) });
        const mine = (waiting.result as Array<{ sessionId: string }>).map((s) => s.sessionId).filter((id) => id !== 'widget_ahead_1');
        expect(mine).to.have.length(1);
        await t.server.inject({ method: 'POST', url: `/api/chat/session/${mine[0]}/accept`, headers: bearer(shop.admin.token) });
        await waitForText(page, 'A support agent has joined the chat.');
        await page.waitForFunction(`!${ROOT}.querySelector('.lc-queue')`, { timeout: 5000 });
        await page.close();
    });
});
