import * as ChildProcess from 'child_process';
import * as Fs from 'fs';
import * as Net from 'net';
import * as Os from 'os';
import * as Path from 'path';
import { expect } from 'chai';
import { createTenant, startTestServer, Tenant, TestServer, usingPostgres, usingRedis } from '../helpers/server';
import { BIN } from '../helpers/cli';
import { connect, inbox, request } from '../helpers/livechat-client';

/**
 * Issue 24, the production topology without Docker: three `loyalty-chat serve --no-migrate` processes on one
 * PostgreSQL + Redis behind HAProxy (Debian's package) with the project's balancer settings (deploy/haproxy.cfg:
 * leastconn, /health checks, WebSocket tunnels). A live chat whose agent and customer land on different nodes, both
 * through the balancer; the customer's node is killed (SIGKILL) mid-chat: HAProxy takes it out, the customer's
 * socket reconnects through the balancer to a live node, nothing the agent sent meanwhile is lost (the customer
 * fetches it by sequence, as the widget does) and the chat goes on. Needs PostgreSQL, Redis and `haproxy`.
 */
describe('three nodes behind HAProxy: a live chat across nodes survives a node killed mid-chat (issue 24)', function () {
    this.timeout(120000);
    let seed: TestServer;
    let tenant: Tenant;
    const nodes: Array<{ port: number; child: ChildProcess.ChildProcess }> = [];
    let haproxy: ChildProcess.ChildProcess | null = null;
    let lbPort = 0;
    let work = '';
    const clients: any[] = [];

    before(async function () {
        if (!(usingPostgres && usingRedis) || ChildProcess.spawnSync('haproxy', ['-v']).status !== 0) {
            this.skip();
        }
        work = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-topology-'));
        seed = await startTestServer();          // the schema, migrated once (the nodes serve with --no-migrate)
        tenant = await createTenant(seed.server, 'balanced', 'localhost');
        for (let i = 0; i < 3; i++) {
            const port = await freePort();
            // With the semi-space flag given, bin/loyalty-chat serves in this process (it does not start itself again),
            // so SIGKILL kills the node itself.
            const child = ChildProcess.spawn(process.execPath, ['--max-semi-space-size=64', BIN, 'serve', '--no-migrate'], {
                env: { PATH: process.env.PATH ?? '', ...seed.shared.env, PORT: String(port), HOST: '127.0.0.1', NODE_ID: `topology-${i}`,
                    DATA_DIR: Path.join(work, `node${i}`), TRUST_PROXY: 'true', LOG_LEVEL: 'warn' },
                stdio: 'ignore'
            });
            nodes.push({ port, child });
        }
        // Three servers starting at once on a busy 2-core machine took over 20 s (2026-11-27, load 17): a readiness
        // wait, not a timing claim, so it is generous.
        await Promise.all(nodes.map((n) => waitFor(async () => (await fetch(`http://127.0.0.1:${n.port}/health`)).ok, 60000)));
        lbPort = await freePort();
        const cfg = Fs.readFileSync(Path.resolve(__dirname, '..', '..', '..', 'deploy', 'haproxy.cfg'), 'utf8')
            // The compose file's Docker DNS and port become this machine's three processes and a free port.
            .replace(/^resolvers docker[\s\S]*?(?=^frontend)/m, '')
            .replace('bind :3000', `bind 127.0.0.1:${lbPort}`)
            .replace(/^\s*server-template .*$/m, nodes.map((n, i) => `    server node${i} 127.0.0.1:${n.port} check inter 300ms fall 1 rise 1`).join('\n'))
            .replace('default-server inter 2s fall 2 rise 2', 'default-server inter 300ms fall 1 rise 1')
            // This machine's open-file limit is below what 20,000 connections need; a test needs few.
            .replace(/maxconn \d+/, 'maxconn 2000')
            // Each HTTP request's server connection closes after its answer, so a server's current sessions are its
            // WebSockets alone (how the test tells which node holds which socket).
            .replace('option forwardfor', 'option forwardfor\n    option http-server-close')
            .replace('global\n', `global\n    stats socket ${Path.join(work, 'haproxy.sock')} level admin\n`);
        Fs.writeFileSync(Path.join(work, 'haproxy.cfg'), cfg);
        haproxy = ChildProcess.spawn('haproxy', ['-db', '-f', Path.join(work, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'pipe'] });
        let said = '';
        haproxy.stderr!.on('data', (d) => (said += d));
        await waitFor(async () => (await fetch(`http://127.0.0.1:${lbPort}/health`)).ok, 10000).catch((err) => {
            throw new Error(`${err.message}: haproxy said ${said}`);
        });
    });
    after(async () => {
        for (const c of clients) {
            await c.disconnect().catch(() => undefined);
        }
        haproxy?.stderr?.destroy();
        haproxy?.kill('SIGKILL');
        for (const n of nodes) {
            n.child.kill('SIGKILL');
        }
        await seed?.close();
        if (work) {
            Fs.rmSync(work, { recursive: true, force: true });
        }
    });

    /** Current sessions per backend server, from HAProxy's stats socket. */
    async function sessions(): Promise<Record<string, number>> {
        const csv = await new Promise<string>((resolve, reject) => {
            const socket = Net.createConnection(Path.join(work, 'haproxy.sock'));
            let out = '';
            socket.on('data', (d) => (out += d));
            socket.on('end', () => resolve(out));
            socket.on('error', reject);
            socket.write('show stat\n');
        });
        const lines = csv.split('\n').filter((l) => l.startsWith('nodes,node'));
        return Object.fromEntries(lines.map((l) => l.split(',')).map((f) => [f[1], Number(f[4])]));
    }

    it('keeps the chat going through the balancer when the customer\'s node is killed', async () => {
        const lb = `http://127.0.0.1:${lbPort}`;
        const agentBox = inbox();
        const agent = await connect(lb, tenant.admin.token, { reconnect: true });
        clients.push(agent);
        await agent.subscribe(`/agents/${tenant.organization.id}`, (m: any) => agentBox.messages.push(m));
        const agentNode = Object.entries(await sessions()).find(([, n]) => n === 1)?.[0];
        expect(agentNode, JSON.stringify(await sessions())).to.be.a('string');

        const created = await (await fetch(`${lb}/api/chat/create-session`, {
            method: 'POST', headers: { 'content-type': 'application/json', 'x-widget-key': tenant.bot.publicKey, origin: 'http://localhost' },
            body: JSON.stringify({ sessionId: 'widget_1700000000000_balanced', customerMessage: 'My parcel is late', phoneNumber: null })
        })).json() as { sessionId: string; token: string };
        await agentBox.waitFor((m) => m.type === 'new_customer' && m.sessionId === created.sessionId, 10000);
        const customerBox = inbox();
        const customer = await connect(lb, created.token, { reconnect: true });
        clients.push(customer);
        await customer.subscribe(`/chat/sessions/${created.sessionId}`, (m: any) => customerBox.messages.push(m));
        const now = await sessions();
        const customerNode = Object.entries(now).find(([name, n]) => n === 1 && name !== agentNode)?.[0];
        expect(customerNode, `agent and customer on different nodes: ${JSON.stringify(now)}`).to.be.a('string');

        await request(agent, 'POST', `/api/chat/session/${created.sessionId}/accept`);
        await customerBox.waitFor((m) => m.type === 'agent_connected', 10000);
        await request(agent, 'POST', `/api/chat/session/${created.sessionId}/messages`, { message: 'Let me check that for you.', clientMessageId: 'a1' });
        await customerBox.waitFor((m) => m.type === 'chat_message' && m.message === 'Let me check that for you.', 10000);

        // The customer's node dies; the agent writes while the customer is away.
        const victim = nodes[Number(customerNode!.replace('node', ''))];
        victim.child.kill('SIGKILL');
        await waitFor(async () => (await sessions())[customerNode!] === 0, 10000).catch(async (err) => {
            throw new Error(`${err.message}: ${JSON.stringify(await sessions())}, killed ${victim.child.killed} ${victim.child.exitCode} ${victim.child.signalCode}`);
        });
        await request(agent, 'POST', `/api/chat/session/${created.sessionId}/messages`, { message: 'It ships tomorrow.', clientMessageId: 'a2' });

        // Back through the balancer to a live node: resubscribed (nes), and what was missed fetched by sequence.
        await waitFor(async () => Object.entries(await sessions()).some(([name, n]) => name !== customerNode && name !== agentNode && n === 1), 15000);
        const res = await fetch(`${lb}/api/chat/session/${created.sessionId}/messages?after=2`, {
            headers: { authorization: `Bearer ${created.token}`, 'x-widget-key': tenant.bot.publicKey, origin: 'http://localhost' }
        });
        const body = await res.text();
        expect(res.status, body).to.equal(200);
        const missed = JSON.parse(body) as { messages: Array<{ message: string }> };
        expect(missed.messages.map((m) => m.message)).to.include('It ships tomorrow.');

        // The chat goes on both ways.
        await request(customer, 'POST', `/api/chat/session/${created.sessionId}/messages`, { message: 'Great, thanks!', clientMessageId: 'c1' });
        await agentBox.waitFor((m) => m.type === 'chat_message' && m.message === 'Great, thanks!', 10000).catch(async () => {
            // The agent console reads its chats' messages from the session path, like the widget.
            await agent.subscribe(`/chat/sessions/${created.sessionId}`, (m: any) => agentBox.messages.push(m));
        });
        await request(agent, 'POST', `/api/chat/session/${created.sessionId}/messages`, { message: 'You are welcome!', clientMessageId: 'a3' });
        await customerBox.waitFor((m) => m.type === 'chat_message' && m.message === 'You are welcome!', 10000);
        expect(customerBox.messages.filter((m) => m.message === 'You are welcome!'), 'once').to.have.length(1);
    });
});

function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = Net.createServer();
        server.listen(0, '127.0.0.1', () => {
            const { port } = server.address() as Net.AddressInfo;
            server.close(() => resolve(port));
        });
        server.on('error', reject);
    });
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<void> {
    const until = Date.now() + ms;
    for (;;) {
        try {
            if (await check()) {
                return;
            }
        }
        catch {
            // not up yet
        }
        if (Date.now() > until) {
            throw new Error(`not within ${ms} ms`);
        }
        await new Promise((r) => setTimeout(r, 100));
    }
}
