import { expect } from 'chai';
import { runCli } from '../helpers/cli';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { plugins } from '../../plugins';


const run = runCli;

describe('the loyalty CLI commands (customers import, outbox)', function () {
    this.timeout(60000);
    let dir: string;
    let env: Record<string, string>;

    before(async () => {
        dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-loyalty-cli-'));
        env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${Path.join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'warn' };
        const org = await run(['org', 'create', '--name', 'Shop', '--domain', 'shop.test', '--subdomain', 'shop'], env);
        expect(org.code, org.stderr).to.equal(0);
    });
    after(() => Fs.rmSync(dir, { recursive: true, force: true }));

    it('imports customers from CSV, then updates them by phone on a re-import', async () => {
        const file = Path.join(dir, 'customers.csv');
        Fs.writeFileSync(file, 'phone,name,email,loyaltyId,points\n+15555550100,Alex,alex@example.com,L1,100\n555-555-0101,Sam,,L2,5\n');
        const first = await run(['customers', 'import', '--org', 'shop', file, '--json'], env);
        expect(first.code, first.stderr).to.equal(0);
        expect(JSON.parse(first.stdout)).to.deep.equal({ created: 2, updated: 0 });
        Fs.writeFileSync(file, 'phone,name,email,loyaltyId,points\n+15555550100,Alex,alex@example.com,L1,250\n');
        const second = await run(['customers', 'import', '--org', 'shop', file], env);
        expect(second.stdout).to.contain('0 created, 1 updated');
        const shown = await run(['customers', 'show', '--org', 'shop', '+15555550101', '--json'], env);
        expect(JSON.parse(shown.stdout)).to.include({ found: true, name: 'Sam' });
    });

    it('exits non-zero naming the line of a bad CSV row, and for an unknown organization', async () => {
        const file = Path.join(dir, 'bad.csv');
        Fs.writeFileSync(file, 'phone,name,email,loyaltyId,points\nnot-a-phone,X,,L,1\n');
        const bad = await run(['customers', 'import', '--org', 'shop', file], env);
        expect(bad.code).to.equal(1);
        expect(bad.stderr).to.contain('Line 2: "not-a-phone" is not a valid phone number');
        const unknown = await run(['customers', 'import', '--org', 'nobody', file], env);
        expect(unknown.code).to.equal(1);
        expect(unknown.stderr).to.contain('No organization with subdomain "nobody"');
    });

    it('lists the SMS outbox, filtered by phone, as a table or JSON, and refuses a bad --limit or --phone', async () => {
        const empty = await run(['outbox', '--json'], env);
        expect(empty.code, empty.stderr).to.equal(0);
        expect(JSON.parse(empty.stdout)).to.deep.equal([]);
        // Store one message the way the outbox sender does, through a server on the same database.
        const { loadConfig } = await import('../../config');
        const { createServer } = await import('../../core/server');
        const server = await createServer(loadConfig({ ...env, DATA_DIR: dir, LOG_LEVEL: 'silent' }), plugins, { logRequests: false });
        await server.app.services.loyalty.sms.send({ organizationId: null, to: '+15555550100', body: 'Your Shop verification code is 123456. It expires in 10 minutes.' });
        await server.app.services.loyalty.sms.send({ organizationId: null, to: '+15555550101', body: 'Other' });
        await server.stop();
        const json = await run(['outbox', '--phone', '555-555-0100', '--json'], env);
        const rows = JSON.parse(json.stdout);
        expect(rows).to.have.length(1);
        expect(rows[0]).to.include({ to: '+15555550100', status: 'stored', body: 'Your Shop verification code is 123456. It expires in 10 minutes.' });
        const table = await run(['outbox'], env);
        expect(table.stdout).to.match(/^id\s+createdAt\s+to\s+status\s+body/);
        expect(table.stdout).to.contain('123456');
        const badLimit = await run(['outbox', '--limit', '0'], env);
        expect(badLimit.code).to.equal(1);
        expect(badLimit.stderr).to.contain('--limit must be a whole number from 1 to 1000');
        const badPhone = await run(['outbox', '--phone', 'call me'], env);
        expect(badPhone.code).to.equal(1);
        expect(badPhone.stderr).to.contain('"--phone" must be a phone number');
    });
});
