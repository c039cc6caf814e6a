import type { Command } from 'commander';
import { validate } from '../../core/http/validate';
import { botCreate } from '../../plugins/tenants/schemas';
import { printResult, printRows, withServer } from './context';

export function registerBot(program: Command): void {
    const bot = program.command('bot').description('manage bot instances (embedded widgets)');
    bot.command('create')
        .description('create a bot instance for an organization')
        .requiredOption('--org <subdomain>', 'the organization\'s subdomain')
        .requiredOption('--name <name>', 'display name')
        .option('--description <text>', 'description')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const tenants = server.app.services.tenants;
                const org = await tenants.requireOrganizationBySubdomain(opts.org);
                const input = validate(botCreate, { organizationId: org.id, name: opts.name, description: opts.description ?? null });
                const created = await tenants.createBotInstance(input);
                printResult(created, !!opts.json, `Created bot instance #${created.id} "${created.name}" for ${org.subdomain}\nEmbed: ${created.embedSnippet}`);
            });
        });
    bot.command('list')
        .description('list bot instances')
        .option('--org <subdomain>', 'only this organization\'s')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const tenants = server.app.services.tenants;
                const filter = opts.org ? { organizationId: (await tenants.requireOrganizationBySubdomain(opts.org)).id } : {};
                const rows = await tenants.listBotInstances(filter);
                printRows(rows as any, !!opts.json, ['id', 'name', 'subdomain', 'isActive', 'publicKey', 'embedSnippet']);
            });
        });
}
