import * as Fs from 'fs';
import * as Path from 'path';
import puppeteer, { Browser, Page } from 'puppeteer-core';

export const SCREENSHOT_DIR = Path.resolve(__dirname, '..', '..', '..', 'test-output', 'screenshots');

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches Debian's chromium headless with the flags this machine needs (no network beyond loopback). */
export async function launchBrowser(): Promise<Browser> {
    return puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
            '--disable-sync', '--no-first-run', '--disable-dev-shm-usage', '--disable-quic']
    });
}

/** Screenshots are taken only when asked: SCREENSHOTS=1 (they cost time, and CI looks at none of them). */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** With SCREENSHOTS=1, saves a full-page screenshot under test-output/screenshots/NAME.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string | null> {
    if (!SCREENSHOTS) {
        return null;
    }
    Fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = Path.join(SCREENSHOT_DIR, `${name}.png`);
    await page.screenshot({ path: file as `${string}.png`, fullPage: true });
    return file;
}

/** Signs the admin app in the way it keeps its session: the token in localStorage of the app's origin. */
export async function storeAdminToken(page: Page, baseUrl: string, token: string): Promise<void> {
    await page.goto(`${baseUrl}/admin-login`, { waitUntil: 'domcontentloaded' });
    await page.evaluate((value: string) => localStorage.setItem('adminToken', value), token);
}
