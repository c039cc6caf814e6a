import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import Knex from 'knex';
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

    it('writes points and orders only for the store\'s loyalty members, their own points, and orders only of members who have some', async () => {
        const created = await runCli(['org', 'create', '--name', 'Member Shop', '--domain', 'members.test', '--subdomain', 'genm', '--json'], env);
        expect(created.code, created.stderr).to.equal(0);
        const csv = Path.join(dir, 'members.csv');
        Fs.writeFileSync(csv, 'phone,name,email,loyaltyId,points\n+12125550101,Ada,ada@example.com,M-1,1250\n+12125550102,Bo,bo@example.com,M-2,40\n+12125550103,Cy,,M-3,0\n');
        const imported = await runCli(['customers', 'import', '--org', 'genm', csv], env);
        expect(imported.code, imported.stderr).to.equal(0);
        const gen = await runCli(['analytics', 'generate', '--org', 'genm', '--events', '3000', '--days', '7', '--seed', '5', '--json'], env);
        expect(gen.code, gen.stderr).to.equal(0);
        expect(JSON.parse(gen.stdout)).to.include({ members: 3 });

        const db = Knex({ client: 'better-sqlite3', connection: { filename: Path.join(dir, 'cli.sqlite') }, useNullAsDefault: true });
        try {
            const orgOf = async (sub: string) => (await db('organizations').where('subdomain', sub).first('id')).id as number;
            const members = new Map((await db('loyalty_customers').where('organization_id', await orgOf('genm')).select('phone', 'points') as Array<{ phone: string; points: number }>)
                .map((m) => [m.phone, Number(m.points)]));
            expect(members.size).to.equal(3);
            const events = await db('analytics_events').where('organization_id', await orgOf('genm'))
                .select('action', 'phone_number as phone', 'points_retrieved as points') as Array<{ action: string; phone: string | null; points: number | null }>;
            const shown = events.filter((e) => ['verification_sent', 'code_verification_failed', 'points_retrieved', 'order_history_viewed'].includes(e.action));
            expect(shown.filter((e) => e.action === 'points_retrieved').length, 'some points were shown').to.be.greaterThan(10);
            // Every phone that was sent a code, shown points or orders is a member; the points are that member's own.
            expect(shown.filter((e) => !e.phone || !members.has(e.phone)), 'events of phones that are not members').to.deep.equal([]);
            expect(shown.filter((e) => e.action === 'points_retrieved' && Number(e.points) !== members.get(e.phone!))).to.deep.equal([]);
            // Imported members have no orders: no order views at all.
            expect(shown.filter((e) => e.action === 'order_history_viewed')).to.deep.equal([]);
            // Not-members only ever fail the check.
            const strangers = events.filter((e) => e.phone && !members.has(e.phone));
            expect(strangers.length).to.be.greaterThan(0);
            expect([...new Set(strangers.map((e) => e.action))]).to.deep.equal(['verification_failed']);
            // A store without members: no code sent, no points or orders written.
            const [{ n }] = await db('analytics_events').where('organization_id', await orgOf('gen'))
                .whereIn('action', ['points_retrieved', 'order_history_viewed', 'verification_sent']).count({ n: '*' });
            expect(Number(n)).to.equal(0);
        }
        finally {
            await db.destroy();
        }
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
