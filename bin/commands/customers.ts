import * as Fs from 'fs';
import type { Command } from 'commander';
import { parseCustomersCsv } from '../../plugins/loyalty';
import { printResult, printRows, withServer } from './context';

/** `loyalty-chat customers import --org S FILE.csv` and `customers show --org S PHONE` (built-in loyalty provider). */
export function registerCustomers(program: Command): void {
    const customers = program.command('customers').description('loyalty customers of the built-in provider');
    customers.command('import')
        .description('import or update (by phone) customers from a CSV file with the header phone,name,email,loyaltyId,points')
        .requiredOption('--org <subdomain>', 'the organization\'s subdomain')
        .argument('<file>', 'CSV file')
        .option('--json', 'machine-readable output')
        .action(async (file: string, opts) => {
            await withServer(async (server) => {
                let csv: string;
                try {
                    csv = Fs.readFileSync(file, 'utf8');
                }
                catch (err) {
                    throw new Error(`Cannot read ${file}: ${(err as Error).message}`);
                }
                const org = await server.app.services.tenants.requireOrganizationBySubdomain(opts.org);
                const rows = parseCustomersCsv(csv);
                const result = await server.app.services.loyalty.importCustomers(org.id, rows);
                printResult(result, !!opts.json, `Imported into "${org.name}": ${result.created} created, ${result.updated} updated`);
            });
        });
    customers.command('show')
        .description('look a customer up by phone (any loyalty provider)')
        .requiredOption('--org <subdomain>', 'the organization\'s subdomain')
        .argument('<phone>', 'phone number')
        .option('--json', 'machine-readable output')
        .action(async (phone: string, opts) => {
            await withServer(async (server) => {
                const org = await server.app.services.tenants.requireOrganizationBySubdomain(opts.org);
                const found = await server.app.services.loyalty.lookupCustomer(org.id, phone);
                if (opts.json) {
                    printResult(found, true, '');
                    return;
                }
                printRows([found], false, ['found', 'name', 'email', 'alpineId']);
            });
        });
}
