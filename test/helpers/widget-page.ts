import type { Page } from 'puppeteer-core';

/**
 * Driving the widget on a merchant page in the browser tests: it lives in a Shadow DOM on its host element,
 * so every query starts at this root (an expression evaluated in the page).
 */
export const WIDGET_ROOT = `document.querySelector('[data-loyalty-chat]').shadowRoot`;

/** The text of the widget's message list. */
export async function messagesText(page: Page, root = WIDGET_ROOT): Promise<string> {
    return page.evaluate(`${root}.querySelector('.lc-msgs').textContent`) as Promise<string>;
}

// The predicates are expressions, not functions that eval: puppeteer polls them from requestAnimationFrame, where
// a page's Content-Security-Policy (the demo storefront's has no 'unsafe-eval') refuses eval and new Function.

/** Waits until the widget's message list shows this text. */
export async function waitForText(page: Page, text: string, timeout = 10000, root = WIDGET_ROOT): Promise<void> {
    await page.waitForFunction(`!!${root}?.querySelector('.lc-msgs')?.textContent?.includes(${JSON.stringify(text)})`, { timeout });
}

/** Clicks the enabled quick-question chip (or form button styled as one) with this label. */
export async function clickChip(page: Page, label: string, root = WIDGET_ROOT): Promise<void> {
    const chip = `Array.from(${root}.querySelectorAll('.lc-chip')).find((b) => b.textContent === ${JSON.stringify(label)} && !b.disabled)`;
    await page.waitForFunction(`!!${chip}`, { timeout: 5000 });
    await page.evaluate(`${chip}.click()`);
}

/** Types into the widget's input once it is enabled, and sends with Enter. */
export async function typeAndSend(page: Page, text: string, root = WIDGET_ROOT): Promise<void> {
    await page.waitForFunction(`!${root}.querySelector('.lc-input').disabled`);
    const input = await page.evaluateHandle(`${root}.querySelector('.lc-input')`);
    await (input as any).type(text);
    await (input as any).press('Enter');
}

/** Clicks the launcher and waits for the panel (the first click also loads the panel's chunk). */
export async function openWidget(page: Page): Promise<void> {
    await page.waitForFunction(`!!${WIDGET_ROOT}?.querySelector('.lc-launcher')`);
    await page.evaluate(`${WIDGET_ROOT}.querySelector('.lc-launcher').click()`);
    await page.waitForFunction(`!!${WIDGET_ROOT}.querySelector('.lc-panel:not([hidden])')`);
}
