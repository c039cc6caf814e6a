import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { Tenant, TestServer } from '../helpers/server';
import { screenshot } from '../helpers/browser';
import { startMerchantWidget, stopMerchantWidget } from '../helpers/merchant-widget';
import { lastCode } from '../helpers/loyalty';
import { Inbox, NesClient, request, setAvailable } from '../helpers/livechat-client';
import { expectNoSeriousViolations } from '../helpers/axe';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';
import { WIDGET_ROOT, waitForText, clickChip, typeAndSend } from '../helpers/widget-page';

/**
 * Issue 15 for the widget: axe-core over the widget's shadow tree in every step of its flow, at desktop and
 * phone width, and the keyboard promises of a modal chat panel (focus trap, Esc, focus back, scrollable log),
 * with the focus ring and the live-chat badge measured from computed styles.
 */
const HOST = 'loyalty-chat-widget';
const ROOT = WIDGET_ROOT;

/** With SCREENSHOTS=1: the viewport under widget-a11y/. */
const shot = (page: Page, name: string) => screenshot(page, `widget-a11y/${name}`, { fullPage: false });

async function newChat(page: Page): Promise<void> {
    await page.evaluate(`[...${ROOT}.querySelectorAll('.lc-link')].find((b) => b.textContent === 'New Chat').click()`);
    await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-msg').length === 1`);
}

/** WCAG relative-luminance contrast of two computed CSS colours (alpha composited over white). */
const CONTRAST_JS = `
const rgb = (c) => { const m = c.match(/[\\d.]+/g).map(Number); const a = m.length > 3 ? m[3] : 1; return m.slice(0, 3).map((v) => v * a + 255 * (1 - a)); };
const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const bgOf = (el) => { for (let e = el; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) { const c = getComputedStyle(e).backgroundColor; if (!/rgba\\(0, 0, 0, 0\\)|transparent/.test(c)) return c; } return 'rgb(255, 255, 255)'; };`;

describe('the widget: accessibility in every step and by keyboard (issue 15)', function () {
    this.timeout(180000);
    let t: TestServer;
    let browser: Browser;
    let merchant: { port: number; close(): Promise<void> };
    let shop: Tenant;
    let agent: { client: NesClient; box: Inbox };
    const covered: string[] = [];

    before(async () => {
        ({ t, shop, merchant, browser, agent } = await startMerchantWidget('acc', { strictCsp: true }));
    });
    after(() => stopMerchantWidget({ t, merchant, browser, agent }));

    for (const [width, height] of [[1280, 800], [390, 844]]) {
        it(`has no serious axe violation in the widget at ${width} px: closed, questions, answer, phone, code, points, live chat waiting`, async () => {
            const page = await browser.newPage();
            await page.setViewport({ width, height, isMobile: width < 500, hasTouch: width < 500 });
            await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
            const check = async (state: string) => {
                await expectNoSeriousViolations(page, `widget ${state} at ${width} px`, { scope: HOST });
                covered.push(`${state}@${width}`);
            };
            await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
            await check('launcher closed');
            await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
            await page.waitForFunction(`!!${ROOT}.querySelector('.lc-panel:not([hidden])')`);
            await waitForText(page, 'Hi! Welcome');
            await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-chip').length >= 5`);
            await check('panel open with questions');
            await clickChip(page, DEFAULT_QUESTIONS[3].question);
            await waitForText(page, DEFAULT_QUESTIONS[3].answer);
            await check('a question answered');
            await newChat(page);
            await clickChip(page, DEFAULT_QUESTIONS[0].question);
            await waitForText(page, 'Please enter the phone number');
            await check('phone step');
            await typeAndSend(page, '555-555-0100');
            await waitForText(page, 'I sent a 6-digit verification code');
            await check('code step');
            await typeAndSend(page, await lastCode(t.server, '+15555550100'));
            await waitForText(page, 'You have 1,250 loyalty points.');
            await check('points shown');
            await shot(page, `widget-a11y-points-${width}`);
            await newChat(page);
            await setAvailable(t.server, shop, true);
            agent.box.messages.length = 0;
            await clickChip(page, 'Talk to live support');
            const asked = await agent.box.waitFor((m: any) => m.type === 'new_customer', 10000);
            await waitForText(page, 'Connecting you with a member of our team.');
            await page.waitForFunction(`!${ROOT}.querySelector('.lc-badge').hidden`);
            await check('live chat waiting');
            await shot(page, `widget-a11y-live-${width}`);
            await request(agent.client, 'POST', `/api/chat/session/${asked.sessionId}/end`, {});
            await waitForText(page, 'The live chat has ended.');
            await page.evaluate('sessionStorage.clear()');
            await page.close();
        });
    }

    it('covered seven widget states at two widths', () => {
        expect(covered).to.have.length(14);
    });

    it('keeps Tab inside the open panel, closes on Esc with focus back on the launcher, and lets the keyboard reach an overflowing log', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 800 });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        // Reach the launcher by keyboard: Tab through the merchant page until focus lands in the widget.
        for (let i = 0; i < 20 && !(await page.evaluate(`document.activeElement?.localName === '${HOST}'`)); i++) {
            await page.keyboard.press('Tab');
        }
        expect(await page.evaluate(`${ROOT}.activeElement?.className`)).to.equal('lc-launcher');
        await page.keyboard.press('Enter');
        await page.waitForFunction(`!!${ROOT}.querySelector('.lc-panel:not([hidden])')`);
        await waitForText(page, 'Hi! Welcome');
        await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-chip').length >= 5`);

        // Fill the log until it overflows (answers to the FAQ chips, then New Chat never pressed).
        for (const q of [DEFAULT_QUESTIONS[1], DEFAULT_QUESTIONS[3], DEFAULT_QUESTIONS[4]]) {
            await clickChip(page, q.question);
            await waitForText(page, q.answer);
            await page.evaluate(`(() => { const b = [...${ROOT}.querySelectorAll('.lc-link')].find((x) => /more help|questions/i.test(x.textContent) && !x.hidden); if (b) b.click(); })()`);
            await page.waitForFunction(`${ROOT}.querySelectorAll('.lc-chip').length >= 5`, { timeout: 5000 }).catch(() => undefined);
        }
        for (let i = 0; i < 6; i++) {
            await typeAndSend(page, `A longer message number ${i} to fill the list of messages until it has to scroll.`);
            await page.waitForFunction(`!${ROOT}.querySelector('.lc-input').disabled`);
        }
        const log = await page.evaluate(`(() => { const l = ${ROOT}.querySelector('.lc-msgs'); return { overflow: l.scrollHeight > l.clientHeight, tabIndex: l.tabIndex, role: l.getAttribute('role'), name: l.getAttribute('aria-label') }; })()`);
        expect(log).to.deep.equal({ overflow: true, tabIndex: 0, role: 'log', name: 'Messages' });

        // Walk the whole panel by Tab: the log is among the stops, and focus never leaves the panel.
        const stops: string[] = [];
        for (let i = 0; i < 30; i++) {
            await page.keyboard.press('Tab');
            const where = await page.evaluate(`(() => { const a = ${ROOT}.activeElement; return a && a.closest('.lc-panel') ? a.className || a.localName : 'OUTSIDE:' + (document.activeElement?.localName); })()`) as string;
            stops.push(where);
        }
        expect(stops.filter((s) => s.startsWith('OUTSIDE')), `tab stops ${stops.join(', ')}`).to.deep.equal([]);
        expect(stops).to.include('lc-msgs');
        // From the last control, Tab wraps to the first; Shift+Tab from the first goes to the last.
        const order = await page.evaluate(`(() => { const p = ${ROOT}.querySelector('.lc-panel');
            return [...p.querySelectorAll('button:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])')]
                .filter((el) => !el.closest('[hidden]')).map((el) => el.className); })()`) as string[];
        await page.evaluate(`(() => { const p = ${ROOT}.querySelector('.lc-panel'); const all = [...p.querySelectorAll('button:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])')].filter((el) => !el.closest('[hidden]')); all[all.length - 1].focus(); })()`);
        await page.keyboard.press('Tab');
        expect(await page.evaluate(`${ROOT}.activeElement?.className`)).to.equal(order[0]);
        await page.keyboard.down('Shift');
        await page.keyboard.press('Tab');
        await page.keyboard.up('Shift');
        expect(await page.evaluate(`${ROOT}.activeElement?.className`)).to.equal(order[order.length - 1]);

        // The focus ring (seen on a keyboard-focused chip or control) against what lies around it: >= 3:1.
        const rings = await page.evaluate(`(() => { ${CONTRAST_JS}
            const out = [];
            for (const el of [${ROOT}.querySelector('.lc-msgs'), ${ROOT}.querySelector('.lc-input'), ${ROOT}.querySelector('.lc-x'), ${ROOT}.querySelector('.lc-link')]) {
                el.focus();
                const s = getComputedStyle(el);
                const around = bgOf(el.parentElement);
                out.push({ el: el.className, style: s.outlineStyle, width: parseFloat(s.outlineWidth), ratio: Math.round(contrast(s.outlineColor, around) * 100) / 100 });
            }
            return out; })()`) as { el: string; style: string; width: number; ratio: number }[];
        for (const r of rings) {
            expect(r.style, `${r.el} shows a focus ring`).to.not.equal('none');
            expect(r.width, `${r.el} ring width`).to.be.at.least(2);
            expect(r.ratio, `${r.el} ring contrast`).to.be.at.least(3);
        }
        await shot(page, 'widget-a11y-focus-ring');

        // Esc closes the panel and hands focus back to the launcher.
        await page.evaluate(`${ROOT}.querySelector('.lc-input').focus()`);
        await page.keyboard.press('Escape');
        await page.waitForFunction(`!!${ROOT}.querySelector('.lc-panel[hidden]')`);
        expect(await page.evaluate(`${ROOT}.activeElement?.className`)).to.equal('lc-launcher');
        expect(await page.evaluate(`document.activeElement?.localName`)).to.equal(HOST);
        await page.evaluate('sessionStorage.clear()');
        await page.close();
    });

    it('shows the Live Chat Active badge at >= 4.5:1', async () => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 800 });
        await page.goto(`http://localhost:${merchant.port}/`, { waitUntil: 'load' });
        await page.waitForFunction(`!!${ROOT}?.querySelector('.lc-launcher')`);
        await page.evaluate(`${ROOT}.querySelector('.lc-launcher').click()`);
        await waitForText(page, 'Hi! Welcome');
        await setAvailable(t.server, shop, true);
        agent.box.messages.length = 0;
        await clickChip(page, 'Talk to live support');
        const asked = await agent.box.waitFor((m: any) => m.type === 'new_customer', 10000);
        await page.waitForFunction(`!${ROOT}.querySelector('.lc-badge').hidden`);
        const badge = await page.evaluate(`(() => { ${CONTRAST_JS} const b = ${ROOT}.querySelector('.lc-badge'); const s = getComputedStyle(b);
            return { text: b.textContent, ratio: contrast(s.color, bgOf(b)), size: parseFloat(s.fontSize) }; })()`) as { text: string; ratio: number; size: number };
        expect(badge.text).to.equal('Live Chat Active');
        expect(badge.ratio, `badge contrast ${badge.ratio.toFixed(2)}`).to.be.at.least(4.5);
        await request(agent.client, 'POST', `/api/chat/session/${asked.sessionId}/end`, {});
        await page.close();
    });
});
