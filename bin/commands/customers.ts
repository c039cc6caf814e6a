import * as Fs from 'fs';
import type { Command } from 'commander';
import { parseCustomersCsv } from '../../plugins/loyalty';
import { printResult, printRows, withServer } from './context';

/**
 * `loyalty-chat customers import --org S FILE.csv` and `customers show --org S PHONE` (built-in loyalty provider);
 * `customers export|erase --org S --phone P [--email E]` (issue 25: a customer's data, every plugin's tables).
 */
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

    // ---- right of access and erasure (issue 25): every plugin's tables, audited ----
    customers.command('export')
        .description('everything a store keeps about one customer (by phone and/or email), as one JSON document')
        .requiredOption('--org <subdomain>', 'the organization\'s subdomain')
        .option('--phone <phone>', 'the customer\'s phone number')
        .option('--email <email>', 'the customer\'s email address')
        .option('--out <file>', 'write the JSON to this file (default: standard output)')
        .action(async (opts) => {
            await withServer(async (server) => {
                const org = await server.app.services.tenants.requireOrganizationBySubdomain(opts.org);
                const document = await server.app.services.privacy.export(org.id, { phone: opts.phone ?? null, email: opts.email ?? null });
                const rows = Object.values(document.data).reduce((n, r) => n + r.length, 0);
                await server.app.audit.record({ organizationId: org.id, actorUserId: null, actorRole: null, action: 'customers.export',
                    subject: document.person, details: { rows, via: 'cli' } });
                const text = JSON.stringify(document, null, 2) + '\n';
                if (opts.out) {
                    Fs.writeFileSync(opts.out, text, { mode: 0o600 });
                    process.stderr.write(`Wrote ${rows} rows about the customer to ${opts.out}\n`);
                }
                else {
                    process.stdout.write(text);
                }
            });
        });
    customers.command('erase')
        .description('erase everything a store keeps about one customer (by phone and/or email), all or nothing')
        .requiredOption('--org <subdomain>', 'the organization\'s subdomain')
        .option('--phone <phone>', 'the customer\'s phone number')
        .option('--email <email>', 'the customer\'s email address')
        .option('--yes', 'confirm: erasing cannot be undone')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                if (!opts.yes) {
                    throw new Error('Erasing cannot be undone: run it again with --yes');
                }
                const org = await server.app.services.tenants.requireOrganizationBySubdomain(opts.org);
                const query = { phone: opts.phone ?? null, email: opts.email ?? null };
                const person = await server.app.services.privacy.person(org.id, query);
                const result = await server.app.services.privacy.erase(person);
                await server.app.audit.record({ organizationId: org.id, actorUserId: null, actorRole: null, action: 'customers.erase',
                    subject: person, details: { rows: result.total, via: 'cli' } });
                printResult(result, !!opts.json, `Erased ${result.total} rows about the customer from "${org.name}"`
                    + Object.entries(result.erased).map(([table, n]) => `\n  ${table}: ${n}`).join('')
                    + result.external.map((e) => `\nStill to do outside: ${e.holder} keeps ${e.what}. ${e.action}`).join(''));
            });
        });
}
