import type { Page } from 'puppeteer-core';

/**
 * Driving the widget on a merchant page in the browser tests: it lives in a Shadow DOM on its host element,
 * so every query starts at this root (an expression evaluated in the page).
 */
export const WIDGET_ROOT = `document.querySelector('[data-loyalty-chat]').shadowRoot`;

/** Waits until the widget's message list shows this text. */
export async function waitForText(page: Page, text: string, timeout = 10000): Promise<void> {
    await page.waitForFunction(`!!${WIDGET_ROOT}?.querySelector('.lc-msgs')?.textContent?.includes(${JSON.stringify(text)})`, { timeout });
}

/** Clicks the enabled quick-question chip (or form button styled as one) with this label. */
export async function clickChip(page: Page, label: string): Promise<void> {
    const chip = `Array.from(${WIDGET_ROOT}.querySelectorAll('.lc-chip')).find((b) => b.textContent === ${JSON.stringify(label)} && !b.disabled)`;
    await page.waitForFunction(`!!${chip}`, { timeout: 5000 });
    await page.evaluate(`${chip}.click()`);
}

/** Types into the widget's input once it is enabled, and sends with Enter. */
export async function typeAndSend(page: Page, text: string): Promise<void> {
    await page.waitForFunction(`!${WIDGET_ROOT}.querySelector('.lc-input').disabled`);
    const input = await page.evaluateHandle(`${WIDGET_ROOT}.querySelector('.lc-input')`);
    await (input as any).type(text);
    await (input as any).press('Enter');
}

/** Clicks the launcher and waits for the panel (the first click also loads the panel's chunk). */
export async function openWidget(page: Page): Promise<void> {
    await page.waitForFunction(`!!${WIDGET_ROOT}?.querySelector('.lc-launcher')`);
    await page.evaluate(`${WIDGET_ROOT}.querySelector('.lc-launcher').click()`);
    await page.waitForFunction(`!!${WIDGET_ROOT}.querySelector('.lc-panel:not([hidden])')`);
}
