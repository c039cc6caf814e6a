import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { runCli } from '../helpers/cli';

describe('loyalty-chat analytics generate and rebuild', function () {
    this.timeout(60000);
    let dir: string;
    let env: Record<string, string>;

    before(async () => {
        dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-analytics-cli-'));
        env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${Path.join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'warn' };
        const created = await runCli(['org', 'create', '--name', 'Gen Shop', '--domain', 'gen.test', '--subdomain', 'gen', '--json'], env);
        expect(created.code, created.stderr).to.equal(0);
    });
    after(() => Fs.rmSync(dir, { recursive: true, force: true }));

    it('generates demo events with their rollups, and rebuilds the same rollups from them', async () => {
        const gen = await runCli(['analytics', 'generate', '--org', 'gen', '--events', '2000', '--days', '14', '--json'], env);
        expect(gen.code, gen.stderr).to.equal(0);
        const result = JSON.parse(gen.stdout);
        expect(result).to.include({ organization: 'gen', days: 14 });
        expect(result.events).to.be.within(2000, 2020);
        const rebuilt = await runCli(['analytics', 'rebuild', '--org', 'gen', '--json'], env);
        expect(rebuilt.code, rebuilt.stderr).to.equal(0);
        expect(JSON.parse(rebuilt.stdout)).to.include({ organization: 'gen', events: result.events });
        const all = await runCli(['analytics', 'rebuild'], env);
        expect(all.code, all.stderr).to.equal(0);
        expect(all.stdout).to.match(/^Rebuilt the rollups of every organization from \d+ events/);
    });

    it('refuses bad numbers and an unknown organization, and writes nothing', async () => {
        for (const args of [['--events', '0'], ['--events', 'many'], ['--days', '401']]) {
            const res = await runCli(['analytics', 'generate', '--org', 'gen', ...args], env);
            expect(res.code, args.join(' ')).to.equal(1);
            expect(res.stderr).to.match(/^Error: --(events|days) must be a whole number/);
        }
        const unknown = await runCli(['analytics', 'generate', '--org', 'nope', '--events', '10'], env);
        expect(unknown.code).to.equal(1);
        expect(unknown.stderr).to.contain('No organization with subdomain "nope"');
    });
});
