import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { startTestServer, TestServer } from '../helpers/server';
import { startFakeSmtp, ReceivedMail } from '../helpers/fake-smtp';
import { launchBrowser, screenshot } from '../helpers/browser';
import { acceptWaitingChat, agentSends, becomeAvailable, collectPageErrors, demoAgent, openStaffPage, openStorefrontWidget } from '../helpers/live-chat-page';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend } from '../helpers/widget-page';
import { expectNoSeriousViolations } from '../helpers/axe';

/** A live chat between two browsers: the customer's text may take longer to come than a page's own answer. */
const waitForWidgetText = (page: Page, text: string, timeout = 15000) => waitForText(page, text, timeout);

/** The text of a mail as the fake SMTP server got it (quoted-printable, base64 or plain). */
function mailText(mail: ReceivedMail): string {
    const [head, ...rest] = mail.raw.split(/\r?\n\r?\n/);
    const body = rest.join('\n\n');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
        const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        return Buffer.from(bytes, 'latin1').toString('utf8');
    }
    if (/content-transfer-encoding:\s*base64/i.test(head)) {
        return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    }
    return body;
}

/**
 * Issue 28's rating by mail, end to end: the customer gives an email in the widget during a live chat (its own chunk),
 * the agent sees it in the customer panel, the customer closes the page, the agent ends the chat; the test reads the
 * mail from the fake SMTP server, opens its link at 390 px and rates 4 with a comment from the keyboard; the agent is
 * told, the rating is stored with source mail.
 */
describe('the mailed link to rate a chat, from the widget to the rate page', function () {
    this.timeout(120000);
    let t: TestServer;
    let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
    let agentBrowser: Browser;
    let customerBrowser: Browser;

    before(async () => {
        smtp = await startFakeSmtp();
        t = await startTestServer({ listen: true, env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, MAIL_FROM: 'chat@platform.test' } });
        agentBrowser = await launchBrowser();
        customerBrowser = await launchBrowser();
    });
    after(async () => {
        await customerBrowser?.close();
        await agentBrowser?.close();
        await t?.close();
        await smtp?.close();
    });

    it('an email given in the widget gets the link when the customer left before the end; the page rates 4 from the keyboard at 390 px', async () => {
        const { organizationId, token } = await demoAgent(t);
        const agent = await openStaffPage(agentBrowser, t.url, token);
        await becomeAvailable(agent);

        const chunks: string[] = [];
        const { page: customer, errors } = await openStorefrontWidget(customerBrowser, t.url, { width: 390, height: 844, isMobile: true, hasTouch: true },
            (page) => page.on('request', (r) => chunks.push(r.url())));
        expect(chunks.some((u) => /feature-email/.test(u)), 'the email chunk is not fetched before a live chat').to.equal(false);
        await typeAndSend(customer, 'I want to talk to a human please');
        await waitForWidgetText(customer, 'Connecting you with a member of our team.');

        // While waiting: "Leave your email" (its own chunk) opens one field; Enter saves it.
        const offer = `[...${ROOT}.querySelectorAll('.lc-email button')].find((b) => b.textContent === 'Leave your email')`;
        await customer.waitForFunction(`!!${offer}`, { timeout: 10000 });
        expect(chunks.some((u) => /feature-email/.test(u)), 'the email chunk').to.equal(true);
        await customer.evaluate(`${offer}.click()`);
        await customer.waitForFunction(`${ROOT}.activeElement?.type === 'email'`, { timeout: 5000 });
        await customer.keyboard.type('robin.customer@example.test');
        await screenshot(customer, 'rating-mail/widget-email-form-390');
        await expectNoSeriousViolations(customer, 'the widget\'s email form at 390 px', { scope: 'loyalty-chat-widget' });
        await customer.keyboard.press('Enter');
        await waitForWidgetText(customer, 'We’ll write to robin.customer@example.test if you leave before the chat ends.');
        await screenshot(customer, 'rating-mail/widget-email-saved-390');
        // The same at a desktop width (puppeteer reloads the page to leave the phone): the chat and the email given
        // in it come back from the tab's storage. Then back to the phone.
        await customer.setViewport({ width: 1280, height: 800 });
        await waitForWidgetText(customer, 'We’ll write to robin.customer@example.test if you leave before the chat ends.');
        await customer.evaluate(`${ROOT}.querySelector('.lc-email').scrollIntoView({ block: 'nearest' })`);
        await screenshot(customer, 'rating-mail/widget-email-saved-1280', { fullPage: false });
        await customer.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
        await waitForWidgetText(customer, 'We’ll write to robin.customer@example.test if you leave before the chat ends.');
        const widths = await customer.evaluate(`(() => { const f = ${ROOT}.querySelector('.lc-email'); const p = ${ROOT}.querySelector('.lc-panel'); return [f.getBoundingClientRect().right, p.getBoundingClientRect().right, document.documentElement.scrollWidth]; })()`) as number[];
        expect(widths[0]).to.be.at.most(widths[1]);
        expect(widths[2]).to.be.at.most(390);

        // The agent accepts and sees the email in the customer panel.
        await acceptWaitingChat(agent);
        await waitForWidgetText(customer, 'Sam has joined the chat.');
        await agent.waitForFunction(() => document.querySelector('[data-testid="customer-email"]')?.textContent === 'robin.customer@example.test', { timeout: 10000 });
        await agentSends(agent, 'Your parcel ships today.');
        await waitForWidgetText(customer, 'Your parcel ships today.');
        await screenshot(agent, 'rating-mail/console-customer-email-1280');
        expect(errors).to.deep.equal([]);

        // The customer closes the page; then the agent ends the chat.
        const chat = await t.server.app.db('chat_sessions').where({ organization_id: organizationId }).orderBy('id', 'desc').first();
        await customer.close();
        // The server marks the customer gone when the widget's socket closes: on a loaded machine that took over 5 s in CI.
        let gone = false;
        for (let i = 0; i < 1500 && !gone; i++) {
            const row = await t.server.app.db('chat_sessions').where('id', chat.id).first('customer_gone_at');
            gone = row.customer_gone_at !== null;
            if (!gone) {
                await new Promise((r) => setTimeout(r, 20));
            }
        }
        expect(gone, 'the customer is marked gone after closing the page').to.equal(true);
        const [end] = await agent.$$('xpath/.//button[contains(., "End")]');
        await end.click();
        await smtp.waitFor(1, 10000);
        const mail = smtp.received.find((m) => m.to.includes('robin.customer@example.test'))!;
        expect(smtp.received.filter((m) => m.to.includes('robin.customer@example.test'))).to.have.length(1);
        const text = mailText(mail);
        expect(text).to.include('Thanks for chatting with Demo Store.');
        const link = /(http:\/\/\S+\/rate\/[A-Za-z0-9_.-]+)/.exec(text)?.[1];
        expect(link, text).to.be.a('string');

        // The link at 1280 (a look), then at 390 px, rated from the keyboard.
        const wide = await customerBrowser.newPage();
        const wideErrors = collectPageErrors(wide);
        await wide.setViewport({ width: 1280, height: 860 });
        await wide.goto(link!, { waitUntil: 'load' });
        expect(await wide.$eval('h1', (el) => el.textContent)).to.equal('How was your chat?');
        await screenshot(wide, 'rating-mail/rate-page-1280');
        await wide.close();

        const page = await customerBrowser.newPage();
        const pageErrors = collectPageErrors(page);
        const csp: string[] = [];
        page.on('console', (m) => /Content Security Policy/i.test(m.text()) && csp.push(m.text()));
        await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
        await page.goto(link!, { waitUntil: 'load' });
        expect(await page.$eval('.store', (el) => el.textContent)).to.equal('Demo Store');
        expect(await page.$$eval('input[type=radio]', (els) => els.map((e) => (e.closest('label') as HTMLElement).textContent!.trim())))
            .to.deep.equal(['1 – Very bad', '2 – Bad', '3 – Okay', '4 – Good', '5 – Very good']);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
        // The stylesheet applied (no inline style under our CSP): the button fills the card.
        expect(await page.$eval('button', (el) => getComputedStyle(el).backgroundColor)).to.equal('rgb(29, 78, 216)');

        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).to.equal('1');
        for (let i = 0; i < 3; i++) {
            await page.keyboard.press('ArrowDown');
        }
        expect(await page.$eval('input[type=radio]:checked', (el) => (el as HTMLInputElement).value)).to.equal('4');
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.id)).to.equal('comment');
        await page.keyboard.type('Sam sorted it out quickly');
        await screenshot(page, 'rating-mail/rate-page-390');
        await expectNoSeriousViolations(page, 'the rate page at 390 px');
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('BUTTON');
        await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
        expect(await page.$eval('h1', (el) => el.textContent)).to.equal('Thank you!');
        expect(await page.$eval('.done', (el) => el.textContent)).to.equal('Your rating was sent to Demo Store.');
        await screenshot(page, 'rating-mail/rate-page-390-thanks');
        await expectNoSeriousViolations(page, 'the rate page\'s thanks at 390 px');

        // The agent is told at once; the rating is the chat's, from the mail.
        await agent.waitForFunction(() => document.body.innerText.includes('The customer rated a chat 4 of 5'), { timeout: 10000 });
        const rows = await t.server.app.db('chat_ratings').where({ chat_session_id: chat.id });
        expect(rows.map((r: any) => [Number(r.score), r.comment, r.source])).to.deep.equal([[4, 'Sam sorted it out quickly', 'mail']]);

        // Opened again: already rated.
        await page.goto(link!, { waitUntil: 'load' });
        expect(await page.$eval('h1', (el) => el.textContent)).to.equal('Already rated');
        expect([...pageErrors, ...wideErrors, ...csp]).to.deep.equal([]);
    });
});
