import type { Command } from 'commander';
import { Option } from 'commander';
import { validate } from '../../core/http/validate';
import { userCreate } from '../../plugins/auth/schemas';
import { printResult, printRows, withServer } from './context';

export function registerUser(program: Command): void {
    const user = program.command('user').description('manage logins');
    user.command('create')
        .description('create a login')
        .requiredOption('--email <email>', 'login email')
        .requiredOption('--password <password>', 'at least 8 characters')
        .addOption(new Option('--role <role>', 'role').choices(['super_admin', 'admin', 'org_user']).makeOptionMandatory())
        .option('--org <subdomain>', 'organization (required for admin and org_user)')
        .option('--name <name>', 'display name')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const organizationId = opts.org ? (await server.app.services.tenants.requireOrganizationBySubdomain(opts.org)).id : null;
                const input = validate(userCreate, { email: opts.email, password: opts.password, role: opts.role, name: opts.name ?? null, organizationId });
                const created = await server.app.services.users.create(input);
                printResult(created, !!opts.json, `Created ${created.role} ${created.email} (#${created.id})`);
            });
        });
    user.command('list')
        .description('list logins')
        .option('--org <subdomain>', 'only this organization\'s')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const filter = opts.org ? { organizationId: (await server.app.services.tenants.requireOrganizationBySubdomain(opts.org)).id } : {};
                printRows(await server.app.services.users.list(filter) as any, !!opts.json, ['id', 'email', 'role', 'organizationId', 'isActive', 'lastLoginAt']);
            });
        });
}
