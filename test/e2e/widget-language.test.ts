import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
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
const attribute = (page: Page, selector: string, name: string) =>
    page.evaluate(`${ROOT}.querySelector(${JSON.stringify(selector)}).getAttribute(${JSON.stringify(name)})`) as Promise<string | null>;

describe('the widget speaks the customer\'s language (issue 27)', function () {
    this.timeout(90000);
    let t: TestServer;
    let browser: Browser;
    let spanish: Site;
    let italian: Site;
    let korean: Site;
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'shop', 'localhost');
        await importCustomers(t.server, shop.organization.id, [['+15555550177', 'Lucía Gómez', 'lucia@example.com', 'LC-1077', 12500]]);
        spanish = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'es' });
        italian = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'it' });
        korean = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'ko' });
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await Promise.all([spanish, italian, korean].map((s) => s?.close()));
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
});
