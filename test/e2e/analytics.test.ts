import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { importCustomers } from '../helpers/loyalty';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';
import { createSession } from '../helpers/livechat-client';
import { generateEvents } from '../../plugins/analytics/lib/generate';
import { addDays, dayKey } from '../../plugins/analytics/lib/time';

async function shot(page: Page, name: string): Promise<void> {
    await screenshot(page, `analytics-${name}`);
}

async function clickText(page: Page, selector: string, text: string): Promise<void> {
    await page.waitForFunction((s: string, t: string) => Array.from(document.querySelectorAll(s)).some((b) => b.textContent?.trim() === t), {}, selector, text);
    await page.evaluate((s: string, t: string) => {
        (Array.from(document.querySelectorAll(s)).find((b) => b.textContent?.trim() === t) as HTMLElement).click();
    }, selector, text);
}

const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? '');
/** A number as the English screens write it (1,250). */
const en = (n: number) => new Intl.NumberFormat('en').format(n);

/** What a person (or a screen reader) gets of the victory chart inside `scope`: its svg's name and description, its bars, lines and points, the axis labels written. */
interface ChartView { role: string | null; name: string; description: string; bars: number; lines: string[]; points: number; xLabels: string[]; legend: string[] }
async function chart(page: Page, scope: string): Promise<ChartView> {
    await page.waitForSelector(`${scope} .lc-chart svg[role="img"]`);
    return page.$eval(`${scope} .lc-chart`, (figure) => {
        const svg = figure.querySelector('svg[role="img"]')!;
        const byIds = (ids: string | null) => (ids ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
        // Victory writes the x axis's labels below the plot: the texts in the bottom padding band.
        const height = Number(svg.getAttribute('viewBox')?.split(' ')[3] ?? svg.getAttribute('height'));
        const box = svg.getBoundingClientRect();
        const scale = box.height / height;
        const xLabels = Array.from(svg.querySelectorAll('text'))
            .filter((t) => (t.textContent ?? '').trim() !== '' && t.getBoundingClientRect().top - box.top > (height - 28) * scale)
            .map((t) => t.textContent!.trim());
        return {
            role: svg.getAttribute('role'),
            name: byIds(svg.getAttribute('aria-labelledby')),
            description: byIds(svg.getAttribute('aria-describedby')),
            bars: svg.querySelectorAll('.lc-bar').length,
            lines: Array.from(svg.querySelectorAll('.lc-line')).map((l) => l.getAttribute('d') ?? ''),
            points: svg.querySelectorAll('.lc-point').length,
            xLabels,
            legend: Array.from(figure.querySelectorAll('.lc-legend li')).map((li) => li.textContent ?? '')
        };
    });
}

/** Closes the open dialog with its close button and waits until it is gone. */
/**
 * Closes the open dialog with its close button. A click during the dialog's opening transition can be lost (it was
 * hidden while every step took a screenshot), so the click is repeated until the dialog is gone.
 */
async function closeDialog(page: Page): Promise<void> {
    for (let attempt = 1; ; attempt++) {
        await page.click('.bp5-dialog .bp5-dialog-close-button').catch(() => undefined);
        try {
            await page.waitForFunction(() => !document.querySelector('.bp5-dialog'), { timeout: 2000 });
            return;
        }
        catch (err) {
            if (attempt >= 5) {
                throw err;
            }
        }
    }
}

/** axe-core's checks of the page as it is (contrast, names, landmarks); the script is evaluated, so the page's CSP does not apply. */
async function axeViolations(page: Page): Promise<string[]> {
    await page.evaluate(Fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    return page.evaluate(async () => {
        const result = await (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
        return result.violations.map((v: any) => `${v.id}: ${v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')).join(' | ')}`);
    });
}

describe('the analytics dashboard (/analytics) in a browser, on generated data', function () {
    this.timeout(180000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;
    let page: Page;
    const zone = 'America/New_York';
    const downloads = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-analytics-dl-'));

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'ashop', 'ashop.test');
        const org = shop.organization.id;
        const services = t.server.app.services;
        await services.questions.addDefaults(org);
        // The generated points and orders are the store's members' own (issue 23): enough members to fill pages of phones.
        await importCustomers(t.server, org, [['+15555550100', 'Avery Stone', 'avery@example.com', 'AIQ-100', 1250],
            ...Array.from({ length: 79 }, (_, i): [string, string, string, string, number] => [`+1212555${2000 + i}`, `Member ${i}`, `m${i}@example.com`, `M-${i}`, (i * 37) % 3000])]);
        await generateEvents(services.analytics, { organizationId: org, events: 3000, days: 14, domains: ['ashop.test', 'www.ashop.test'], seed: 7,
            members: await services.loyalty.listMembers(org) });
        await services.analytics.track({ organizationId: org, action: 'order_history_viewed', phoneNumber: '+15555550100', success: true, domain: 'ashop.test', sessionId: 'widget_orders_e2e_1' });
        await services.analytics.track({ organizationId: org, action: 'order_history_viewed', phoneNumber: '+15555550123', success: false, errorMessage: 'Provider timeout', domain: 'ashop.test' });
        // What an older widget sent as the phone of a failed verification: the event is kept, without a phone (issue 23).
        await services.analytics.track({ organizationId: org, action: 'verification_failed', phoneNumber: '55', success: false, domain: 'ashop.test' });
        await t.server.app.jobs.drain();
        const chat = services.livechat;
        await chat.createSession({ organizationId: org, botInstanceId: shop.bot.id, sessionId: 'widget_e2e_done', phoneNumber: '+15555550100', customerMessage: 'Where is my order?', domain: 'ashop.test' });
        await chat.accept(org, shop.admin.id, 'widget_e2e_done');
        await chat.sendMessage(org, 'widget_e2e_done', { sender: 'agent', userId: shop.admin.id }, { message: 'Let me check that for you.' });
        await chat.end(org, 'widget_e2e_done', 'agent');
        // One chat rated today (through the customer's own call): the Quality tab's daily line has one point and no segment.
        const rated = await createSession(t.server, shop, 'widget_e2e_rated', 'Is my order shipped?', '+15555550142');
        await chat.accept(org, shop.admin.id, 'widget_e2e_rated');
        await chat.end(org, 'widget_e2e_rated', 'agent');
        const rating = await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_e2e_rated/rating', headers: { authorization: `Bearer ${rated.token}` }, payload: { score: 4 } });
        expect(rating.statusCode, rating.payload).to.equal(201);
        await t.server.app.jobs.drain();
        await chat.createSession({ organizationId: org, botInstanceId: shop.bot.id, sessionId: 'widget_e2e_waiting', phoneNumber: '+15555550177', customerMessage: 'Hello?', domain: 'ashop.test' });
        browser = await launchBrowser();
        page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 900 });
        const cdp = await page.createCDPSession();
        await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
        await storeAdminToken(page, t.url, shop.admin.token);
    });
    after(async () => {
        await browser?.close();
        await t?.close();
        Fs.rmSync(downloads, { recursive: true, force: true });
    });

    it('shows the summary cards of the API, the waiting banner and one h1 in the main landmark', async () => {
        await page.goto(`${t.url}/analytics`, { waitUntil: 'networkidle0' });
        await page.waitForSelector('.lc-a-summary');
        const res = await t.server.inject({ method: 'GET', url: '/api/analytics/summary?days=30', headers: { authorization: `Bearer ${shop.admin.token}` } });
        const summary = res.result as any;
        const cards = await page.$$eval('.lc-a-summary .lc-stat-value', (els) => els.map((e) => e.textContent));
        // Numbers as the agent's language writes them (English here: grouped by thousands).
        expect(cards).to.deep.equal([summary.totalInteractions, summary.totalChatSessions, summary.pointsViewed, summary.failedVerifications].map(en));
        expect(summary.totalInteractions).to.be.greaterThan(2000);
        expect(await page.$$eval('h1', (els) => els.length)).to.equal(1);
        expect(await page.$$eval('main', (els) => els.length)).to.equal(1);
        await page.waitForFunction(() => document.querySelector('.lc-a-banner')?.textContent?.includes('1 customer waiting for live chat'));
        // The pie (victory): one slice per kind above 0, named by its title, its figures in the description and the legend.
        const pie = await chart(page, '.lc-a-overview .lc-a-card:nth-child(1)');
        const other = summary.totalInteractions - summary.successfulVerifications - summary.failedVerifications;
        expect(pie.role).to.equal('img');
        expect(pie.name).to.equal('Interaction types');
        expect(pie.description).to.equal(`Successful Verifications ${en(summary.successfulVerifications)}, Failed Verifications ${en(summary.failedVerifications)}, Other Interactions ${en(other)}`);
        expect(await page.$$eval('.lc-a-overview .lc-a-card:nth-child(1) svg[role="img"] path', (p) => p.length)).to.equal(3);
        expect(pie.legend[0]).to.match(new RegExp(`^Successful Verifications: ${en(summary.successfulVerifications)} \\(\\d+%\\)$`));
        // By hour (the last 7 days): one group of 3 bars per hour of bars, every hour's figures in the description, a label every few hours at 1280 px.
        await page.waitForFunction(() => document.querySelectorAll('.lc-a-overview .lc-a-card:nth-child(2) .lc-bar').length > 0);
        const hourly = await chart(page, '.lc-a-overview .lc-a-card:nth-child(2)');
        const hours = (await t.server.inject({ method: 'GET', url: '/api/analytics/hourly?days=7', headers: { authorization: `Bearer ${shop.admin.token}` } })).result as any[];
        expect(hourly.name).to.equal('Interactions by hour');
        expect(hourly.bars).to.equal(hours.length * 3);
        expect(hourly.description).to.contain(`${hours[0].hour} Opened ${en(hours[0].widget_opened)}, Verified ${en(hours[0].verified)}, Points viewed ${en(hours[0].points_viewed)}`);
        expect(hourly.xLabels[0]).to.equal(String(hours[0].hour));
        expect(hourly.xLabels.length).to.be.within(4, hours.length);
        expect(hourly.legend).to.deep.equal(['Opened', 'Verified', 'Points viewed']);
        // By day, stacked: 4 series a day.
        await page.waitForFunction(() => document.querySelectorAll('.lc-a-overview .lc-a-wide .lc-bar').length > 0);
        const daily = await chart(page, '.lc-a-overview .lc-a-wide');
        expect(daily.name).to.equal('Interactions by day');
        expect(daily.description.split('; ')).to.have.length(7);
        expect(daily.bars).to.equal(4 * 7);
        expect(daily.xLabels).to.have.length(7);
        await shot(page, '01-overview');
        const violations = await axeViolations(page);
        expect(violations, violations.join('\n')).to.deep.equal([]);
    });

    it('opens the Failed Attempts dialog from the keyboard, with §4 labels and New York times', async () => {
        await page.focus('[data-testid="failed-attempts"]');
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid="failed-table"] tbody tr');
        const labels = await page.$$eval('[data-testid="failed-table"] tbody tr td:nth-child(3)', (els) => [...new Set(els.map((e) => e.textContent))]);
        expect(labels).to.include('Failed to Send Code');
        expect(labels).to.include('Invalid Code Entered');
        expect(await text(page, '[data-testid="failed-table"] thead')).to.contain('America/New_York');
        expect(await text(page, '[data-testid="failed-table"]')).to.not.contain('not a valid number');
        await shot(page, '02-failed-attempts-dialog');
        // The focus moves in when the dialog has finished opening (its transition), which the rows may beat.
        await page.waitForFunction(() => !!document.activeElement?.closest('.bp5-dialog'), { timeout: 3000 })
            .catch(() => expect.fail('the focus is in the dialog'));
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => !document.querySelector('.bp5-dialog'));
    });

    it('pages the phones, resets to page 1 on a new page size, and opens a phone\'s details', async () => {
        await clickText(page, '.bp5-tab', 'Phones');
        await page.waitForSelector('[data-testid="phones-table"] tbody tr');
        expect(await page.$$eval('[data-testid="phones-table"] tbody tr', (r) => r.length)).to.equal(20);
        await clickText(page, '.lc-pager button', 'Next');
        await page.waitForFunction(() => document.querySelector('.lc-pager')?.textContent?.includes('Page 2 of'));
        await page.select('.lc-pager select', '50');
        await page.waitForFunction(() => document.querySelector('.lc-pager')?.textContent?.includes('Page 1 of'));
        expect(await page.$$eval('[data-testid="phones-table"] tbody tr', (r) => r.length)).to.equal(50);
        await page.waitForFunction(() => !document.body.textContent?.includes('Looking up…'));
        await shot(page, '03-phones');
        await page.evaluate(() => (document.querySelector('[data-testid="phones-table"] tbody tr .lc-link-button') as HTMLElement).click());
        await page.waitForFunction(() => document.querySelector('.bp5-dialog')?.textContent?.includes('Points history'));
        await shot(page, '04-phone-dialog');
        await closeDialog(page);
    });

    it('lists chat sessions with a messages dialog and star', async () => {
        await clickText(page, '.bp5-tab', 'Chat');
        await page.waitForSelector('[data-testid="chat-table"] tbody tr');
        expect(await text(page, '[data-testid="chat-table"]')).to.contain('Completed');
        await page.click('[aria-label="Messages of session widget_e2e_done"]');
        await page.waitForFunction(() => document.querySelector('.bp5-dialog')?.textContent?.includes('Let me check that for you.'));
        await shot(page, '05-chat-messages-dialog');
        await closeDialog(page);
        const starButton = await page.$('[data-testid="chat-table"] [aria-label="Star"]');
        await starButton!.click();
        await page.waitForFunction(() => !!document.querySelector('[data-testid="chat-table"] [aria-label="Unstar"]'));
        const stored = await t.server.app.services.livechat.analyticsSessions(shop.organization.id, { from: 0, to: Date.now() });
        expect(stored.rows.some((r) => r.isStarred)).to.equal(true);
        await shot(page, '06-chat');
    });

    it('shows chat trends, durations, orders (with View Orders), domains, live chat, websocket, questions and AI agent tabs', async () => {
        await clickText(page, '.bp5-tab', 'Chat trends');
        const trends = await chart(page, '.lc-a-panel');
        expect(trends.name).to.equal('Chat sessions per day');
        expect(trends.lines).to.have.length(2);
        const days = trends.description.split('; ').length;
        expect(days).to.be.at.least(28);
        expect(trends.points).to.equal(2 * days);
        // Every day has a figure (0 included): each line is one unbroken stroke.
        expect(trends.lines.map((d) => d.split('M').length - 1)).to.deep.equal([1, 1]);
        await shot(page, '07-chat-trends');
        await clickText(page, '.bp5-tab', 'Durations');
        await page.waitForFunction(() => document.querySelector('.lc-a-panel')?.textContent?.includes('Completed sessions'));
        await shot(page, '08-durations');
        await clickText(page, '.bp5-tab', 'Orders');
        await page.waitForSelector('[data-testid="orders-table"] tbody tr');
        expect(await text(page, '[data-testid="orders-table"]')).to.contain('Provider timeout');
        const rows = await page.$$('[data-testid="orders-table"] tbody tr');
        const phones = await page.$$eval('[data-testid="orders-table"] tbody tr td:first-child', (els) => els.map((e) => e.textContent));
        await (await rows[phones.indexOf('(555) 555-0100')].$('button'))!.click();
        await page.waitForFunction(() => document.querySelector('.bp5-dialog')?.textContent?.includes('Avery Stone'));
        await shot(page, '09-orders-dialog');
        await closeDialog(page);
        await clickText(page, '.bp5-tab', 'Domains');
        await page.waitForSelector('[data-testid="domain-card"]');
        await clickText(page, '[data-testid="domain-card"] button', 'Show activity');
        await page.waitForSelector('[data-testid="domain-card"] table tbody tr');
        expect(await page.$$eval('[data-testid="domain-card"] .lc-pager button', (b) => b.length)).to.equal(5);
        await shot(page, '10-domains');
        await clickText(page, '.bp5-tab', 'Live Chat');
        await page.waitForFunction(() => document.querySelector('.lc-a-waiting')?.textContent?.includes('(555) 555-0177'));
        await shot(page, '11-live-chat');
        await clickText(page, '.bp5-tab', 'WebSocket');
        await page.waitForFunction(() => document.querySelector('.lc-a-panel')?.textContent?.includes('Agent connections'));
        await shot(page, '12-websocket');
        await clickText(page, '.bp5-tab', 'Questions');
        await page.waitForSelector('[data-testid="questions-table"] tbody tr');
        await shot(page, '13-questions');
        await clickText(page, '.bp5-tab', 'AI Agent');
        await page.waitForSelector('.lc-a-panel [data-testid=ai-agent-panel] [data-testid=ai-enabled-tag]');
        // The panel shows before its figures arrive: wait for them.
        await page.waitForFunction(() => {
            const panel = document.querySelector('.lc-a-panel [data-testid=ai-agent-panel]')?.textContent ?? '';
            return panel.includes('Questions (30 days)0') && panel.includes('Hand-offs0');
        }, { timeout: 10000 });
        await shot(page, '14-ai-agent');
    });

    it('draws the Quality tab\'s distribution and daily trend, a day without ratings being a gap (not an average of 0)', async () => {
        await clickText(page, '.bp5-tab', 'Quality');
        await page.waitForSelector('[data-testid="csat-daily"] .lc-point');
        const distribution = await chart(page, '[data-testid="csat-distribution-chart"]');
        expect(distribution.name).to.equal('Ratings from 1 to 5');
        expect(distribution.bars).to.equal(5);
        expect(distribution.xLabels).to.deep.equal(['1', '2', '3', '4', '5']);
        expect(distribution.description).to.equal('1 Ratings 0; 2 Ratings 0; 3 Ratings 0; 4 Ratings 1; 5 Ratings 0');
        const daily = await chart(page, '[data-testid="csat-daily"]');
        expect(daily.name).to.equal('Ratings per day');
        const days = daily.description.split('; ');
        expect(days.length).to.be.at.least(28);
        // Only today has a rating: responses has a point every day (0 included), the average one point and no segment.
        expect(days.filter((d) => d.endsWith('Average rating 4'))).to.have.length(1);
        expect(days.filter((d) => d.endsWith('Average rating —'))).to.have.length(days.length - 1);
        expect(daily.points).to.equal(days.length + 1);
        expect(daily.lines).to.have.length(2);
        expect(daily.lines[0].split('M').length - 1, 'responses: one stroke').to.equal(1);
        expect(daily.lines[1], 'average: no segment to a day without ratings').to.not.contain('L');
        await shot(page, '20-quality');
    });

    it('filters by a date range (end defaults to start) and clears it', async () => {
        await clickText(page, '.bp5-tab', 'Overview');
        const day = addDays(dayKey(Date.now(), zone), -2);
        await page.$eval('#lc-start-date', (el, v) => {
            const input = el as HTMLInputElement;
            Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, v);
            input.dispatchEvent(new Event('input', { bubbles: true }));
        }, day);
        // The range in words, in the agent's language (English: "Nov 25, 2026 to Nov 25, 2026").
        const words = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`));
        await page.waitForFunction((d: string) => document.querySelector('h1 + p')?.textContent?.startsWith(`${d} to ${d}`), {}, words);
        const res = await t.server.inject({ method: 'GET', url: `/api/analytics/summary?startDate=${day}`, headers: { authorization: `Bearer ${shop.admin.token}` } });
        await page.waitForFunction((n: string) => document.querySelector('.lc-a-summary .lc-stat-value')?.textContent === n, {}, en((res.result as any).totalInteractions));
        await shot(page, '15-date-filter');
        await clickText(page, '.lc-a-filter button', 'Clear');
        await page.waitForFunction((d: string) => !document.querySelector('h1 + p')?.textContent?.startsWith(`${d} to ${d}`), {}, words);
    });

    it('downloads a table as CSV', async () => {
        await clickText(page, '.bp5-tab', 'Phones');
        await page.waitForSelector('[data-testid="download-phones"]');
        await page.click('[data-testid="download-phones"]');
        const deadline = Date.now() + 20000;
        let file: string | undefined;
        while (!file && Date.now() < deadline) {
            file = Fs.readdirSync(downloads).find((f) => f.endsWith('.csv'));
            await new Promise((r) => setTimeout(r, 100));
        }
        expect(file).to.match(/^analytics-phones-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
        const csv = Fs.readFileSync(Path.join(downloads, file!), 'utf8');
        expect(csv.split('\r\n')[0]).to.equal(`phoneNumber,totalInteractions,successfulVerifications,failedVerifications,lastPointsShown,lastActivity (${zone}),successRate,customerName,customerEmail`);
        expect(csv.trim().split('\r\n').length).to.be.greaterThan(50);
    });

    it('works at 390 px wide: phone cards, wrapped tabs, no sideways scrolling', async () => {
        await page.setViewport({ width: 390, height: 844 });
        await page.goto(`${t.url}/analytics?tab=phones`, { waitUntil: 'networkidle0' });
        await page.waitForSelector('[data-testid="phones-cards"] li');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).to.be.at.most(0);
        await shot(page, '16-phones-390px');
        await page.goto(`${t.url}/analytics`, { waitUntil: 'networkidle0' });
        await page.waitForSelector('.lc-a-overview .lc-a-card:nth-child(1) svg[role="img"] path');
        await page.waitForFunction(() => document.querySelectorAll('.lc-a-overview .lc-a-wide .lc-bar').length > 0);
        // The charts are drawn at the card's width (labels keep their size), so fewer day labels are written.
        const narrow = await chart(page, '.lc-a-overview .lc-a-wide');
        expect(narrow.xLabels.length).to.be.within(2, 7);
        const widths = await page.$$eval('.lc-chart svg[role="img"]', (svgs) => svgs.map((s) => Math.round(s.getBoundingClientRect().right)));
        expect(Math.max(...widths)).to.be.at.most(390);
        await shot(page, '17-overview-390px');
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.be.at.most(0);
        await page.goto(`${t.url}/analytics?tab=quality`, { waitUntil: 'networkidle0' });
        await page.waitForSelector('[data-testid="csat-daily"] .lc-point');
        await shot(page, '21-quality-390px');
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.be.at.most(0);
    });

    it('shows the admin home\'s four stat cards from the summary', async () => {
        await page.setViewport({ width: 1280, height: 900 });
        await page.goto(`${t.url}/admin-dashboard`, { waitUntil: 'networkidle0' });
        await page.waitForFunction(() => document.querySelectorAll('.lc-stats .lc-stat-value').length === 4
            && Array.from(document.querySelectorAll('.lc-stats .lc-stat-value')).every((e) => e.textContent !== '—'));
        const res = await t.server.inject({ method: 'GET', url: '/api/analytics/summary?days=30', headers: { authorization: `Bearer ${shop.admin.token}` } });
        const s = res.result as any;
        const values = await page.$$eval('.lc-stats .lc-stat-value', (els) => els.map((e) => e.textContent));
        expect(values).to.deep.equal([`${s.successRate}%`, String(s.activeDomains), String(s.loyaltyChecks), String(s.liveChatSessions)]);
        await shot(page, '18-admin-home');
    });

    it('gives the organization user a period selector and the daily chart', async () => {
        const org = await browser.newPage();
        await org.setViewport({ width: 1280, height: 900 });
        await org.goto(`${t.url}/org-login`, { waitUntil: 'networkidle0' });
        await org.type('#login-email', shop.orgUser.email);
        await org.type('#login-password', shop.orgUser.password);
        await org.click('button[type=submit]');
        await org.waitForFunction(() => location.pathname === '/org-dashboard');
        await clickText(org, '.bp5-tab', 'Analytics');
        await org.waitForSelector('[data-testid="org-daily-chart"] .lc-bar');
        const month = await chart(org, '[data-testid="org-daily-chart"]');
        expect(month.name).to.equal('Daily interactions');
        expect(month.bars).to.equal(4 * month.description.split('; ').length);
        expect(month.bars).to.be.greaterThan(4 * 28);
        await org.select('#org-period', '7');
        // 7 days × 4 stacked series; each day labelled (MM-DD) at 1280 px.
        await org.waitForFunction(() => document.querySelectorAll('[data-testid="org-daily-chart"] .lc-bar').length === 4 * 7);
        const week = await chart(org, '[data-testid="org-daily-chart"]');
        expect(week.xLabels).to.have.length(7);
        week.xLabels.forEach((l) => expect(l).to.match(/^[A-Z][a-z]{2} \d{1,2}$/));     // the days in the reader's language: "Nov 21"
        expect(week.description.split('; ')).to.have.length(7);
        expect(week.legend).to.deep.equal(['Opened', 'Verified', 'Points viewed', 'Live chat']);
        await shot(org, '19-org-dashboard-analytics');
        await org.setViewport({ width: 390, height: 844 });
        await org.waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
        await shot(org, '20-org-dashboard-390px');
        await org.close();
    });
});
