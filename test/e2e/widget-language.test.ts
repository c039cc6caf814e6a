import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot, storeAdminToken } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
import { expectNoSeriousViolations } from '../helpers/axe';
import { importCustomers, lastCode } from '../helpers/loyalty';
import { clickChip, openWidget, typeAndSend, waitForText, WIDGET_ROOT as ROOT } from '../helpers/widget-page';

type Site = { port: number; close(): Promise<void> };

/** The widget's files the page fetched from the API origin (loader, panel, language chunks). */
function widgetRequests(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (request) => {
        const match = /\/widget\/([^/?]+\.js)|\/(widget-[^/?]+\.js)/.exec(request.url());
        if (match) {
            seen.push(match[1] ?? match[2]);
        }
    });
    return seen;
}

async function pageIn(browser: Browser, browserLanguages: string[]): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 820 });
    // What navigator.languages says (the browser's language settings), before any script of the page runs.
    await page.evaluateOnNewDocument(`Object.defineProperty(navigator, 'languages', { get: () => ${JSON.stringify(browserLanguages)} });`);
    return page;
}

const text = (page: Page, selector: string) => page.evaluate(`${ROOT}.querySelector(${JSON.stringify(selector)}).textContent`) as Promise<string>;
const rect = (page: Page, selector: string) => page.evaluate(`(() => { const r = ${ROOT}.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
    return { left: r.left, right: r.right, width: r.width }; })()`) as Promise<{ left: number; right: number; width: number }>;
const attribute = (page: Page, selector: string, name: string) =>
    page.evaluate(`${ROOT}.querySelector(${JSON.stringify(selector)}).getAttribute(${JSON.stringify(name)})`) as Promise<string | null>;

describe('the widget speaks the customer\'s language (issue 27)', function () {
    this.timeout(90000);
    let t: TestServer;
    let browser: Browser;
    let spanish: Site;
    let italian: Site;
    let korean: Site;
    let arabic: Site;
    let plain: Site;
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'shop', 'localhost');
        await importCustomers(t.server, shop.organization.id, [['+15555550177', 'Lucía Gómez', 'lucia@example.com', 'LC-1077', 12500]]);
        spanish = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'es' });
        italian = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'it' });
        korean = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'ko' });
        arabic = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'ar' });
        plain = await startMerchantSite(`${t.url}/widget-shop.js`);
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await Promise.all([spanish, italian, korean, arabic, plain].map((s) => s?.close()));
        await t?.close();
    });

    it('on a page with <html lang="es">: the launcher, the greeting, the points flow and its errors in Spanish, kept after a reload', async () => {
        const page = await pageIn(browser, ['en-US', 'en']);
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(String(err)));
        const fetched = widgetRequests(page);
        await page.goto(`http://localhost:${spanish.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        expect(await attribute(page, '.lc-launcher', 'aria-label')).to.equal('Abrir el chat con el soporte de Store shop');
        // Nothing but the loader before the launcher is touched: the language comes with the panel.
        expect(fetched).to.deep.equal(['widget-shop.js']);

        await openWidget(page);
        await waitForText(page, '¡Hola! Te damos la bienvenida al soporte de Store shop. ¿En qué podemos ayudarte hoy?');
        expect(fetched.some((f) => /^panel\./.test(f)) && fetched.some((f) => /^lang-es\./.test(f)), fetched.join()).to.equal(true);
        expect(await text(page, '.lc-title')).to.equal('Soporte de Store shop');
        expect(await attribute(page, '.lc-panel', 'lang')).to.equal('es');
        expect(await attribute(page, '.lc-input', 'placeholder')).to.equal('Escribe tu mensaje...');
        expect(await text(page, '.lc-send')).to.equal('Enviar');
        expect(await attribute(page, '.lc-launcher', 'aria-label')).to.equal('Cerrar el chat con el soporte de Store shop');
        await screenshot(page, 'widget-es-open');

        // The store's questions are its own content (English here); the widget's texts around them are Spanish.
        await clickChip(page, 'Check my loyalty points');
        await waitForText(page, 'Escribe el número de teléfono vinculado a tu cuenta de fidelidad.');
        await typeAndSend(page, '555-555-0177');
        await waitForText(page, 'Te he enviado un código de verificación de 6 dígitos al teléfono.');
        // Not a code: one error line by its code, in Spanish ('The code must be 6 digits' in English), and the step stays.
        await typeAndSend(page, '12345');
        await waitForText(page, 'Error: El código debe tener 6 dígitos. Vuelve a escribir el código.');
        expect(await attribute(page, '.lc-input', 'placeholder')).to.equal('Escribe el código de 6 dígitos');
        // Spanish words are understood (plugins/conversation/words/es.json): the code did not come, a new one is offered.
        await typeAndSend(page, 'no me llegó el código');
        await waitForText(page, 'Sin problema: puedo enviarte un código nuevo al número que termina en 0177.');
        await clickChip(page, 'Enviar un código nuevo');
        await page.waitForFunction(`${ROOT}.querySelector('.lc-msgs').textContent.split('Te he enviado un código').length === 3`, { timeout: 10000 });
        const code = await lastCode(t.server, '+15555550177');
        // The text message itself, in the fake SMS outbox, is Spanish too.
        const [sms] = await t.server.app.services.loyalty.listOutbox({ phone: '+15555550177', limit: 1 });
        expect(sms.body).to.equal(`Tu código de verificación de Store shop es ${code}. Caduca en 10 minutos.`);
        await typeAndSend(page, code === '000000' ? '111111' : '000000');
        await waitForText(page, 'Error: Código de verificación incorrecto. Vuelve a escribir el código.');
        await typeAndSend(page, code);
        // Numbers formatted for Spanish (CLDR: a thousands separator from five digits on).
        await waitForText(page, 'Tienes 12.500 puntos de fidelidad. ¿Puedo ayudarte en algo más?');
        expect(await text(page, '.lc-msgs')).to.not.include('You have');
        await screenshot(page, 'widget-es-points');

        // The language is kept with the conversation: a reload continues in Spanish.
        await page.reload({ waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-panel:not([hidden])')`, { timeout: 10000 });
        await waitForText(page, 'Tienes 12.500 puntos de fidelidad.');
        expect(await text(page, '.lc-title')).to.equal('Soporte de Store shop');
        // New Chat keeps the language too.
        await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-link')].find((b) => b.textContent === 'Nuevo chat').click()`);
        await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-msg').length === 1`, { timeout: 5000 });
        await waitForText(page, '¡Hola! Te damos la bienvenida al soporte de Store shop.');
        expect(errors).to.deep.equal([]);
        await page.close();
    });

    it('on a page in a language it does not ship: the browser\'s languages in order, else English', async () => {
        const page = await pageIn(browser, ['ja-JP', 'es-MX', 'en']);
        await page.goto(`http://localhost:${italian.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        expect(await attribute(page, '.lc-launcher', 'aria-label')).to.equal('Abrir el chat con el soporte de Store shop');
        await openWidget(page);
        await waitForText(page, '¡Hola! Te damos la bienvenida al soporte de Store shop.');
        await page.close();

        const english = await pageIn(browser, ['ja-JP', 'zh']);
        await english.goto(`http://localhost:${korean.port}/`, { waitUntil: 'load' });
        await english.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        expect(await attribute(english, '.lc-launcher', 'aria-label')).to.equal('Open chat with Store shop support');
        await openWidget(english);
        await waitForText(english, 'Hi! Welcome to Store shop support. How can I help you today?');
        await english.close();
    });

    it('on a page with <html lang="ar">: the whole panel right to left, the launcher on the other side, at 1280 and 390 px', async () => {
        for (const width of [1280, 390]) {
            const page = await pageIn(browser, ['en-US']);
            await page.setViewport({ width, height: 800 });
            const errors: string[] = [];
            page.on('pageerror', (err) => errors.push(String(err)));
            await page.goto(`http://localhost:${arabic.port}/`, { waitUntil: 'load' });
            await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
            expect(await attribute(page, '.lc-launcher', 'aria-label')).to.equal('افتح المحادثة مع دعم Store shop');
            // The store's side is the right: mirrored, the launcher sits bottom left.
            const launcher = await rect(page, '.lc-launcher');
            expect(launcher.left, 'launcher on the left').to.be.below(width / 2);
            await openWidget(page);
            await waitForText(page, 'مرحبًا! أهلًا بك في دعم Store shop.');
            expect(await attribute(page, '.lc-panel', 'dir')).to.equal('rtl');
            expect(await attribute(page, '.lc-panel', 'lang')).to.equal('ar');
            expect(await text(page, '.lc-title')).to.equal('دعم Store shop');
            expect(await attribute(page, '.lc-input', 'placeholder')).to.equal('اكتب رسالتك...');
            const panel = await rect(page, '.lc-panel');
            if (width > 480) {
                expect(panel.left, 'panel on the left').to.be.below(width / 2 - panel.width / 2);
            }
            // Right to left inside: the title starts at the right, the close button at the left, the first chip at the right.
            const title = await rect(page, '.lc-title');
            const close = await rect(page, '.lc-x');
            expect(close.left).to.be.below(title.left);
            const firstChip = await rect(page, '.lc-quick .lc-chip');
            expect(panel.right - firstChip.right, 'first chip at the right edge').to.be.below(20);
            // The bot's message on the right, the customer's on the left.
            await typeAndSend(page, 'مرحبا');
            await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-user').length === 1`);
            const bot = await rect(page, '.lc-bot');
            const mine = await rect(page, '.lc-user');
            expect(panel.right - bot.right, 'bot message at the right').to.be.below(20);
            expect(mine.left - panel.left, 'customer message at the left').to.be.below(20);
            const send = await rect(page, '.lc-send');
            const input = await rect(page, '.lc-input');
            expect(send.right, 'Send left of the input').to.be.at.most(input.left + 1);
            await screenshot(page, `widget-ar-rtl-${width}`);
            // Right to left, the language menu included, with no serious accessibility problem.
            await expectNoSeriousViolations(page, `the Arabic widget at ${width} px`, { scope: '[data-loyalty-chat]' });
            expect(errors).to.deep.equal([]);
            await page.close();
        }
    });

    it('switches language mid-conversation: later texts, the launcher, the SMS and the side follow, and the choice survives a reload', async () => {
        const page = await pageIn(browser, ['en-US', 'en']);
        await page.goto(`http://localhost:${plain.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await waitForText(page, 'Hi! Welcome to Store shop support.');
        expect(await attribute(page, '.lc-lang', 'aria-label')).to.equal('Language');
        const names = await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-lang option')].map((o) => o.textContent)`);
        expect(names).to.deep.equal(['English', 'Español', 'Français', 'Português (Brasil)', 'Deutsch', 'العربية']);
        await clickChip(page, 'Check my loyalty points');
        await waitForText(page, 'Please enter the phone number linked to your loyalty account.');
        // In the middle of the points check, the customer picks German: what was said stays, what comes is German.
        await page.select(`pierce/.lc-lang`, 'de');
        await page.waitForFunction(`${ROOT}.querySelector('.lc-input').placeholder === 'Telefonnummer eingeben'`, { timeout: 5000 });
        expect(await attribute(page, '.lc-launcher', 'aria-label')).to.equal('Chat mit dem Store shop Support schließen');
        expect(await attribute(page, '.lc-panel', 'lang')).to.equal('de');
        await typeAndSend(page, '555-555-0177');
        await waitForText(page, 'Ich habe dir einen 6-stelligen Bestätigungscode per SMS geschickt.');
        expect(await text(page, '.lc-msgs')).to.include('Please enter the phone number linked to your loyalty account.');
        const [sms] = await t.server.app.services.loyalty.listOutbox({ phone: '+15555550177', limit: 1 });
        expect(sms.body).to.match(/^Dein Store shop Bestätigungscode lautet \d{6}\. Er läuft in 10 Minuten ab\.$/);
        await typeAndSend(page, sms.body.match(/\d{6}/)![0]);
        await waitForText(page, 'Du hast 12.500 Treuepunkte. Kann ich dir sonst noch helfen?');
        // Then Arabic: the panel turns right to left and the launcher moves to the other side.
        await page.select(`pierce/.lc-lang`, 'ar');
        await page.waitForFunction(`${ROOT}.querySelector('.lc-panel').dir === 'rtl'`, { timeout: 5000 });
        expect((await rect(page, '.lc-launcher')).left).to.be.below(600);
        expect(await text(page, '.lc-title')).to.equal('دعم Store shop');
        await screenshot(page, 'widget-switch-to-ar');
        await page.reload({ waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-panel:not([hidden])')`, { timeout: 10000 });
        expect(await attribute(page, '.lc-panel', 'dir')).to.equal('rtl');
        expect(await attribute(page, '.lc-lang', 'aria-label')).to.equal('اللغة');
        await page.close();
    });

    it('a store that enabled only French answers a German browser on a German page in French, with no language menu', async () => {
        const french = await createTenant(t.server, 'boutique', 'localhost');
        const res = await t.server.inject({ method: 'PUT', url: '/api/widget/languages', headers: bearer(french.admin.token), payload: { enabled: ['fr'], default: 'fr' } });
        expect(res.statusCode, res.payload).to.equal(200);
        await importCustomers(t.server, french.organization.id, [['+15555550188', 'Jean Dupont', 'jean@example.com', 'LC-1088', 1250]]);
        const site = await startMerchantSite(`${t.url}/widget-boutique.js`, { lang: 'de' });
        try {
            const page = await pageIn(browser, ['de-DE', 'de']);
            await page.goto(`http://localhost:${site.port}/`, { waitUntil: 'load' });
            await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
            expect(await attribute(page, '.lc-launcher', 'aria-label')).to.equal('Ouvrir le chat avec le service client Store boutique');
            await openWidget(page);
            await waitForText(page, 'Bonjour ! Bienvenue au service client Store boutique.');
            expect(await attribute(page, '.lc-panel', 'lang')).to.equal('fr');
            expect(await page.evaluate(`!!${ROOT}.querySelector('.lc-lang')`)).to.equal(false);
            await clickChip(page, 'Check my loyalty points');
            await waitForText(page, 'Veuillez saisir le numéro de téléphone associé à votre compte fidélité.');
            await typeAndSend(page, '555-555-0188');
            await waitForText(page, 'Je vous ai envoyé un code de vérification à 6 chiffres par SMS.');
            const [sms] = await t.server.app.services.loyalty.listOutbox({ phone: '+15555550188', limit: 1 });
            expect(sms.body).to.match(/^Votre code de vérification Store boutique est \d{6}\. Il expire dans 10 minutes\.$/);
            await typeAndSend(page, sms.body.match(/\d{6}/)![0]);
            // French groups thousands with a narrow no-break space: 1 250.
            await waitForText(page, 'Vous avez 1\u202f250 points de fidélité.');
            await screenshot(page, 'widget-fr-only-german-browser');
            await page.close();
        }
        finally {
            await site.close();
        }
    });

    it('the store writes its own greeting in Spanish in the admin app: the preview shows each language live, the Spanish page gets it', async () => {
        const store = await createTenant(t.server, 'textos', 'localhost');
        const admin = await browser.newPage();
        await admin.setViewport({ width: 1280, height: 1400 });
        await storeAdminToken(admin, t.url, store.admin.token);
        await admin.goto(`${t.url}/admin-dashboard`, { waitUntil: 'domcontentloaded' });
        await admin.waitForSelector('#look-language');
        const preview = () => admin.$eval('.lc-look-greeting-text', (el) => el.textContent);
        await admin.waitForFunction(() => document.querySelector('.lc-look-greeting')?.textContent?.startsWith('Hi! Welcome to'));
        // Spanish: the widget's own Spanish greeting until the store writes one, then what it types, as it types.
        await admin.select('#look-language', 'es');
        await admin.waitForFunction(() => document.querySelector('.lc-look-greeting')?.textContent?.startsWith('¡Hola! Te damos la bienvenida'));
        expect(await admin.$eval('#look-greeting', (el) => (el as HTMLTextAreaElement).placeholder)).to.match(/^¡Hola! Te damos la bienvenida al soporte de /);
        await admin.type('#look-greeting', '¡Hola! ¿Buscas tu talla? Te ayudamos.');
        expect(await preview()).to.equal('¡Hola! ¿Buscas tu talla? Te ayudamos.');
        // Arabic: right to left, the launcher on the other side; English keeps its own.
        await admin.select('#look-language', 'ar');
        await admin.waitForFunction(() => document.querySelector('.lc-look-preview')?.getAttribute('dir') === 'rtl');
        expect(await admin.$eval('.lc-look-preview', (el) => el.classList.contains('lc-look-left'))).to.equal(true);
        await admin.waitForFunction(() => document.querySelector('.lc-look-greeting')?.textContent?.startsWith('مرحبًا!'));
        await screenshot(admin, 'admin-look-preview-ar');
        await admin.select('#look-language', 'en');
        await admin.waitForFunction(() => document.querySelector('.lc-look-greeting')?.textContent?.startsWith('Hi! Welcome to'));
        await admin.select('#look-language', 'es');
        expect(await admin.$eval('#look-greeting', (el) => (el as HTMLTextAreaElement).value)).to.equal('¡Hola! ¿Buscas tu talla? Te ayudamos.');
        await admin.evaluate(() => (Array.from(document.querySelectorAll('.lc-look-card button')).find((b) => b.textContent === 'Save look') as HTMLButtonElement).click());
        await admin.waitForSelector('.lc-look-saved');
        await screenshot(admin, 'admin-look-languages');
        await admin.close();
        expect((await t.server.app.services.tenants.getBotInstance(store.bot.id))!.look.texts).to.deep.equal({ es: { title: null, greeting: '¡Hola! ¿Buscas tu talla? Te ayudamos.', privacy: null } });

        // The store's own content in Spanish too: one question written in Spanish.
        const question = await t.server.inject({ method: 'POST', url: '/api/questions', headers: bearer(store.admin.token),
            payload: { question: '¿Tenéis mi talla?', answer: 'Sí: de la XS a la XXL.', lang: 'es' } });
        expect(question.statusCode, question.payload).to.equal(201);
        const chips = (page: Page) => page.evaluate(`[...${ROOT}.querySelectorAll('.lc-quick:not([hidden]) .lc-chip')].map((c) => c.textContent)`) as Promise<string[]>;
        const site = await startMerchantSite(`${t.url}/widget-textos.js`, { lang: 'es' });
        const englishSite = await startMerchantSite(`${t.url}/widget-textos.js`, { lang: 'en' });
        try {
            const page = await pageIn(browser, ['es-ES']);
            await page.goto(`http://localhost:${site.port}/`, { waitUntil: 'load' });
            await openWidget(page);
            await waitForText(page, '¡Hola! ¿Buscas tu talla? Te ayudamos.');
            expect(await text(page, '.lc-title')).to.equal('Soporte de Store textos');
            // Its Spanish question, not the default language's (English) ones.
            await page.waitForFunction(`[...${ROOT}.querySelectorAll('.lc-chip')].some((c) => c.textContent === '¿Tenéis mi talla?')`);
            expect(await chips(page)).to.deep.equal(['¿Tenéis mi talla?']);
            await page.close();
            const english = await pageIn(browser, ['en-US']);
            await english.goto(`http://localhost:${englishSite.port}/`, { waitUntil: 'load' });
            await openWidget(english);
            await waitForText(english, 'Hi! Welcome to Store textos support.');
            expect(await text(english, '.lc-msgs')).to.not.include('Buscas tu talla');
            await english.waitForFunction(`${ROOT}.querySelectorAll('.lc-quick .lc-chip').length === 5`);
            expect(await chips(english)).to.not.include('¿Tenéis mi talla?');
            // Switching to Spanish brings the Spanish questions.
            await english.select('pierce/.lc-lang', 'es');
            await english.waitForFunction(`[...${ROOT}.querySelectorAll('.lc-quick .lc-chip')].map((c) => c.textContent).join() === '¿Tenéis mi talla?'`, { timeout: 5000 });
            await english.close();
        }
        finally {
            await site.close();
            await englishSite.close();
        }
    });
});
