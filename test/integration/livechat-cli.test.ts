import { expect } from 'chai';
import { runCli } from '../helpers/cli';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import * as Crypto from 'crypto';
import { loadConfig } from '../../config';
import { createServer, migratorFor } from '../../core/server';
import { plugins } from '../../plugins';


const run = runCli;

describe('the loyalty-chat mail command', function () {
    this.timeout(60000);        // three CLI processes, each loading every plugin: seconds apiece on a busy machine
    let dir: string;
    let env: Record<string, string>;

    before(async () => {
        dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-mail-'));
        env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${Path.join(dir, 'mail.sqlite')}`, LOG_LEVEL: 'warn', JWT_SECRET: Crypto.randomBytes(32).toString('hex') };
        const server = await createServer(loadConfig({ ...env, LOG_LEVEL: 'silent', SEED_DEMO_ON_EMPTY: 'false' }), plugins);
        await migratorFor(server).latest();
        await server.app.services.mail.send({ organizationId: null, to: 'desk@store.test', subject: 'Chat transcript: +1555 (abc)', text: 'Customer: hi\nAgent: hello\n' });
        await server.app.services.mail.send({ organizationId: null, to: 'other@store.test', subject: 'Test email', text: 'test' });
        await server.stop();
    });
    after(() => Fs.rmSync(dir, { recursive: true, force: true }));

    it('lists the outbox, newest first, filtered by recipient, as a table or JSON', async () => {
        const all = await run(['mail'], env);
        expect(all.code).to.equal(0);
        const lines = all.stdout.trim().split('\n');
        expect(lines[0]).to.match(/^id\s+createdAt\s+to\s+subject\s+status\s+transport$/);
        expect(lines[1]).to.contain('other@store.test');
        expect(lines[2]).to.contain('desk@store.test');

        const json = await run(['mail', '--to', 'DESK@store.test', '--json'], env);
        const rows = JSON.parse(json.stdout);
        expect(rows).to.have.length(1);
        expect(rows[0]).to.include({ to: 'desk@store.test', status: 'stored', transport: 'outbox' });
        expect(rows[0].body).to.contain('Agent: hello');

        const bad = await run(['mail', '--limit', 'x'], env);
        expect(bad.code).to.equal(1);
        expect(bad.stderr).to.contain('--limit');
    });
});
