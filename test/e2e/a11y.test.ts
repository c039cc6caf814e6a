import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { createSession, setAvailable } from '../helpers/livechat-client';
import { DEFAULT_QUESTIONS } from '../../core/shared/default-questions';

/**
 * WCAG 2.2 AA on every staff screen (issue 15): axe-core finds no critical or serious violation, and every
 * page has one h1, one main landmark and headings in order, in each main state (dialogs open, tabs switched),
 * at laptop and phone width.
 *
 * Adding a screen is one line in SCREENS: its path, who is signed in, what shows when it is ready, and the
 * states to check after the first (each a step run in the page, then checked).
 */

type As = 'nobody' | 'admin' | 'orgUser' | 'superAdmin';

interface Ctx { t: TestServer; shop: Tenant; page: Page }

interface State { name: string; step: (c: Ctx) => Promise<unknown> }

interface Screen {
    path: string;
    as: As;
    /** Text that shows once the screen has its data. */
    ready: string;
    states?: State[];
}

// ----- steps shared by the screens -----
const clickButton = (text: string) => async ({ page }: Ctx) => {
    await page.waitForFunction((t) => Array.from(document.querySelectorAll('button, [role="tab"], a')).some((b) => b.textContent?.trim().startsWith(t)), {}, text);
    await page.evaluate((t) => {
        const el = Array.from(document.querySelectorAll<HTMLElement>('button, [role="tab"], a')).find((b) => b.textContent?.trim().startsWith(t));
        el!.click();
    }, text);
};
const dialogOpen = async ({ page }: Ctx) => page.waitForSelector('[role="dialog"], [role="alertdialog"], .bp5-drawer', { visible: true });
const steps = (...fns: ((c: Ctx) => Promise<unknown>)[]) => async (c: Ctx) => {
    for (const fn of fns) {
        await fn(c);
        await new Promise((r) => setTimeout(r, 150));
    }
};
const escape = async ({ page }: Ctx) => page.keyboard.press('Escape');
const waitText = (text: string) => async ({ page }: Ctx) => page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 10000 }, text);

let chats = 0;
/** A customer asks for a human while the agent console is open: the banner and the waiting list show. */
const newChatRequest = async ({ t, shop, page }: Ctx) => {
    await setAvailable(t.server, shop);
    chats++;
    await createSession(t.server, shop, `a11y-session-${chats}-${Date.now()}`, 'I need a human please', `+1555555014${chats}`);
    await page.waitForSelector('[data-testid="new-chat-banner"]', { timeout: 10000 });
};

/** A customer leaves a message while the Messages view is open (issue 23): it arrives in the list. */
const leftMessage = async ({ t, shop, page }: Ctx) => {
    await t.server.app.services.livechat.offlineMessage({
        organizationId: shop.organization.id, botInstanceId: shop.bot.id, sessionId: `a11y-left-${Date.now()}`, email: 'left@example.test',
        name: 'Lee Left', message: 'Do you ship to Canada?', phoneNumber: null, domain: null, pageUrl: 'https://shop.example/faq'
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="messages-list"]')?.textContent?.includes('Lee Left'), { timeout: 10000 });
};

/** Every staff screen of SPEC §2 and its main states. */
export const SCREENS: Screen[] = [
    { path: '/admin-login', as: 'nobody', ready: 'Sign In' },
    { path: '/admin-access-2024', as: 'nobody', ready: 'Sign In' },
    { path: '/org-login', as: 'nobody', ready: 'Sign In' },
    { path: '/super-admin-login', as: 'nobody', ready: 'Sign In' },
    { path: '/super-admin', as: 'nobody', ready: 'Access Denied' },
    { path: '/this-does-not-exist', as: 'nobody', ready: '404 Page Not Found' },
    {
        path: '/admin-dashboard', as: 'admin', ready: 'System status', states: [
            // The profile dialog of the header (issue 23): the agent's display name.
            { name: 'profile dialog', step: steps(async ({ page }: Ctx) => page.evaluate(() => (document.querySelector('[data-testid="open-profile"]') as HTMLElement).click()), dialogOpen) }
        ]
    },
    {
        path: '/admin-questions', as: 'admin', ready: 'Pre-made Questions', states: [
            { name: 'add dialog', step: steps(clickButton('Add'), dialogOpen) },
            { name: 'delete alert', step: steps(escape, clickButton('Delete'), dialogOpen) },
            { name: 'preview tab', step: steps(escape, clickButton('Preview'), waitText('How can I help you?')) }
        ]
    },
    {
        path: '/admin-chat', as: 'admin', ready: 'Connected', states: [
            { name: 'new chat banner', step: newChatRequest },
            { name: 'conversation', step: steps(escape, clickButton('Accept'), waitText('I need a human please')) },
            { name: 'internal note mode', step: steps(clickButton('Internal note'), waitText('Add note')) },
            { name: 'transfer dialog', step: steps(clickButton('Transfer'), dialogOpen) },
            { name: 'settings drawer', step: steps(clickButton('Settings'), dialogOpen) }
        ]
    },
    {
        path: '/admin-chat/messages', as: 'admin', ready: 'Left messages', states: [
            { name: 'a left message open', step: steps(leftMessage, clickButton('Lee Left'), waitText('Send by email')) }
        ]
    },
    { path: '/admin-chat/history', as: 'admin', ready: 'History' },
    { path: '/admin-chat/team', as: 'admin', ready: 'Assign new chats automatically' },
    {
        path: '/admin-chat/hours', as: 'admin', ready: 'Every week', states: [
            { name: 'a range and a date added', step: steps(clickButton('Add hours'), clickButton('Add a date'), waitText('Closed now')) }
        ]
    },
    {
        path: '/analytics', as: 'admin', ready: 'Analytics', states: [
            { name: 'phones tab', step: steps(clickButton('Phones')) },
            { name: 'chat trends tab', step: steps(clickButton('Chat trends')) }
        ]
    },
    { path: '/test', as: 'admin', ready: 'System Tests' },
    {
        path: '/ai-management', as: 'admin', ready: 'AI Management', states: [
            { name: 'add entry dialog', step: steps(clickButton('Add Entry'), dialogOpen) },
            { name: 'import dialog', step: steps(escape, clickButton('Import'), dialogOpen) }
        ]
    },
    { path: '/ai-test', as: 'admin', ready: 'Test the AI agent' },
    {
        path: '/super-admin', as: 'superAdmin', ready: 'Store a11y', states: [
            { name: 'new organization dialog', step: steps(clickButton('New organization'), dialogOpen) },
            { name: 'loyalty provider dialog', step: steps(escape, clickButton('Loyalty provider'), dialogOpen) },
            { name: 'bot instances tab', step: steps(escape, clickButton('Bot Instances'), waitText('Copy snippet')) },
            { name: 'new bot dialog', step: steps(clickButton('New bot instance'), dialogOpen) },
            { name: 'users tab', step: steps(escape, clickButton('Users'), waitText('admin@a11y.test')) },
            { name: 'deactivate alert', step: steps(clickButton('Deactivate'), dialogOpen) }
        ]
    },
    {
        path: '/org-dashboard', as: 'orgUser', ready: 'Total interactions', states: [
            { name: 'bot instances tab', step: steps(clickButton('Bot Instances'), waitText('Embed code')) },
            { name: 'analytics tab', step: steps(clickButton('Analytics'), waitText('Period')) }
        ]
    }
];

const WIDTHS = [{ name: 'laptop', width: 1280, height: 860 }, { name: 'phone', width: 390, height: 844 }];

describe('accessibility of every staff screen (axe-core, WCAG 2.2 AA)', function () {
    this.timeout(120000);
    let t: TestServer;
    let shop: Tenant;
    let browser: Browser;
    const storage: Record<As, Record<string, string>> = { nobody: {}, admin: {}, orgUser: {}, superAdmin: {} };

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'a11y', 'localhost');
        for (const q of DEFAULT_QUESTIONS.slice(0, 3)) {
            await t.server.app.services.questions.create(shop.organization.id, q);
        }
        const superPassword = 'operator-password-1';
        await t.server.app.services.users.create({ email: 'root@a11y-platform.test', password: superPassword, role: 'super_admin' });
        const login = async (url: string, email: string, password: string) => {
            const res = await t.server.inject({ method: 'POST', url, payload: { email, password } });
            if (res.statusCode !== 200) {
                throw new Error(`${url}: ${res.statusCode} ${res.payload}`);
            }
            return JSON.parse(res.payload);
        };
        storage.admin = { adminToken: (await login('/api/admin/login', shop.admin.email, shop.admin.password)).token };
        const org = await login('/api/org/login', shop.orgUser.email, shop.orgUser.password);
        storage.orgUser = { orgToken: org.token, orgUser: JSON.stringify(org.user) };
        storage.superAdmin = { superAdminToken: (await login('/api/super-admin/login', 'root@a11y-platform.test', superPassword)).token };
        browser = await launchBrowser();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    let checked = 0;
    for (const screen of SCREENS) {
        for (const size of WIDTHS) {
            it(`${screen.path} as ${screen.as} (${size.name})`, async () => {
                const context = await browser.createBrowserContext();
                try {
                    const page = await context.newPage();
                    await page.setViewport({ width: size.width, height: size.height });
                    await page.evaluateOnNewDocument((items: Record<string, string>) => {
                        for (const [k, v] of Object.entries(items)) {
                            localStorage.setItem(k, v);
                        }
                    }, storage[screen.as]);
                    await page.goto(t.url + screen.path, { waitUntil: 'domcontentloaded' });
                    await page.waitForFunction((text) => document.body.innerText.includes(text), { timeout: 15000 }, screen.ready);
                    await new Promise((r) => setTimeout(r, 300));
                    const slug = `a11y${screen.path.replace(/\//g, '-')}-${screen.as}`;
                    await expectNoSeriousViolations(page, `${screen.path} as ${screen.as} at ${size.width}px`);
                    checked++;
                    for (const state of screen.states ?? []) {
                        await state.step({ t, shop, page });
                        await new Promise((r) => setTimeout(r, 400));
                        await expectNoSeriousViolations(page, `${screen.path} as ${screen.as}, ${state.name}, at ${size.width}px`);
                        checked++;
                        if (size.name === 'laptop') {
                            await screenshot(page, `${slug}-${state.name.replace(/\s+/g, '-')}`);
                        }
                    }
                }
                finally {
                    await context.close();
                }
            });
        }
    }

    async function open(path: string, as: As, width = 1280): Promise<{ page: Page; close(): Promise<void> }> {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.setViewport({ width, height: 860 });
        await page.evaluateOnNewDocument((items: Record<string, string>) => {
            for (const [k, v] of Object.entries(items)) {
                localStorage.setItem(k, v);
            }
        }, storage[as]);
        await page.goto(t.url + path, { waitUntil: 'networkidle0' });
        return { page, close: () => context.close() };
    }

    const shot = (page: Page, name: string) => screenshot(page, name, { fullPage: false });

    it('shows a visible focus ring (3:1 or more) on what the keyboard reaches', async () => {
        const { page, close } = await open('/admin-login', 'nobody');
        try {
            await page.waitForSelector('#login-email');
            await page.type('#login-email', 'agent@example.com');
            await page.type('#login-password', 'secret-password');
            await page.focus('#login-password');
            await page.keyboard.press('Tab');
            const ring = await page.evaluate(() => {
                const el = document.activeElement as HTMLElement;
                const style = getComputedStyle(el);
                return { text: el.textContent, outline: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor };
            });
            expect(ring.text).to.equal('Sign In');
            expect(ring.outline).to.not.equal('none');
            expect(ring.width).to.be.at.least(2);
            await shot(page, 'focus-ring-login');
        }
        finally {
            await close();
        }
    });

    it('calms the new-chat banner under prefers-reduced-motion, and Esc closes it', async () => {
        const { page, close } = await open('/admin-chat', 'admin');
        try {
            await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
            await page.waitForFunction(() => document.body.innerText.includes('Connected'), { timeout: 15000 });
            await newChatRequest({ t, shop, page });
            const calm = await page.$eval('[data-testid="new-chat-banner"]', (el) => {
                const style = getComputedStyle(el);
                return { animation: style.animationName, height: el.getBoundingClientRect().height, background: style.backgroundColor };
            });
            expect(calm.animation, 'no flashing').to.equal('none');
            expect(calm.height, 'a bar, not the whole screen').to.be.below(400);
            await expectNoSeriousViolations(page, '/admin-chat, calm banner');
            await shot(page, 'banner-reduced-motion');
            await page.keyboard.press('Escape');
            await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });

            await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'no-preference' }]);
            await newChatRequest({ t, shop, page });
            expect(await page.$eval('[data-testid="new-chat-banner"]', (el) => getComputedStyle(el).animationName)).to.equal('lc-flash');
            await shot(page, 'banner-full');
            await page.keyboard.press('Escape');
            await page.waitForSelector('[data-testid="new-chat-banner"]', { hidden: true, timeout: 2000 });
        }
        finally {
            await close();
        }
    });

    after(() => {
        console.log(`      axe: ${checked} page states checked over ${SCREENS.length} screens at ${WIDTHS.length} widths`);
    });
});
