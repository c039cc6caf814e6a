import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { importCustomers } from '../helpers/loyalty';
import { launchBrowser, screenshot } from '../helpers/browser';
import { createSession } from '../helpers/livechat-client';
import { generateEvents } from '../../plugins/analytics/lib/generate';

/** Every tab of /analytics, by its ?tab= id. */
const TABS = ['overview', 'phones', 'chat', 'chat-trends', 'durations', 'orders', 'domains', 'live-chat', 'quality', 'websocket', 'questions', 'ai-agent'];

/**
 * English texts of the analytics pages and History (their tab names, headings, labels, buttons, empty states): none may be
 * left in Spanish. (Arabic is checked more strictly: no Latin word at all but the data's own.)
 */
const ENGLISH = [
    'Overview', 'Phones', 'Chat trends', 'Durations', 'Orders', 'Domains', 'Quality', 'AI Agent', 'Download CSV', 'Start date', 'End date',
    'Chat sessions', 'Failed Attempts', 'Points Viewed', 'Total Interactions', 'Interaction types', 'By hour of day', 'By day', 'Rows per page',
    'Previous', 'Next', 'Page', 'Completed', 'Waiting customers', 'Active chats', 'Customer connections', 'Agent connections', 'Last connection',
    'Recent sessions', 'Order history views', 'Show activity', 'interactions', 'Tier 1', 'Enabled', 'Hand-offs', 'Customer ratings', 'Responses',
    'Successful Verifications', 'Opened', 'Points viewed', 'Sessions', 'Last activity', 'Pre-made question usage', 'Clicks', 'Handle Chats',
    'Manage Questions', 'AI Management', 'See Chat Sessions', 'View Orders', 'Average', 'Longest', 'Failed verification attempts',
    'Invalid Code Entered', 'Failed to Send Code', 'Past chats', 'Search messages', 'Starred only', 'Archived', 'Transcript', 'Started', 'ended',
    'msgs', 'Nov', 'Dec', 'Jan', 'AM', 'PM'
];

/** The English texts of `ENGLISH` found in `texts` (whole words). */
function english(texts: string[]): string[] {
    const all = texts.join('\n');
    return ENGLISH.filter((e) => new RegExp(`(^|[^\\p{L}])${e}($|[^\\p{L}])`, 'u').test(all));
}

/** Latin words that are ours in no language: product and format names, key names, and the parts of Intl's output that stay Latin. */
const NOT_TEXT = /\b(WebSocket|CSV|UTC|GMT|Enter|Esc)\b|\bj\/k\b|[A-Za-z_]+\/[A-Za-z_]+|[\w.+-]+@[\w.-]+|\b[\w-]+(\.[\w-]+)+\b/g;

/** The pseudo-locale formats dates as English: Intl's month and zone abbreviations are not catalogue texts. */
const INTL_ENGLISH = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|AM|PM|EST|EDT|CST|CDT)\b/g;

/**
 * The shown texts of `root` that are ours, not the data's (customers' words, names, e-mails, codes, domains: elements
 * marked dir="auto"/"ltr", code, the tables' member cells): all of them (`all`), or those with a Latin word once product
 * names, zones, e-mails and domains are taken out (`latin`: Arabic has none), or outside the pseudo-locale's brackets
 * once Intl's English abbreviations are taken out too (`unbracketed`).
 */
function misses(page: Page, root: string, miss: 'all' | 'latin' | 'unbracketed'): Promise<string[]> {
    return page.evaluate((selector: string, kind: string, notText: string, intl: string) => {
        const out: string[] = [];
        for (const el of Array.from(document.querySelectorAll(selector))) {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                const parent = n.parentElement!;
                if (parent.closest('code, [dir="auto"], [dir="ltr"], .lc-a-member, .lc-a-error, .lc-msg, .lc-chat-preview, .lc-customer dd, .bp5-icon, [data-testid="chat-language"], option, script, style')) {
                    continue;
                }
                if (!parent.closest('svg') && parent.offsetParent === null && getComputedStyle(parent).position !== 'fixed') {
                    continue;
                }
                if (kind === 'all') {
                    out.push(n.textContent!.trim());
                    continue;
                }
                let text = n.textContent!.replace(new RegExp(notText, 'g'), ' ');
                if (kind === 'unbracketed') {
                    text = text.replace(/⟦[^⟧]*⟧/g, ' ').replace(new RegExp(intl, 'g'), ' ');
                }
                if (/[A-Za-z]{3,}/.test(text)) {
                    out.push(n.textContent!.trim());
                }
            }
        }
        return [...new Set(out)];
    }, root, miss, NOT_TEXT.source, INTL_ENGLISH.source);
}

/** Elements past the window's edges (either side: right to left too), outside dialogs and the tables' own sideways-scrolling boxes. */
function pastEdges(page: Page): Promise<{ page: number; wide: string[] }> {
    return page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        wide: Array.from(document.querySelectorAll('main *')).filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1) && !el.closest('.bp5-overlay, .lc-a-scroll, .lc-table-scroll');
        }).map((el) => `${el.tagName.toLowerCase()}.${String((el as HTMLElement).className)}`).slice(0, 5)
    }));
}

describe('the analytics pages (every tab), History and the system test\'s log in the agent\'s language: Spanish, Arabic right to left, pseudo-localized (issue 27)', function () {
    this.timeout(240000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;
    const ENDED = 'widget_1700000000000_endedforhistory';

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'estadisticas', 'estadisticas.test');
        const org = shop.organization.id;
        const services = t.server.app.services;
        await services.questions.addDefaults(org);
        await importCustomers(t.server, org, [['+15555550100', 'Avery Stone', 'avery@example.com', 'AIQ-100', 1250],
            ...Array.from({ length: 24 }, (_, i): [string, string, string, string, number] => [`+1212555${2000 + i}`, `Member ${i}`, `m${i}@example.com`, `M-${i}`, (i * 37) % 3000])]);
        await generateEvents(services.analytics, { organizationId: org, events: 1200, days: 7, domains: ['estadisticas.test'], seed: 11, members: await services.loyalty.listMembers(org) });
        await services.analytics.track({ organizationId: org, action: 'order_history_viewed', phoneNumber: '+15555550100', success: true, domain: 'estadisticas.test', sessionId: 'widget_orders_lang_1' });
        await services.analytics.track({ organizationId: org, action: 'order_history_viewed', phoneNumber: '+15555550123', success: false, errorMessage: 'Provider timeout', domain: 'estadisticas.test' });
        await t.server.app.jobs.drain();
        const chat = services.livechat;
        await chat.createSession({ organizationId: org, botInstanceId: shop.bot.id, sessionId: ENDED, phoneNumber: '+15555550100', customerMessage: '¿Dónde está mi pedido?', domain: 'estadisticas.test' });
        await chat.accept(org, shop.admin.id, ENDED);
        await chat.sendMessage(org, ENDED, { sender: 'agent', userId: shop.admin.id }, { message: 'Lo reviso ahora mismo.' });
        await chat.end(org, ENDED, 'agent');
        const rated = await createSession(t.server, shop, 'widget_1700000000001_ratedchatforqual', 'Gracias', '+15555550142');
        await chat.accept(org, shop.admin.id, 'widget_1700000000001_ratedchatforqual');
        await chat.end(org, 'widget_1700000000001_ratedchatforqual', 'agent');
        const rating = await t.server.inject({ method: 'POST', url: '/api/chat/session/widget_1700000000001_ratedchatforqual/rating', headers: { authorization: `Bearer ${rated.token}` }, payload: { score: 5 } });
        expect(rating.statusCode, rating.payload).to.equal(201);
        await t.server.app.jobs.drain();
        await chat.createSession({ organizationId: org, botInstanceId: shop.bot.id, sessionId: 'widget_1700000000002_waitingcustomer1', phoneNumber: '+15555550177', customerMessage: 'Hola', domain: 'estadisticas.test' });
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    /** A staff page as the store's admin in `lang` (the language remembered on this browser), `width` px wide. */
    async function staffPage(lang: string, width: number): Promise<Page> {
        const page = await browser.newPage();
        await page.setViewport({ width, height: 900 });
        // The browser is in another zone than the store: every time shown must be the store's (New York), named.
        await page.emulateTimezone('Asia/Tokyo');
        await page.evaluateOnNewDocument(`Object.defineProperty(navigator, 'languages', { get: () => ['en-US', 'en'] });`);
        await page.goto(`${t.url}/admin-login`, { waitUntil: 'domcontentloaded' });
        await page.evaluate((token: string, l: string) => {
            localStorage.clear();
            localStorage.setItem('adminToken', token);
            localStorage.setItem('lc-admin-lang', l);
        }, shop.admin.token, lang);
        return page;
    }

    /**
     * Opens one tab of /analytics and waits until its figures, tables and charts are drawn: the page's first tab by its
     * address (?tab=), the next ones by a click on the tab, as the agent does (the app is not loaded again for each).
     */
    async function openTab(page: Page, tab: string): Promise<void> {
        if (new URL(page.url()).pathname === '/analytics' && await page.$('.lc-a-tabs')) {
            // The tab's own click (a pointer at its box misses in a right-to-left list scrolled sideways at 390 px).
            await page.$eval(`#bp5-tab-title_analytics-tabs_${tab}`, (el) => (el as HTMLElement).click());
        }
        else {
            await page.goto(`${t.url}/analytics?tab=${tab}`, { waitUntil: 'networkidle2' });
        }
        await page.waitForSelector(`.lc-a-panel#bp5-tab-panel_analytics-tabs_${tab}`);
        await page.waitForFunction(() => {
            const panel = document.querySelector('.lc-a-panel');
            return !!panel && panel.textContent!.trim() !== '' && !panel.querySelector('.lc-analytics-loading, .lc-chart-loading, .bp5-spinner, [data-testid="lookup-pending"]');
        }, { timeout: 20000 });
    }

    for (const lang of ['es', 'ar'] as const) {
        for (const width of [1280, 390]) {
            it(`every analytics tab and the failed attempts in ${lang === 'es' ? 'Spanish' : 'Arabic, right to left'} at ${width} px: no English, nothing past an edge`, async () => {
                const page = await staffPage(lang, width);
                const problems: string[] = [];
                for (const tab of TABS) {
                    await openTab(page, tab);
                    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).to.deep.equal([lang, lang === 'ar' ? 'rtl' : 'ltr']);
                    if (lang === 'es') {
                        problems.push(...english(await misses(page, 'main', 'all')).map((e) => `${tab}: "${e}"`));
                    }
                    else {
                        problems.push(...(await misses(page, 'main', 'latin')).map((s) => `${tab}: Latin text left: ${s}`));
                    }
                    const edges = await pastEdges(page);
                    if (edges.page > width) {
                        problems.push(`${tab}: the page is ${edges.page} px wide`);
                    }
                    problems.push(...edges.wide.map((el) => `${tab}: ${el} past an edge`));
                    if ((lang === 'ar' && width === 390) || (lang === 'es' && width === 1280)) {
                        // Right to left: the window scrolled to the tab's content (a full-page capture of an RTL page draws it shifted).
                        if (lang === 'ar') {
                            await page.$eval('.lc-a-tabs', (el) => el.scrollIntoView());
                        }
                        await screenshot(page, `staff-${lang}-analytics-${tab}-${width}`, { fullPage: lang !== 'ar' });
                    }
                }
                // The Spanish range line: dates in words, the store's zone named.
                await openTab(page, 'overview');
                const range = await page.$eval('[data-testid="analytics-range"]', (p) => p.textContent);
                expect(range).to.match(lang === 'es' ? /^Del \d{1,2} [a-z]+\.? \d{4} al \d{1,2} [a-z]+\.? \d{4} \(America\/New_York\)$/ : /^من .+ إلى .+ \(America\/New_York\)$/);
                // The daily chart's axis names the days in the language ("25 nov", "25 نوفمبر").
                const ticks = await page.$$eval('.lc-a-overview .lc-a-wide svg text', (els) => els.map((e) => e.textContent ?? '').filter(Boolean));
                expect(ticks.filter((s) => (lang === 'ar' ? /^[\d٠-٩]{1,2} [\u0600-\u06FF]+$/ : /^\d{1,2} [a-z]{3,4}\.?$/).test(s)), ticks.join(' | ')).to.have.length.of.at.least(3);
                // The failed attempts dialog: its labels, and its times in New York's zone (not Tokyo's), named.
                await page.$eval('[data-testid="failed-attempts"]', (b) => (b as HTMLElement).click());
                await page.waitForSelector('[data-testid="failed-table"] tbody tr', { timeout: 10000 });
                if (lang === 'es') {
                    expect(await page.$eval('.bp5-dialog', (d) => (d as HTMLElement).innerText)).to.include('Intentos de verificación fallidos');
                    problems.push(...english(await misses(page, '.bp5-dialog', 'all')).map((e) => `failed attempts: "${e}"`));
                }
                else {
                    problems.push(...(await misses(page, '.bp5-dialog', 'latin')).map((s) => `failed attempts: Latin text left: ${s}`));
                }
                expect(await page.$eval('[data-testid="failed-table"] thead', (h) => h.textContent)).to.include('America/New_York');
                expect(problems, `${lang} at ${width} px`).to.deep.equal([]);
                await page.close();
            });
        }
    }

    for (const lang of ['es', 'ar'] as const) {
        it(`History in ${lang === 'es' ? 'Spanish' : 'Arabic'}: the started/ended line, the statuses and the filters, at 1280 and 390 px`, async () => {
            const page = await staffPage(lang, 1280);
            await page.goto(`${t.url}/admin-chat/history?session=${ENDED}`, { waitUntil: 'networkidle2' });
            await page.waitForSelector('.lc-transcript-meta', { timeout: 15000 });
            await page.waitForSelector(`[data-testid="history-list"] li[data-session="${ENDED}"]`);
            const meta = await page.$eval('.lc-transcript-meta', (m) => m.textContent!.trim());
            // "Empezó 27 nov, 10:05 GMT-5 · terminó … · Completado (terminado por el agente)": times in New York's zone, named.
            expect(meta).to.match(lang === 'es' ? /^Empezó .+ · terminó .+ · Completado \(terminado por el agente\)$/ : /^بدأت .+ · انتهت .+ · مكتملة \(أنهاها الموظف\)$/);
            const item = await page.$eval(`[data-testid="history-list"] li[data-session="${ENDED}"] .lc-chat-open > .lc-chat-item-meta`, (m) => m.textContent!.trim());
            expect(item).to.match(lang === 'es' ? /^Completado · \d+ mensajes?$/ : /^مكتملة · (رسالة واحدة|رسالتان|[\d٠-٩]+ رسائل|[\d٠-٩]+ رسالة)$/);
            const problems: string[] = [];
            for (const width of [1280, 390]) {
                await page.setViewport({ width, height: 900 });
                if (width === 390) {
                    // On a phone one pane shows at a time: the list, then the transcript.
                    await page.goto(`${t.url}/admin-chat/history`, { waitUntil: 'networkidle2' });
                    await page.waitForSelector('[data-testid="history-list"] li');
                }
                if (lang === 'es') {
                    problems.push(...english(await misses(page, 'main', 'all')).map((e) => `${width}: "${e}"`));
                }
                else {
                    problems.push(...(await misses(page, 'main', 'latin')).map((s) => `${width}: Latin text left: ${s}`));
                }
                const edges = await pastEdges(page);
                if (edges.page > width) {
                    problems.push(`${width}: the page is ${edges.page} px wide`);
                }
                problems.push(...edges.wide.map((el) => `${width}: ${el} past an edge`));
                await screenshot(page, `staff-${lang}-history-${width}`, { fullPage: lang !== 'ar' });
            }
            expect(problems).to.deep.equal([]);
            await page.close();
        });
    }

    it('pseudo-localized at 390 px: every analytics tab, the failed attempts and History have no text outside the catalogue and nothing past an edge', async () => {
        const page = await staffPage('en-XA', 390);
        const problems: string[] = [];
        for (const tab of TABS) {
            await openTab(page, tab);
            problems.push(...(await misses(page, 'main', 'unbracketed')).map((s) => `${tab}: English left: ${s}`));
            const edges = await pastEdges(page);
            if (edges.page > 390) {
                problems.push(`${tab}: the page is ${edges.page} px wide`);
            }
            problems.push(...edges.wide.map((el) => `${tab}: ${el} past the right edge`));
            await screenshot(page, `staff-pseudo-390-analytics-${tab}`);
        }
        await page.$eval('[data-testid="failed-attempts"]', (b) => (b as HTMLElement).click());
        await page.waitForSelector('[data-testid="failed-table"] tbody tr', { timeout: 10000 });
        problems.push(...(await misses(page, '.bp5-dialog', 'unbracketed')).map((s) => `failed attempts: English left: ${s}`));
        await page.goto(`${t.url}/admin-chat/history?session=${ENDED}`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('.lc-transcript-meta', { timeout: 15000 });
        for (const pane of ['conversation', 'list']) {
            if (pane === 'list') {
                await page.$eval('.lc-pane-back', (b) => (b as HTMLElement).click());
                await page.waitForSelector('[data-testid="history-list"] li', { visible: true });
            }
            problems.push(...(await misses(page, 'main', 'unbracketed')).map((s) => `history ${pane}: English left: ${s}`));
            const edges = await pastEdges(page);
            problems.push(...edges.wide.map((el) => `history ${pane}: ${el} past the right edge`));
            await screenshot(page, `staff-pseudo-390-history-${pane}`);
        }
        expect(problems).to.deep.equal([]);
        await page.close();
    });

    it('the system test\'s websocket log: each message\'s time in the store\'s zone (not the browser\'s), to the millisecond, named', async () => {
        const page = await staffPage('es', 1280);
        await page.goto(`${t.url}/test`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('[data-testid="test-websocket"] button:not([disabled])');
        await page.$$eval('[data-testid="test-websocket"] button', (buttons) => (buttons[buttons.length - 1] as HTMLButtonElement).click());
        await page.waitForSelector('[data-testid="ws-time"]', { timeout: 15000 });
        const times = await page.$$eval('[data-testid="ws-time"]', (els) => els.map((e) => e.textContent ?? ''));
        const hour = (zone: string) => Number(new Intl.DateTimeFormat('en', { hour: '2-digit', hourCycle: 'h23', timeZone: zone }).format(new Date()));
        const shown = Number(times[0].slice(0, 2));
        // New York's hour (a minute may have turned since): never Tokyo's, the browser's zone here.
        expect([hour('America/New_York'), (hour('America/New_York') + 23) % 24]).to.include(shown);
        expect(shown).to.not.equal(hour('Asia/Tokyo'));
        times.forEach((time) => expect(time).to.match(/^\d{2}:\d{2}:\d{2}[.,]\d{3} \S+/));
        await page.close();
    });
});
