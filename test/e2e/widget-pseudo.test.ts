import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startMerchantSite } from '../helpers/fake-merchant';
import { importCustomers, lastCode } from '../helpers/loyalty';
import { clickChip, openWidget, typeAndSend, WIDGET_ROOT as ROOT } from '../helpers/widget-page';
import { pseudoChunk, pseudoLocalizeWidget } from '../helpers/widget-pseudo';

/**
 * What the panel shows that is not bracketed ⟦…⟧ (so not from the catalogue): text nodes, placeholders, aria-labels and
 * titles. Not ours, so left out: the store's own questions (its content, dir="auto"), the customer's own words, the
 * language menu's names (each language by its own name, [lang]).
 */
const UNBRACKETED = `(() => {
    const panel = ${ROOT}.querySelector('.lc-panel');
    const ours = (el) => !el.closest('.lc-chip[dir=auto], .lc-user, option, [lang]:not(.lc-panel)');
    const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
    const out = [];
    const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent.trim();
        if (/[A-Za-z]{2,}/.test(text) && !/[⟦⟧]/.test(text) && ours(n.parentElement) && visible(n.parentElement)) {
            out.push(text);
        }
    }
    for (const el of panel.querySelectorAll('[placeholder], [aria-label], [title]')) {
        for (const name of ['placeholder', 'aria-label', 'title']) {
            const value = el.getAttribute(name);
            if (value && /[A-Za-z]{2,}/.test(value) && !/[⟦⟧]/.test(value) && ours(el)) {
                out.push(name + '=' + value);
            }
        }
    }
    return out;
})()`;

/** Elements of the panel past the window's edges, or whose text is wider than their box and not cut on purpose. */
const OVERFLOWING = `(() => {
    const out = [];
    for (const el of ${ROOT}.querySelectorAll('.lc-panel, .lc-panel *')) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) {
            continue;
        }
        const name = el.tagName.toLowerCase() + '.' + String(el.className);
        if (r.left < -1 || r.right > window.innerWidth + 1) {
            out.push(name + ' past an edge');
        }
        const style = getComputedStyle(el);
        const scrolls = /auto|scroll/.test(style.overflowX);
        if (!/^(input|textarea|select|option)$/.test(el.tagName.toLowerCase()) && !scrolls && style.textOverflow !== 'ellipsis'
            && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
            out.push(name + ' text wider than its box (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
        }
    }
    return out;
})()`;

/**
 * The input's placeholder, when longer than the box: on one line, cut (a textarea would wrap it onto a second line that
 * its one-line height cuts in half).
 */
const PLACEHOLDER = `(() => {
    const input = ${ROOT}.querySelector('.lc-input');
    const context = document.createElement('canvas').getContext('2d');
    context.font = getComputedStyle(input).font;
    const style = getComputedStyle(input, '::placeholder');
    return { wide: context.measureText(input.getAttribute('placeholder')).width > input.clientWidth, whiteSpace: style.whiteSpace, textOverflow: style.textOverflow };
})()`;

describe('the widget pseudo-localized at phone width: every text from the catalogue, nothing overflows (issue 27)', function () {
    this.timeout(90000);
    let t: TestServer;
    let browser: Browser;
    let site: { port: number; close(): Promise<void> };
    let shop: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'shop', 'localhost');
        await importCustomers(t.server, shop.organization.id, [['+15555550177', 'Lucía Gómez', 'lucia@example.com', 'LC-1077', 12500]]);
        site = await startMerchantSite(`${t.url}/widget-shop.js`, { lang: 'es' });
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await site?.close();
        await t?.close();
    });

    it('changes a catalogue chunk\'s texts only, and refuses a chunk of another shape', () => {
        const chunk = 'export const __webpack_esm_ids__=[1];export const __webpack_esm_modules__={7(e,o,a){a.r(o);const s={hi:()=>"Hola"};a.d(o,{default:()=>s})}};';
        const source = pseudoChunk(chunk);
        expect(source).to.include('__lcModules').and.include('export const __webpack_esm_modules__=__lcModules');
        expect(() => pseudoChunk('console.log(1)')).to.throw(/not a webpack ES module chunk/);
    });

    it('the Spanish panel pseudo-localized at 390 px: the greeting, the points flow and the controls all bracketed, nothing past an edge', async () => {
        const page: Page = await browser.newPage();
        await page.setViewport({ width: 390, height: 844 });
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(String(err)));
        const changed = await pseudoLocalizeWidget(page, 'es');
        await page.goto(`http://localhost:${site.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await page.waitForFunction(`!!${ROOT}.querySelector('.lc-msgs')?.textContent.includes('⟦¡Hölá!')`, { timeout: 10000 });
        expect(changed.length, 'the Spanish catalogue chunk was the pseudo one').to.equal(1);
        expect(changed[0]).to.match(/^lang-es\.[0-9a-f]+\.js$/);
        // A text with an argument (the store's name) is transformed whole, after the argument is filled in.
        expect(await page.evaluate(`${ROOT}.querySelector('.lc-title').textContent`)).to.match(/^⟦.+⟧$/);
        expect(await page.evaluate(UNBRACKETED), 'unbracketed texts in the open panel').to.deep.equal([]);
        expect(await page.evaluate(OVERFLOWING), 'overflow in the open panel').to.deep.equal([]);
        await screenshot(page, 'widget-pseudo-390-open');

        // Through the points flow: each step's texts, the step chips, the input's placeholder.
        await clickChip(page, 'Check my loyalty points');
        await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-bot').length >= 2`, { timeout: 10000 });
        await typeAndSend(page, '555-555-0177');
        await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-bot').length >= 3`, { timeout: 10000 });
        expect(await page.evaluate(UNBRACKETED), 'unbracketed texts while asking for the code').to.deep.equal([]);
        const code = await lastCode(t.server, '+15555550177');
        await typeAndSend(page, code);
        // Numbers as in Spanish inside the bracketed text.
        await page.waitForFunction(`${ROOT}.querySelector('.lc-msgs').textContent.includes('12.500')`, { timeout: 10000 });
        expect(await page.evaluate(UNBRACKETED), 'unbracketed texts after the points').to.deep.equal([]);
        expect(await page.evaluate(OVERFLOWING), 'overflow after the points').to.deep.equal([]);
        // (Chromium cuts a textarea's placeholder at the edge rather than with an ellipsis: either way it stays on one line.)
        expect(await page.evaluate(PLACEHOLDER), 'the long placeholder on one line, cut').to.deep.include({ wide: true, whiteSpace: 'nowrap' });
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the merchant page is not pushed sideways').to.be.at.most(390);
        await screenshot(page, 'widget-pseudo-390-points');
        expect(errors).to.deep.equal([]);
        await page.close();
    });

    it('what customers download is untouched: the served Spanish chunk has no pseudo text', async () => {
        const page = await browser.newPage();
        const fetched: string[] = [];
        page.on('response', (res) => {
            if (/\/widget\/lang-es\./.test(res.url())) {
                fetched.push(res.url());
            }
        });
        await page.goto(`http://localhost:${site.port}/`, { waitUntil: 'load' });
        await openWidget(page);
        await page.waitForFunction(`${ROOT}.querySelector('.lc-msgs')?.textContent.includes('¡Hola!')`, { timeout: 10000 });
        expect(fetched).to.have.length(1);
        // The check above sees the panel's texts: here, not pseudo-localized, every one of them counts as unbracketed.
        expect(await page.evaluate(UNBRACKETED)).to.include.members(['Nuevo chat', 'Enviar', 'placeholder=Escribe tu mensaje...']);
        const served = await (await fetch(fetched[0])).text();
        expect(served).to.not.include('⟦').and.not.include('__lcModules');
        await page.close();
    });
});
