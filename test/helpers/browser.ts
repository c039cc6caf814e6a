import * as Fs from 'fs';
import * as Path from 'path';
import puppeteer, { Browser, Page } from 'puppeteer-core';

/** Where screenshots go: SCREENSHOT_DIR (or the older SHOTS_DIR), else test-output/screenshots. */
export const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? process.env.SHOTS_DIR ?? Path.resolve(__dirname, '..', '..', '..', 'test-output', 'screenshots');

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches Debian's chromium headless with the flags this machine needs (no network beyond loopback). Chromium 156
 * preloads two WebUI omnibox popups (chrome://omnibox-popup.top-chrome) in a renderer of their own for every window,
 * which no test sees: turned off, the accessibility suite's browser spends 65 CPU seconds instead of 105 (CI time,
 * DESIGN §11; the suite is CPU-bound on 2 cores). Unknown feature names are ignored by other versions.
 */
export async function launchBrowser(): Promise<Browser> {
    return puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
            '--disable-sync', '--no-first-run', '--disable-dev-shm-usage', '--disable-quic', '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup']
    });
}

/** Screenshots are taken only when asked: SCREENSHOTS=1 (they cost time, and CI looks at none of them). */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/**
 * With SCREENSHOTS=1, saves a screenshot under SCREENSHOT_DIR/NAME.png (NAME may name a sub-folder, e.g. 'ai/answer')
 * and returns its path; otherwise does nothing, so that CI spends no time on pictures nobody looks at. The full page
 * by default; `fullPage: false` for the viewport, `clip` for a part of it.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean; clip?: { x: number; y: number; width: number; height: number } } = {}): Promise<string | null> {
    if (!SCREENSHOTS) {
        return null;
    }
    const file = Path.join(SCREENSHOT_DIR, `${name}.png`);
    Fs.mkdirSync(Path.dirname(file), { recursive: true });
    const { clip, fullPage = !clip } = options;
    await page.screenshot({ path: file as `${string}.png`, fullPage, ...(clip ? { clip } : {}) });
    return file;
}

/** Signs the admin app in the way it keeps its session: the token in localStorage of the app's origin. */
export async function storeAdminToken(page: Page, baseUrl: string, token: string): Promise<void> {
    await page.goto(`${baseUrl}/admin-login`, { waitUntil: 'domcontentloaded' });
    await page.evaluate((value: string) => localStorage.setItem('adminToken', value), token);
}

/**
 * Opens the admin shell's Settings drawer as a person does: once the header has drawn its Settings button (a page
 * at `networkidle2` may not have yet: privacy failed so in CI), clicks it and waits for the drawer. Clicked through
 * the DOM (a toast at the top right may be over the button); a second click if the drawer did not open (seen once
 * in a loaded CI run), which is what a person does.
 */
export async function openSettingsDrawer(page: Page): Promise<void> {
    for (let attempt = 1; ; attempt++) {
        await page.waitForSelector('[data-testid="open-settings"]', { visible: true, timeout: 15000 });
        await page.$eval('[data-testid="open-settings"]', (el) => (el as HTMLElement).click());
        const opened = await page.waitForSelector('[data-testid="settings-drawer"]', { timeout: 5000 }).then(() => true, () => false);
        if (opened) {
            return;
        }
        if (attempt === 3) {
            throw new Error('the Settings drawer did not open after three clicks');
        }
    }
}
