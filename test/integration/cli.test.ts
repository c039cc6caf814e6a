import { expect } from 'chai';
import { BIN, runCli } from '../helpers/cli';
import * as ChildProcess from 'child_process';
import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Net from 'net';
import * as Os from 'os';
import * as Path from 'path';



const run = runCli;

describe('the loyalty-chat CLI', function () {
    this.timeout(60000);
    let dir: string;
    let env: Record<string, string>;

    before(() => {
        dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-cli-'));
        // The CLI tests always use their own SQLite file: they exercise the commands, not the database.
        env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${Path.join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'warn' };
    });
    after(() => Fs.rmSync(dir, { recursive: true, force: true }));

    it('lists every command in --help', async () => {
        const res = await run(['--help'], env);
        expect(res.code).to.equal(0);
        for (const command of ['serve', 'migrate', 'seed', 'org', 'bot', 'user']) {
            expect(res.stdout).to.match(new RegExp(`^\\s+${command}\\b`, 'm'));
        }
    });

    it('exits 1 naming PORT when PORT is not a number', async () => {
        const res = await run(['serve'], { ...env, PORT: 'abc' });
        expect(res.code).to.equal(1);
        expect(res.stderr).to.contain('"PORT" must be a number');
    });

    it('exits non-zero with a usage message when org create has no --name', async () => {
        const res = await run(['org', 'create', '--domain', 'shop.test', '--subdomain', 'shop'], env);
        expect(res.code).to.not.equal(0);
        expect(res.stderr).to.contain("required option '--name <name>' not specified");
    });

    it('creates an organization, refuses a taken subdomain, and lists it as JSON', async () => {
        const created = await run(['org', 'create', '--name', 'Shop', '--domain', 'shop.test', '--subdomain', 'shop', '--json'], env);
        expect(created.code, created.stderr).to.equal(0);
        expect(JSON.parse(created.stdout)).to.include({ name: 'Shop', subdomain: 'shop', domain: 'shop.test' });

        const again = await run(['org', 'create', '--name', 'Other', '--domain', 'other.test', '--subdomain', 'shop'], env);
        expect(again.code).to.equal(1);
        expect(again.stderr).to.contain('Subdomain "shop" is already taken');

        const list = await run(['org', 'list', '--json'], env);
        expect(JSON.parse(list.stdout).map((o: any) => o.subdomain)).to.deep.equal(['shop']);
    });

    it('validates what it is given with the API\'s rules, naming the field, and stores nothing', async () => {
        const badSubdomain = await run(['org', 'create', '--name', 'Bad', '--domain', 'bad.test', '--subdomain', 'Not Valid!'], env);
        expect(badSubdomain.code).to.equal(1);
        expect(badSubdomain.stderr).to.contain('"subdomain" must be lowercase letters, digits and dashes');
        const badPlan = await run(['org', 'create', '--name', 'Bad', '--domain', 'bad.test', '--subdomain', 'badplan', '--plan', 'platinum'], env);
        expect(badPlan.code).to.equal(1);
        expect(badPlan.stderr).to.contain('"subscriptionPlan" must be one of [free, basic, pro, enterprise]');
        const shortPassword = await run(['user', 'create', '--email', 'short@shop.test', '--password', 'short', '--role', 'super_admin'], env);
        expect(shortPassword.code).to.equal(1);
        expect(shortPassword.stderr).to.contain('"password" must be at least 8 characters');
        const orgs = await run(['org', 'list', '--json'], env);
        expect(JSON.parse(orgs.stdout).map((o: any) => o.subdomain)).to.deep.equal(['shop']);
        const users = await run(['user', 'list', '--json'], env);
        expect(JSON.parse(users.stdout).map((u: any) => u.email)).to.not.include('short@shop.test');
    });

    it('creates bot instances and users for an organization', async () => {
        const bot = await run(['bot', 'create', '--org', 'shop', '--name', 'Main widget', '--json'], env);
        expect(bot.code, bot.stderr).to.equal(0);
        expect(JSON.parse(bot.stdout).embedSnippet).to.contain('/widget-shop.js');
        const missing = await run(['bot', 'create', '--org', 'nope', '--name', 'X'], env);
        expect(missing.code).to.equal(1);
        expect(missing.stderr).to.contain('No organization with subdomain "nope"');

        const user = await run(['user', 'create', '--email', 'a@shop.test', '--password', 'longenough', '--role', 'admin', '--org', 'shop', '--json'], env);
        expect(user.code, user.stderr).to.equal(0);
        expect(JSON.parse(user.stdout)).to.include({ email: 'a@shop.test', role: 'admin' });
        const badRole = await run(['user', 'create', '--email', 'b@shop.test', '--password', 'longenough', '--role', 'king'], env);
        expect(badRole.code).to.not.equal(0);
        expect(badRole.stderr).to.match(/Allowed choices are super_admin, admin, org_user/);
        const noOrg = await run(['user', 'create', '--email', 'c@shop.test', '--password', 'longenough', '--role', 'admin'], env);
        expect(noOrg.code).to.equal(1);
        expect(noOrg.stderr).to.contain('A admin needs an organization');
    });

    it('seeds the demo tenant idempotently and prints its logins', async () => {
        const first = await run(['seed', '--demo'], env);
        expect(first.code, first.stderr).to.equal(0);
        expect(first.stdout).to.contain('Created organization "Demo Store"');
        expect(first.stdout).to.match(/admin\s+admin@demo\.local\s+password: \S+/);
        const second = await run(['seed', '--demo', '--json'], env);
        expect(second.code).to.equal(0);
        expect(JSON.stringify(JSON.parse(second.stdout))).to.not.contain('Created organization');
        const orgs = await run(['org', 'list', '--json'], env);
        expect(JSON.parse(orgs.stdout).filter((o: any) => o.subdomain === 'demo')).to.have.length(1);
    });

    it('reports migration status, rolls back and migrates again', async () => {
        const status = await run(['migrate', 'status', '--json'], env);
        expect(JSON.parse(status.stdout).pending).to.deep.equal([]);
        const completed: string[] = JSON.parse(status.stdout).completed;
        // Each plugin owns its migrations; the first batch holds all of them.
        expect(completed).to.include.members(['20260101000000-tenants', '20260101000001-auth', '20260101000004-livechat']);
        const rolled = await run(['migrate', 'rollback', '--json'], env);
        expect(rolled.code, rolled.stderr).to.equal(0);
        expect(JSON.parse(rolled.stdout).rolledBack).to.include.members(completed);
        const pending = await run(['migrate', 'status', '--json'], env);
        expect(JSON.parse(pending.stdout).pending).to.include.members(completed);
        const latest = await run(['migrate', 'latest', '--json'], env);
        expect(JSON.parse(latest.stdout).applied).to.include.members(completed);
        const bad = await run(['migrate', 'sideways'], env);
        expect(bad.code).to.not.equal(0);
        expect(bad.stderr).to.contain('must be one of latest, rollback, status');
    });

    function freePort(): Promise<number> {
        return new Promise((resolve) => {
            const probe = Net.createServer().listen(0, '127.0.0.1', () => {
                const { port } = probe.address() as Net.AddressInfo;
                probe.close(() => resolve(port));
            });
        });
    }

    // A test that fails before stopping its server must not leave it running (nor its re-spawned child).
    const started: ChildProcess.ChildProcess[] = [];
    afterEach(async () => {
        for (const child of started.splice(0)) {
            if (child.exitCode !== null || child.signalCode !== null) {
                continue;
            }
            let children: number[] = [];
            try {
                children = Fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
            }
            catch { /* gone already */ }
            const closed = new Promise((resolve) => child.once('close', resolve));
            child.kill('SIGINT');
            const timer = new Promise((resolve) => setTimeout(resolve, 5000));
            if (await Promise.race([closed.then(() => true), timer.then(() => false)]) === false) {
                for (const pid of [child.pid!, ...children]) {
                    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
                }
            }
        }
    });

    /** Starts `loyalty-chat serve` on 127.0.0.1 (a free port unless given) and waits for its "is running on" line. */
    async function serve(extraEnv: Record<string, string>, port = 0) {
        const child = ChildProcess.spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
            env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...extraEnv },
            stdio: ['ignore', 'pipe', 'pipe']
        });
        started.push(child);
        const output = { stdout: '', stderr: '' };
        child.stdout.on('data', (d) => (output.stdout += d));
        child.stderr.on('data', (d) => (output.stderr += d));
        const url = await new Promise<string>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`serve did not start: ${output.stdout}${output.stderr}`)), 30000);
            child.on('close', (code) => reject(new Error(`serve exited with ${code}: ${output.stdout}${output.stderr}`)));
            child.stdout.on('data', () => {
                const match = /is running on (https?:\/\/\S+)/.exec(output.stdout);
                if (match) {
                    clearTimeout(timer);
                    resolve(match[1]);
                }
            });
        });
        const stop = () => new Promise<number | null>((resolve) => {
            child.on('close', resolve);
            child.kill('SIGINT');
        });
        return { child, url, output, stop };
    }

    it('serves on an empty database, seeds the demo tenant, answers /health and stops on SIGINT', async () => {
        // serve restarts itself with a larger V8 young generation (bin/loyalty-chat); only the first process
        // gets the signal here, as with `docker stop`, so it must pass it on.
        const fresh = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-serve-'));
        const { child, url, output, stop } = await serve({ DATA_DIR: fresh });
        expect(output.stdout).to.contain('created the demo tenant');
        const health = await fetch(`${url}/health`).then((r) => r.json());
        expect(health).to.include({ status: 'ok', database: 'sqlite', redis: 'disabled' });
        const [server] = Fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
        expect(Fs.readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0')).to.include.members(['--max-semi-space-size=64', 'serve']);
        expect(await stop()).to.equal(0);
        expect(Fs.existsSync(`/proc/${server}`), 'the server process stopped too').to.equal(false);
        Fs.rmSync(fresh, { recursive: true, force: true });
    });

    it('prints the demo embed snippet with the port the server listens on, not a default one', async () => {
        const fresh = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-serve-'));
        const { url, output, stop } = await serve({ DATA_DIR: fresh });
        const port = Number(new URL(url).port);
        expect(port).to.be.greaterThan(0).and.not.equal(3000);
        expect(output.stdout).to.contain(`Created bot instance "Demo Store widget": <script src="http://127.0.0.1:${port}/widget-demo.js" async></script>`);
        const widget = await fetch(`${url}/widget-demo.js`);
        expect(widget.status).to.equal(200);
        expect(await stop()).to.equal(0);
        Fs.rmSync(fresh, { recursive: true, force: true });
    });

    it('does not seed the demo tenant in production on an empty database unless asked', async () => {
        const fresh = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-serve-'));
        const prodEnv = { DATA_DIR: fresh, NODE_ENV: 'production', JWT_SECRET: Crypto.randomBytes(32).toString('hex') };
        const { url, output, stop } = await serve(prodEnv);
        expect(output.stdout).to.not.contain('created the demo tenant');
        expect((await fetch(`${url}/widget-demo.js`)).status).to.equal(404);
        expect(await stop()).to.equal(0);
        const orgs = await run(['org', 'list', '--json'], prodEnv);
        expect(orgs.code, orgs.stderr).to.equal(0);
        expect(JSON.parse(orgs.stdout)).to.deep.equal([]);
        const users = await run(['user', 'list', '--json'], prodEnv);
        expect(JSON.parse(users.stdout)).to.deep.equal([]);
        Fs.rmSync(fresh, { recursive: true, force: true });
    });

    it('seeds the demo tenant in production when SEED_DEMO_ON_EMPTY=true, printing generated passwords once to stdout and not to the log', async () => {
        const fresh = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-serve-'));
        const prodEnv = { DATA_DIR: fresh, NODE_ENV: 'production', JWT_SECRET: Crypto.randomBytes(32).toString('hex'), PUBLIC_URL: 'https://chat.example.test' };
        // LOG_LEVEL=info: the log (JSON lines on stdout) is as chatty as it gets in production.
        const port = await freePort();
        const { url, output, stop } = await serve({ ...prodEnv, SEED_DEMO_ON_EMPTY: 'true', LOG_LEVEL: 'info' }, port);
        expect(url).to.equal('https://chat.example.test');
        expect(output.stdout).to.contain('created the demo tenant');
        expect(output.stdout).to.contain('<script src="https://chat.example.test/widget-demo.js" async></script>');
        expect(output.stdout).to.contain('shown only this once');
        const passwords = [...output.stdout.matchAll(/Created login: +\S+ +(\S+@demo\.local) +password: (\S+)/g)].map((m) => ({ email: m[1], password: m[2] }));
        expect(passwords.map((p) => p.email)).to.have.members(['admin@demo.local', 'org@demo.local', 'super@demo.local']);
        for (const { password } of passwords) {
            expect(password).to.not.match(/demo/);
            const mentions = output.stdout.split('\n').filter((line) => line.includes(password));
            expect(mentions, password).to.have.length(1);
            expect(mentions[0]).to.not.match(/^\s*\{/);
        }
        expect(output.stdout.split('\n').filter((line) => line.startsWith('{')).length, 'there are log lines').to.be.greaterThan(0);
        const admin = passwords.find((p) => p.email === 'admin@demo.local')!;
        const login = await fetch(`http://127.0.0.1:${port}/api/admin/login`, {
            method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin)
        });
        expect(login.status, 'the printed admin password signs in').to.equal(200);
        expect(await stop()).to.equal(0);
        Fs.rmSync(fresh, { recursive: true, force: true });
    });
});
