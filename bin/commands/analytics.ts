import type { Command } from 'commander';
import { generateEvents } from '../../plugins/analytics/lib/generate';
import { printResult, withServer } from './context';

function positiveInt(name: string, max: number): (value: string) => number {
    return (value: string) => {
        const n = Number(value);
        if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > max) {
            throw new Error(`${name} must be a whole number from 1 to ${max}`);
        }
        return n;
    };
}

/** `loyalty-chat analytics generate --org S --events N --days D` and `loyalty-chat analytics rebuild [--org S]`. */
export function registerAnalytics(program: Command): void {
    const analytics = program.command('analytics').description('analytics demo data and rollups');
    analytics.command('generate')
        .description('write realistic demo analytics events (and their rollups) for an organization')
        .requiredOption('--org <subdomain>', 'the organization\'s subdomain')
        .option('--events <n>', 'how many events (default 10000)', '10000')
        .option('--days <n>', 'spread over the last N days (default 30)', '30')
        .option('--seed <n>', 'random seed (the same seed writes the same events)', '1')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const events = positiveInt('--events', 10_000_000)(opts.events);
                const days = positiveInt('--days', 400)(opts.days);
                const seed = positiveInt('--seed', 2 ** 31)(opts.seed);
                const org = await server.app.services.tenants.requireOrganizationBySubdomain(opts.org);
                const bots = await server.app.services.tenants.listBotInstances({ organizationId: org.id });
                // Points and orders only for the store's own members (issue 23): none, and only "not found" checks are written.
                const members = await server.app.services.loyalty.listMembers(org.id);
                const started = Date.now();
                const written = await generateEvents(server.app.services.analytics, {
                    organizationId: org.id, events, days, seed, botInstanceId: bots[0]?.id ?? null, members,
                    domains: [org.domain, `www.${org.domain}`, ...org.extraDomains].filter((d, i, all) => all.indexOf(d) === i),
                    onProgress: (n) => {
                        if (!opts.json && process.stderr.isTTY) {
                            process.stderr.write(`\r${n} events`);
                        }
                    }
                });
                const seconds = (Date.now() - started) / 1000;
                printResult({ organization: org.subdomain, events: written, days, seconds, members: members.length }, !!opts.json,
                    `Wrote ${written} events over ${days} days for "${org.name}" in ${seconds.toFixed(1)} s`
                    + (members.length ? ` (points and orders of its ${members.length} loyalty members)`
                        : ' (the store has no loyalty members: no points or orders were written; import some with `loyalty-chat customers import`)'));
            });
        });
    analytics.command('rebuild')
        .description('recompute the rollups from the raw events (all organizations, or one)')
        .option('--org <subdomain>', 'only this organization')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const org = opts.org ? await server.app.services.tenants.requireOrganizationBySubdomain(opts.org) : null;
                const started = Date.now();
                const events = await server.app.services.analytics.rebuild(org?.id);
                const seconds = (Date.now() - started) / 1000;
                printResult({ organization: org?.subdomain ?? null, events, seconds }, !!opts.json,
                    `Rebuilt the rollups of ${org ? `"${org.name}"` : 'every organization'} from ${events} events in ${seconds.toFixed(1)} s`);
            });
        });
}
