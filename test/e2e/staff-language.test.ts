import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import * as Fs from 'fs';
import * as Path from 'path';
import { launchBrowser, screenshot, SCREENSHOT_DIR, SCREENSHOTS, storeAdminToken } from '../helpers/browser';
import { connectAgent, NesClient, request, setAvailable } from '../helpers/livechat-client';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';

/** A widget's create-session, as a customer's widget in this language sends it. */
async function chatIn(t: TestServer, tenant: Tenant, sessionId: string, lang: string, message: string): Promise<void> {
    const res = await t.server.inject({
        method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': tenant.bot.publicKey },
        payload: { sessionId, phoneNumber: null, customerMessage: message, lang }
    });
    expect(res.statusCode, res.payload).to.be.oneOf([200, 201]);
}

const visibleText = (page: Page) => page.evaluate(() => document.body.innerText) as Promise<string>;

/**
 * The window, not the full page: Chromium's full-page capture of a right-to-left page draws it shifted although nothing
 * in it is past an edge (each test checks the scroll width).
 */
async function viewportShot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) {
        Fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: Path.join(SCREENSHOT_DIR, `${name}.png`) as `${string}.png` });
    }
}

/** Who a page is for: the localStorage its session lives in (set per test, before the page is opened). */
type Storage = Record<string, string>;

/**
 * The staff pages converted last (issue 27): each one's own heading or tab in Spanish and in Arabic, and English texts
 * of it that must be gone.
 */
const PAGES: Array<{ path: string; as: 'admin' | 'org' | 'root'; es: string; ar: string; english: string[] }> = [
    { path: '/admin-questions', as: 'admin', es: 'Preguntas predefinidas', ar: 'الأسئلة الجاهزة', english: ['Pre-made Questions', 'Manage Questions', 'Add Question', 'Move up', 'Active'] },
    { path: '/ai-management', as: 'admin', es: 'Gestión de la IA', ar: 'إدارة الذكاء الاصطناعي', english: ['AI Management', 'Knowledge Base', 'Chat History', 'Add Entry', 'Import'] },
    { path: '/ai-test', as: 'admin', es: 'Probar el agente de IA', ar: 'اختبار وكيل الذكاء الاصطناعي', english: ['Test the AI agent', 'What it used', 'Ask'] },
    { path: '/test', as: 'admin', es: 'Pruebas del sistema', ar: 'اختبارات النظام', english: ['System Tests', 'Run All Tests', 'Waiting sessions', 'Pending', 'Total interactions'] },
    { path: '/org-dashboard', as: 'org', es: 'Interacciones totales', ar: 'إجمالي التفاعلات', english: ['Overview', 'Total interactions', 'Loyalty checks', 'Signed in as', 'Period'] },
    { path: '/super-admin', as: 'root', es: 'Clientes', ar: 'المستأجرون', english: ['Tenants', 'Organizations', 'Bot Instances', 'Users', 'Last login', 'Deactivate'] },
    { path: '/no-such-page', as: 'admin', es: '404 Página no encontrada', ar: '404 الصفحة غير موجودة', english: ['Page Not Found', 'Go to the home page'] }
];

describe('the staff app in the agent\'s language, and each chat\'s language in the console (issue 27)', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let shop: Tenant;
    let agent: { client: NesClient };
    const sessions: Record<'admin' | 'org' | 'root', Storage> = { admin: {}, org: {}, root: {} };

    /** A page of the staff app for this kind of user, in this language (the one remembered on the browser). */
    async function staffPage(as: 'admin' | 'org' | 'root', lang: string, width = 1280): Promise<Page> {
        const page = await browser.newPage();
        await page.setViewport({ width, height: 860 });
        await page.evaluateOnNewDocument(`Object.defineProperty(navigator, 'languages', { get: () => ['en-US', 'en'] });`);
        await page.goto(`${t.url}/admin-login`, { waitUntil: 'domcontentloaded' });
        await page.evaluate((values: Storage) => {
            localStorage.clear();
            for (const [key, value] of Object.entries(values)) {
                localStorage.setItem(key, value);
            }
        }, { ...sessions[as], 'lc-admin-lang': lang });
        return page;
    }

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'tienda', 'localhost');
        agent = await connectAgent(t.url, shop);
        await setAvailable(t.server, shop, true);
        await chatIn(t, shop, 'widget_1700000000000_spanishcustomer1', 'es-MX', '¿Dónde está mi pedido?');
        await chatIn(t, shop, 'widget_1700000000001_arabiccustomer01', 'ar', 'أين طلبي؟');
        // One chat accepted, so the active list and the conversation show too.
        await request(agent.client, 'POST', '/api/chat/session/widget_1700000000000_spanishcustomer1/accept');
        // The store's content on the questions page; the other kinds of staff, signed in as the app keeps them.
        for (const q of DEFAULT_QUESTIONS.slice(0, 2)) {
            await t.server.app.services.questions.create(shop.organization.id, q);
        }
        const rootPassword = 'operator-password-1';
        await t.server.app.services.users.create({ email: 'root@lang-platform.test', password: rootPassword, role: 'super_admin' });
        const login = async (url: string, email: string, password: string) => {
            const res = await t.server.inject({ method: 'POST', url, payload: { email, password } });
            expect(res.statusCode, res.payload).to.equal(200);
            return JSON.parse(res.payload);
        };
        sessions.admin = { adminToken: shop.admin.token };
        const org = await login('/api/org/login', shop.orgUser.email, shop.orgUser.password);
        sessions.org = { orgToken: org.token, orgUser: JSON.stringify(org.user) };
        sessions.root = { superAdminToken: (await login('/api/super-admin/login', 'root@lang-platform.test', rootPassword)).token };
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        agent?.client.disconnect();
        await t?.close();
    });

    it('an agent picks Spanish in their profile: the whole console speaks Spanish, after a reload too, and shows each chat\'s language', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 860 });
        await page.evaluateOnNewDocument(`Object.defineProperty(navigator, 'languages', { get: () => ['en-US', 'en'] });`);
        await storeAdminToken(page, t.url, shop.admin.token);
        await page.goto(`${t.url}/admin-chat`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('[data-testid="waiting-list"]');
        expect(await page.$eval('h1', (h) => h.textContent)).to.equal('Live Chat');
        // The waiting Arabic customer and the accepted Spanish one (in the list and above the conversation), each with their language.
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-language"]').length >= 2, { timeout: 10000 });
        const tags = await page.$$eval('[data-testid="chat-language"]', (els) => els.map((e) => [e.textContent, e.getAttribute('aria-label')]));
        expect(tags).to.deep.include.members([['AR', 'Language: العربية'], ['ES-MX', 'Language: Español']]);

        await page.click('[data-testid="open-profile"]');
        await page.waitForSelector('#lc-profile-language:not([disabled])');      // the profile loaded (a choice made before it would be reset)
        expect(await page.$$eval('#lc-profile-language option', (os) => os.map((o) => o.textContent))).to.deep.equal(['The browser\'s language', 'English', 'Español', 'Français', 'Português (Brasil)', 'Deutsch', 'العربية']);
        await page.select('#lc-profile-language', 'es');
        await page.click('[data-testid="save-profile"]');
        await page.waitForFunction(() => document.documentElement.lang === 'es', { timeout: 10000 });
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Chat en directo');
        expect(await page.$eval('[data-testid="logout"]', (b) => b.getAttribute('aria-label'))).to.equal('Cerrar sesión');
        expect((await t.server.inject({ url: '/api/admin/profile', headers: bearer(shop.admin.token) })).result).to.include({ language: 'es' });

        await page.reload({ waitUntil: 'networkidle2' });
        await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Chat en directo', { timeout: 10000 });
        const text = await visibleText(page);
        for (const spanish of ['En espera', 'Activos', 'Aceptar chat', 'Chat con', 'Cliente', 'Idioma', 'Español']) {
            expect(text, spanish).to.include(spanish);
        }
        for (const english of ['Waiting', 'Accept Chat', 'Chat with', 'No active chats', 'Customer']) {
            expect(text, english).to.not.include(english);
        }
        expect(await page.$eval('[data-testid="customer-language"]', (e) => e.textContent)).to.equal('Español');
        await screenshot(page, 'staff-es-console-1280');
        await page.setViewport({ width: 390, height: 844 });
        await screenshot(page, 'staff-es-console-390');

        // Arabic: the whole staff app right to left.
        await page.setViewport({ width: 1280, height: 860 });
        const arabic = await t.server.inject({ method: 'PUT', url: '/api/admin/profile', headers: bearer(shop.admin.token), payload: { displayName: '', language: 'ar' } });
        expect(arabic.statusCode, arabic.payload).to.equal(200);
        await page.reload({ waitUntil: 'networkidle2' });
        await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'المحادثة المباشرة', { timeout: 10000 });
        expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).to.deep.equal(['ar', 'rtl']);
        // Mirrored: the chats' column on the right, the customer on the left.
        const [queue, customer] = await page.evaluate(() => ['.lc-queue', '.lc-customer'].map((s) => document.querySelector(s)!.getBoundingClientRect().left));
        expect(queue).to.be.above(customer);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').to.be.at.most(1280);
        await screenshot(page, 'staff-ar-console-1280');
        await page.setViewport({ width: 390, height: 844 });
        await page.waitForSelector('[data-testid="menu-button"]', { visible: true });
        const past = await page.evaluate(() => Array.from(document.querySelectorAll('body *')).filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < -1 || r.right > window.innerWidth + 1);
        }).map((el) => `${el.tagName.toLowerCase()}.${String((el as HTMLElement).className)}`).slice(0, 6));
        if (SCREENSHOTS) {
            // The viewport, not the full page: Chromium's full-page capture of a right-to-left page at this width draws
            // it shifted although nothing in it is past an edge (checked above).
            Fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
            await page.screenshot({ path: Path.join(SCREENSHOT_DIR, 'staff-ar-console-390.png') as `${string}.png` });
        }
        expect(past, 'elements past an edge at 390 px, right to left').to.deep.equal([]);

        // Back to the browser's language (English here).
        await page.setViewport({ width: 1280, height: 860 });
        await page.click('[data-testid="open-profile"]');
        await page.waitForSelector('#lc-profile-language:not([disabled])');      // the profile loaded (a choice made before it would be reset)
        await page.select('#lc-profile-language', '');
        await page.click('[data-testid="save-profile"]');
        await page.waitForFunction(() => document.documentElement.lang === 'en', { timeout: 10000 });
        expect((await t.server.inject({ url: '/api/admin/profile', headers: bearer(shop.admin.token) })).result).to.include({ language: null });
        await page.close();
    });

    for (const lang of ['es', 'ar'] as const) {
        it(`the questions, AI, system test, organization, super admin and not-found pages in ${lang === 'es' ? 'Spanish' : 'Arabic, right to left'}`, async () => {
            for (const screen of PAGES) {
                const page = await staffPage(screen.as, lang);
                await page.goto(`${t.url}${screen.path}`, { waitUntil: 'networkidle2' });
                await page.waitForFunction((expected: string) => document.body.innerText.includes(expected), { timeout: 15000 }, screen[lang]);
                expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), screen.path).to.deep.equal([lang, lang === 'ar' ? 'rtl' : 'ltr']);
                const text = await visibleText(page);
                for (const english of screen.english) {
                    expect(text, `${screen.path} in ${lang}: "${english}"`).to.not.match(new RegExp(`\\b${english}\\b`));
                }
                expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen.path}: no sideways scroll`).to.be.at.most(1280);
                if (lang === 'ar') {
                    // Mirrored: the page's heading is written from the right (its text ends in the right half of the window).
                    const headingRight = await page.evaluate(() => {
                        const h = document.querySelector('.lc-page h1, main h1, main h2');
                        if (!h) {
                            return null;
                        }
                        const range = document.createRange();
                        range.selectNodeContents(h);
                        return range.getBoundingClientRect().right;
                    });
                    expect(headingRight, `${screen.path}: heading at the right`).to.be.a('number').and.above(640);
                }
                await viewportShot(page, `staff-${lang}${screen.path.replace(/\//g, '-')}`);
                await page.close();
            }
        });
    }

    it('numbers, plurals and times in the agent\'s language: the super admin\'s counts and last logins in Arabic (UTC, named)', async () => {
        const root = await staffPage('root', 'ar');
        await root.goto(`${t.url}/super-admin`, { waitUntil: 'networkidle2' });
        await root.waitForFunction(() => document.body.innerText.includes('المستأجرون'));
        // "N active" under each count, as an Arabic plural; the last login in UTC, named, with Arabic month names.
        const subs = await root.$$eval('.lc-stat-sub', (els) => els.map((e) => e.textContent));
        expect(subs).to.have.length(3);
        subs.forEach((sub) => expect(sub).to.match(/نشط|واحد|اثنان/));
        await root.click('[role=tab][id$="users"]');
        await root.waitForFunction(() => document.querySelectorAll('.lc-table tbody tr').length > 0);
        const lastLogins = await root.$$eval('.lc-table tbody tr td:nth-child(4)', (tds) => tds.map((td) => td.textContent));
        expect(lastLogins.some((cell) => cell === 'أبدًا' || /UTC/.test(cell ?? '')), lastLogins.join(' | ')).to.equal(true);
        await root.close();
    });

    it('refuses a language the product does not ship, with 400 and nothing stored', async () => {
        const res = await t.server.inject({ method: 'PUT', url: '/api/admin/profile', headers: bearer(shop.admin.token), payload: { displayName: '', language: 'it' } });
        expect(res.statusCode).to.equal(400);
        expect((res.result as any).message).to.equal('"language" must be one of en, es, fr, pt-BR, de, ar, or null for the browser\'s');
        expect((await t.server.inject({ url: '/api/admin/profile', headers: bearer(shop.admin.token) })).result).to.include({ language: null });
    });

    it('pseudo-localized (longer, accented texts) at 390 px: nothing overflows the console or the dashboard, and no English is left in them', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 390, height: 844 });
        await storeAdminToken(page, t.url, shop.admin.token);
        await page.evaluate(() => localStorage.setItem('lc-admin-lang', 'en-XA'));
        for (const [path, ready] of [['/admin-chat', '[data-testid="waiting-list"]'], ['/admin-dashboard', '.lc-look-card']] as const) {
            await page.goto(`${t.url}${path}`, { waitUntil: 'networkidle2' });
            await page.waitForSelector(ready, { timeout: 15000 });
            await page.waitForFunction(() => document.querySelector('h1')?.textContent?.startsWith('⟦') || document.querySelector('.lc-look-card h2')?.textContent?.includes('⟦'), { timeout: 10000 });
            // The page is never wider than the phone: long texts wrap or are cut with an ellipsis, never push the page sideways.
            const overflow = await page.evaluate(() => ({
                page: document.documentElement.scrollWidth,
                wide: Array.from(document.querySelectorAll('header *, main *')).filter((el) => {
                    const r = el.getBoundingClientRect();
                    return r.width > 0 && r.right > window.innerWidth + 1 && !el.closest('.bp5-overlay');
                }).map((el) => `${el.tagName.toLowerCase()}.${(el as HTMLElement).className}`).slice(0, 5)
            }));
            await screenshot(page, `staff-pseudo-390${path.replace(/\//g, '-')}`);
            expect(overflow.page, `${path} scroll width`).to.be.at.most(390);
            expect(overflow.wide, `${path}: elements past the right edge`).to.deep.equal([]);
        }
        // The console's and the home page's own texts all come from the catalogue (pseudo-localized); the customers' words
        // and the store's content stay as they were written (the home's AI agent panel included).
        const leftovers = (roots: string, data = '.lc-none', on: Page = page) => on.evaluate((selector: string, theirs: string) => {
            const out: string[] = [];
            for (const root of Array.from(document.querySelectorAll(selector))) {
                const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
                for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    const text = n.textContent!.trim();
                    const el = n.parentElement!;
                    // Not texts of ours: languages by their own names ([lang]), Blueprint's icon titles (svg), product names.
                    if (/[A-Za-z]{3,}/.test(text) && !text.includes('⟦') && text !== 'Redis'
                        && !el.closest('.lc-chat-preview, [data-testid="chat-language"], .lc-msg, .lc-timer, code, .bp5-tag, [lang]:not(html), svg, option')
                        && !el.closest(theirs)
                        && el.offsetParent !== null) {
                        out.push(text);
                    }
                }
            }
            return out;
        }, roots, data);
        await page.goto(`${t.url}/admin-chat`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('[data-testid="waiting-list"]');
        expect(await leftovers('main')).to.deep.equal([]);
        await page.goto(`${t.url}/admin-dashboard`, { waitUntil: 'networkidle2' });
        await page.waitForSelector('.lc-languages-card');
        await page.waitForFunction(() => !!document.querySelector('.lc-status-list dt'));
        await page.waitForSelector('[data-testid="ai-agent-panel"] [data-testid="ai-enabled-tag"]');
        expect(await leftovers('.lc-page-head, .lc-stats, .lc-grid, .lc-status-card, .lc-home-side > .bp5-card:nth-of-type(2), .lc-languages-card, [data-testid="ai-agent-panel"]')).to.deep.equal([]);
        await page.close();

        // The pages converted last, for each kind of staff: nothing past the right edge at 390 px, no English left. The store's
        // content (its questions and answers) and the tenants' data (names, e-mails, domains) stay as they were written.
        const later: Array<{ path: string; as: 'admin' | 'org' | 'root'; data?: string }> = [
            { path: '/admin-questions', as: 'admin', data: '.lc-question-title, .lc-question-answer, .lc-preview-chip' },
            { path: '/ai-management', as: 'admin' },
            { path: '/ai-test', as: 'admin' },
            { path: '/test', as: 'admin', data: '.lc-test-list' },
            { path: '/org-dashboard', as: 'org', data: '.lc-page-title, dd' },
            { path: '/super-admin', as: 'root', data: 'tbody' },
            { path: '/no-such-page', as: 'admin' }
        ];
        const problems: string[] = [];
        for (const screen of later) {
            const pseudoPage = await staffPage(screen.as, 'en-XA', 390);
            await pseudoPage.goto(`${t.url}${screen.path}`, { waitUntil: 'networkidle2' });
            await pseudoPage.waitForFunction(() => document.body.innerText.includes('⟦'), { timeout: 15000 });
            const overflow = await pseudoPage.evaluate(() => ({
                page: document.documentElement.scrollWidth,
                wide: Array.from(document.querySelectorAll('header *, main *, .lc-page *')).filter((el) => {
                    const r = el.getBoundingClientRect();
                    // A table scrolls sideways in its own labelled box on a phone (the super admin's): not the page.
                    return r.width > 0 && r.right > window.innerWidth + 1 && !el.closest('.bp5-overlay, .lc-table-scroll');
                }).map((el) => `${el.tagName.toLowerCase()}.${(el as HTMLElement).className}`).slice(0, 5)
            }));
            await screenshot(pseudoPage, `staff-pseudo-390${screen.path.replace(/\//g, '-')}`);
            if (overflow.page > 390) {
                problems.push(`${screen.path}: the page is ${overflow.page} px wide`);
            }
            problems.push(...overflow.wide.map((el) => `${screen.path}: ${el} past the right edge`));
            problems.push(...(await leftovers('main, .lc-page', screen.data, pseudoPage)).map((text) => `${screen.path}: English left: ${text}`));
            await pseudoPage.close();
        }
        expect(problems, 'the later pages pseudo-localized at 390 px').to.deep.equal([]);
    });
});
