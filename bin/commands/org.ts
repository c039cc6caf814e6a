import type { Command } from 'commander';
import { validate } from '../../core/http/validate';
import { organizationCreate } from '../../plugins/tenants/schemas';
import { printResult, printRows, withServer } from './context';

export function registerOrg(program: Command): void {
    const org = program.command('org').description('manage organizations (tenants)');
    org.command('create')
        .description('create an organization')
        .requiredOption('--name <name>', 'display name')
        .requiredOption('--domain <domain>', 'the store site\'s host name (CORS and analytics)')
        .requiredOption('--subdomain <subdomain>', 'unique key: the widget is served at /widget-{subdomain}.js')
        .option('--plan <plan>', 'free | basic | pro | enterprise', 'free')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const input = validate(organizationCreate, { name: opts.name, domain: opts.domain, subdomain: opts.subdomain, subscriptionPlan: opts.plan });
                const created = await server.app.services.tenants.createOrganization(input);
                printResult(created, !!opts.json, `Created organization #${created.id} "${created.name}" (subdomain ${created.subdomain})`);
            });
        });
    org.command('list')
        .description('list organizations')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const rows = await server.app.services.tenants.listOrganizations();
                printRows(rows as any, !!opts.json, ['id', 'name', 'subdomain', 'domain', 'subscriptionPlan', 'isActive']);
            });
        });
}
