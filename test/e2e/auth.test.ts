import { expect } from 'chai';
import * as ChildProcess from 'child_process';
import * as Path from 'path';
import type { Browser, Page } from 'puppeteer-core';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { LOGIN_LIMITS } from '../../plugins/auth/throttle';

const BIN = Path.resolve(__dirname, '..', '..', '..', 'bin', 'loyalty-chat');
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844, deviceScaleFactor: 2 };

/** Runs the real CLI against the test server's database. */
function cli(args: string[], env: Record<string, string>): Promise<string> {
    return new Promise((resolve, reject) => {
        const child = ChildProcess.spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')} exited ${code}: ${err}`))));
    });
}

async function text(page: Page): Promise<string> {
    return page.evaluate(() => document.body.innerText);
}

async function waitForText(page: Page, needle: string, timeout = 10000): Promise<void> {
    await page.waitForFunction((n: string) => document.body.innerText.includes(n), { timeout }, needle);
}

async function fillLogin(page: Page, email: string, password: string): Promise<void> {
    await page.waitForSelector('#login-email');
    await page.click('#login-email', { count: 3 });
    await page.type('#login-email', email);
    await page.click('#login-password', { count: 3 });
    await page.type('#login-password', password);
}

async function submitDisabled(page: Page): Promise<boolean> {
    return page.$eval('button[type=submit]', (b) => (b as HTMLButtonElement).disabled);
}

/** Saves the screen at laptop and phone sizes (the page stays at the laptop size afterwards). */
async function shoot(page: Page, name: string): Promise<void> {
    await page.setViewport(LAPTOP);
    await screenshot(page, `${name}-laptop`);
    await page.setViewport(PHONE);
    await new Promise((r) => setTimeout(r, 150));
    await screenshot(page, `${name}-phone`);
    await page.setViewport(LAPTOP);
}

describe('accounts in the browser: admin, super admin and organization user', function () {
    this.timeout(120000);
    let t: TestServer;
    let browser: Browser;
    let page: Page;
    let a: Tenant;
    let b: Tenant;
    const superAdmin = { email: 'operator@platform.test', password: 'operator-password-1' };

    before(async () => {
        t = await startTestServer({ listen: true, env: { SUPPORT_EMAIL: 'help@auth.test' } });
        a = await createTenant(t.server, 'e2ealpha', 'alpha.test');
        b = await createTenant(t.server, 'e2ebeta', 'beta.test');
        // Tenants created by an operator with the CLI, on the same database.
        const env = { ...t.shared.env, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'warn' };
        await cli(['org', 'create', '--name', 'CLI Outfitters', '--domain', 'outfitters.test', '--subdomain', 'clioutfitters', '--plan', 'pro'], env);
        await cli(['bot', 'create', '--org', 'clioutfitters', '--name', 'Outfitters storefront', '--description', 'Made with the CLI'], env);
        await cli(['user', 'create', '--email', superAdmin.email, '--password', superAdmin.password, '--role', 'super_admin'], env);
        browser = await launchBrowser();
        const context = browser.defaultBrowserContext();
        await context.overridePermissions(t.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    });
    beforeEach(async () => {
        page = await browser.newPage();
        await page.setViewport(LAPTOP);
    });
    afterEach(async () => {
        await page?.close();
    });
    after(async () => {
        await browser?.close();
        await t?.close();
    });

    it('signs an admin in at /admin-access-2024, keeps the session on reload, and logs out back to /admin-access-2024 @smoke', async () => {
        await page.goto(`${t.url}/admin-access-2024`, { waitUntil: 'networkidle0' });
        await waitForText(page, 'Admin Login');
        expect(await submitDisabled(page)).to.equal(true);
        await page.type('#login-email', a.admin.email);
        expect(await submitDisabled(page), 'Sign In stays disabled with only the email').to.equal(true);
        await page.type('#login-password', a.admin.password);
        expect(await submitDisabled(page)).to.equal(false);
        await shoot(page, 'auth-admin-login');
        await page.click('button[type=submit]');
        await page.waitForFunction(() => location.pathname === '/admin-dashboard');
        await waitForText(page, 'Live Chat');
        const dashboard = await text(page);
        for (const label of ['Admin Dashboard', 'Analytics', 'Manage Questions', 'Test Dashboard', 'Demo Page', 'System status', 'Quick actions', a.admin.email]) {
            expect(dashboard).to.contain(label);
        }
        const links = await page.$$eval('a', (as) => as.map((x) => ({ href: x.getAttribute('href'), target: x.getAttribute('target') })));
        for (const href of ['/admin-chat', '/analytics', '/admin-questions', '/test-dashboard']) {
            expect(links.map((l) => l.href)).to.include(href);
        }
        expect(links.find((l) => l.href === '/demo')?.target).to.equal('_blank');
        await waitForText(page, 'Operational');
        await shoot(page, 'auth-admin-dashboard');

        await page.reload({ waitUntil: 'networkidle0' });
        await waitForText(page, 'Quick actions');
        expect(new URL(page.url()).pathname).to.equal('/admin-dashboard');
        // A signed-in admin who opens the login page goes straight back to the dashboard.
        await page.goto(`${t.url}/admin-login`, { waitUntil: 'networkidle0' });
        await page.waitForFunction(() => location.pathname === '/admin-dashboard');
        await waitForText(page, 'Quick actions');

        await page.click('[data-testid=logout]');
        await page.waitForFunction(() => location.pathname === '/admin-access-2024');
        await waitForText(page, 'Admin Login');
        expect(await page.evaluate(() => localStorage.getItem('adminToken'))).to.equal(null);
        await page.goto(`${t.url}/admin-dashboard`, { waitUntil: 'networkidle0' });
        await waitForText(page, 'Admin Login');
        expect(await text(page)).to.not.contain('Quick actions');
    });

    it('shows the server message for a bad password and "Signing in..." never sticks', async () => {
        await page.goto(`${t.url}/admin-login`, { waitUntil: 'networkidle0' });
        await fillLogin(page, a.admin.email, 'definitely-wrong');
        await page.click('button[type=submit]');
        await waitForText(page, 'Invalid email or password');
        expect(await page.$eval('button[type=submit]', (x) => x.textContent)).to.equal('Sign In');
        await shoot(page, 'auth-admin-login-error');
        // An organization user cannot use the admin login either.
        await fillLogin(page, a.orgUser.email, a.orgUser.password);
        await page.click('button[type=submit]');
        await page.waitForFunction(() => document.querySelectorAll('[role=alert]').length > 0);
        expect(new URL(page.url()).pathname).to.equal('/admin-login');
    });

    it('guards the admin pages: a rejected token is removed; the login shows in place or the browser goes to /admin-login', async () => {
        await page.goto(`${t.url}/admin-login`, { waitUntil: 'networkidle0' });
        await page.evaluate(() => localStorage.setItem('adminToken', 'not-a-real-token'));
        await page.goto(`${t.url}/admin-questions`, { waitUntil: 'networkidle0' });
        await waitForText(page, 'Admin Login');
        expect(new URL(page.url()).pathname).to.equal('/admin-questions');
        expect(await page.evaluate(() => localStorage.getItem('adminToken'))).to.equal(null);
        // Signing in on the spot shows the page itself.
        await fillLogin(page, a.admin.email, a.admin.password);
        await page.click('button[type=submit]');
        await page.waitForFunction(() => !document.querySelector('#login-email'));
        expect(new URL(page.url()).pathname).to.equal('/admin-questions');
        await page.evaluate(() => localStorage.removeItem('adminToken'));
        await page.goto(`${t.url}/analytics`, { waitUntil: 'networkidle0' });
        await page.waitForFunction(() => location.pathname === '/admin-login');
    });

    it('shows on the admin login page how long to wait after too many failed logins, from Retry-After', async () => {
        const locked = await createTenant(t.server, 'e2elocked');
        await page.goto(`${t.url}/admin-login`, { waitUntil: 'networkidle0' });
        const submit = async (password: string) => {
            await fillLogin(page, locked.admin.email, password);
            await page.waitForFunction(() => !(document.querySelector('button[type=submit]') as HTMLButtonElement).disabled);
            const [answer] = await Promise.all([
                page.waitForResponse((r) => r.url().endsWith('/api/admin/login') && r.request().method() === 'POST'),
                page.click('button[type=submit]')
            ]);
            return answer;
        };
        for (let i = 0; i < LOGIN_LIMITS.accountAndAddress.points; i += 1) {
            expect((await submit(`wrong-guess-${i}`)).status(), `failure ${i + 1}`).to.equal(401);
        }
        const throttled = await submit(locked.admin.password);
        expect(throttled.status()).to.equal(429);
        const retryAfter = Number(throttled.headers()['retry-after']);
        expect(retryAfter).to.be.within(LOGIN_LIMITS.accountAndAddress.duration - 120, LOGIN_LIMITS.accountAndAddress.duration);
        const minutes = Math.ceil(retryAfter / 60);
        await waitForText(page, `Too many failed login attempts. Please try again in ${minutes} minutes.`);
        expect(await page.$eval('[role=alert]', (x) => x.textContent)).to.equal(`Too many failed login attempts. Please try again in ${minutes} minutes.`);
        expect(new URL(page.url()).pathname).to.equal('/admin-login');
        expect(await page.evaluate(() => localStorage.getItem('adminToken'))).to.equal(null);
        await shoot(page, 'auth-admin-login-throttled');
    });

    it('takes the wait of a 429 from Retry-After on all three login pages, also when only a proxy in front sends it', async () => {
        // A reverse proxy's own 429: a Retry-After header and a body that says nothing.
        const cases = [
            { path: '/admin-access-2024', api: '/api/admin/login', retryAfter: '42', shown: '42 seconds' },
            { path: '/super-admin-login', api: '/api/super-admin/login', retryAfter: '61', shown: '2 minutes' },
            { path: '/org-login', api: '/api/org/login', retryAfter: new Date(Date.now() + 5 * 60 * 1000 + 500).toUTCString(), shown: '5 minutes' }
        ];
        await page.setRequestInterception(true);
        let current = cases[0];
        page.on('request', (request) => {
            if (request.url().endsWith(current.api)) {
                void request.respond({ status: 429, headers: { 'Retry-After': current.retryAfter }, contentType: 'text/html', body: '<html><body>429 Too Many Requests</body></html>' });
            }
            else {
                void request.continue();
            }
        });
        for (const c of cases) {
            current = c;
            await page.goto(`${t.url}${c.path}`, { waitUntil: 'networkidle0' });
            await fillLogin(page, a.orgUser.email, 'any-password-at-all');
            await page.click('button[type=submit]');
            await waitForText(page, `Too many failed login attempts. Please try again in ${c.shown}.`);
            expect(new URL(page.url()).pathname, c.path).to.equal(c.path);
        }
    });

    it('shows \'404 Page Not Found\' for an unknown path', async () => {
        await page.goto(`${t.url}/no/such/page`, { waitUntil: 'networkidle0' });
        await waitForText(page, '404 Page Not Found');
        await shoot(page, 'auth-404');
    });

    it('lets a super admin see the tenants created with the CLI and create one in the browser', async () => {
        await page.goto(`${t.url}/super-admin`, { waitUntil: 'networkidle0' });
        await waitForText(page, 'Access Denied');
        await shoot(page, 'auth-super-admin-denied');
        await page.click('::-p-text(Go to Login)');
        await page.waitForFunction(() => location.pathname === '/super-admin-login');
        await waitForText(page, 'Super Admin Login');
        expect(await text(page), 'no demo box without the demo login').to.not.contain('Demo credentials');
        await fillLogin(page, superAdmin.email, 'wrong-password');
        await page.click('button[type=submit]');
        await waitForText(page, 'Invalid email or password');
        await fillLogin(page, superAdmin.email, superAdmin.password);
        await page.click('button[type=submit]');
        await page.waitForFunction(() => location.pathname === '/super-admin');
        await waitForText(page, 'CLI Outfitters');
        const body = await text(page);
        for (const expected of ['Organizations', 'Bot instances', 'Users', 'outfitters.test', 'clioutfitters', 'Store e2ealpha', 'Store e2ebeta', 'pro']) {
            expect(body).to.contain(expected);
        }
        await shoot(page, 'auth-super-admin');

        await page.click('[role=tab]::-p-text(Bot Instances)');
        await waitForText(page, 'Outfitters storefront');
        expect(await text(page)).to.contain('Made with the CLI');
        await shoot(page, 'auth-super-admin-bots');

        await page.click('[role=tab]::-p-text(Users)');
        await waitForText(page, superAdmin.email);
        expect(await text(page)).to.contain(a.orgUser.email);
        await shoot(page, 'auth-super-admin-users');

        await page.click('[role=tab]::-p-text(Organizations)');
        await page.click('::-p-text(New organization)');
        await page.waitForSelector('#org-name');
        await page.type('#org-name', 'Browser Boutique');
        await page.type('#org-domain', 'boutique.test');
        await page.type('#org-subdomain', 'browserboutique');
        await shoot(page, 'auth-super-admin-new-org');
        await page.click('.lc-dialog button[type=submit]');
        await page.waitForFunction(() => !document.querySelector('.lc-dialog'));
        await waitForText(page, 'Browser Boutique');
        expect((await t.server.app.services.tenants.getOrganizationBySubdomain('browserboutique'))?.name).to.equal('Browser Boutique');

        await page.click('::-p-text(Logout)');
        await page.waitForFunction(() => location.pathname === '/super-admin-login');
    });

    it('shows the demo credentials box on the super-admin login outside production', async () => {
        await t.server.app.services.users.create({ email: 'super@demo.local', password: 'superadmin-demo', role: 'super_admin' });
        await page.goto(`${t.url}/super-admin-login`, { waitUntil: 'networkidle0' });
        await waitForText(page, 'Demo credentials');
        expect(await text(page)).to.contain('super@demo.local');
        await shoot(page, 'auth-super-admin-login');
    });

    it('shows an organization user only their own bot instances and copies the embed snippet', async () => {
        await page.goto(`${t.url}/org-dashboard`, { waitUntil: 'networkidle0' });
        await page.waitForFunction(() => location.pathname === '/org-login');
        await waitForText(page, 'Organization Login');
        expect(await text(page)).to.contain('Contact your administrator');
        // A mailto with the configured SUPPORT_EMAIL (issue 23; without one the link is not shown).
        expect(await page.$$eval('a[href^="mailto:"]', (as) => as.map((x) => x.getAttribute('href'))))
            .to.deep.equal(['mailto:help@auth.test?subject=Access%20to%20our%20loyalty-chat%20organization%20dashboard']);
        expect(await page.$$eval('a', (as) => as.map((x) => x.getAttribute('href')))).to.include('/super-admin-login');
        await fillLogin(page, a.orgUser.email, 'nope-nope-nope');
        await page.click('button[type=submit]');
        await waitForText(page, 'Invalid email or password');
        await shoot(page, 'auth-org-login');
        // Keyboard only: Enter in the password field signs in.
        await fillLogin(page, a.orgUser.email, a.orgUser.password);
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => location.pathname === '/org-dashboard');
        await waitForText(page, 'Total interactions');
        const overview = await text(page);
        for (const expected of ['Store e2ealpha', 'alpha.test', 'e2ealpha', 'Loyalty checks', 'Live chat sessions', 'Success rate', 'org_user']) {
            expect(overview).to.contain(expected);
        }
        await shoot(page, 'auth-org-overview');

        await page.click('[role=tab]::-p-text(Bot Instances)');
        await page.waitForSelector('.lc-snippet');
        const snippets = await page.$$eval('.lc-snippet', (els) => els.map((e) => e.textContent));
        expect(snippets).to.deep.equal([`<script src="${t.url}/widget-e2ealpha.js" async></script>`]);
        const shown = await text(page);
        expect(shown).to.not.contain('e2ebeta');
        expect(shown).to.not.contain(b.bot.publicKey);
        await page.click('::-p-text(Copy)');
        await waitForText(page, 'Copied!');
        expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(snippets[0]);
        await shoot(page, 'auth-org-bots');

        await page.click('[role=tab]::-p-text(Analytics)');
        await waitForText(page, 'contact your administrator');
        const asked: string[] = [];
        page.on('request', (r) => asked.push(r.url()));
        await page.select('#org-period', '7');
        await page.waitForFunction(() => !document.querySelector('.lc-tab-panel .bp5-spinner'));
        expect(asked.some((u) => u.includes(`/api/org/analytics?organizationId=${a.organization.id}&days=7`))).to.equal(true);
        await shoot(page, 'auth-org-analytics');

        // Invalid stored session data goes back to /org-login.
        await page.evaluate(() => localStorage.setItem('orgUser', '{broken'));
        await page.goto(`${t.url}/org-dashboard`, { waitUntil: 'networkidle0' });
        await page.waitForFunction(() => location.pathname === '/org-login');
    });
});
