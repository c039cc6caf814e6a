import type { Command } from 'commander';
import type { Server } from '@hapi/hapi';
import { seedDemoOrganization } from '../../plugins/tenants';
import { printResult, withServer } from './context';

/** Creates the demo tenant and lets every feature add its demo data. Idempotent. Returns the lines to print. */
export async function seedDemo(server: Server): Promise<{ organizationId: number; lines: string[] }> {
    const { organizationId, lines } = await seedDemoOrganization(server);
    for (const feature of server.app.features) {
        if (feature.seedDemo) {
            const more = await feature.seedDemo(server, organizationId);
            if (more) {
                lines.push(...more);
            }
        }
    }
    return { organizationId, lines };
}

export function registerSeed(program: Command): void {
    program
        .command('seed')
        .description('seed the database (idempotent); --demo creates the "Demo Store" tenant with demo data and logins')
        .option('--demo', 'create the demo organization, bot instance, customers, questions, knowledge and logins')
        .option('--json', 'machine-readable output')
        .action(async (opts: { demo?: boolean; json?: boolean }) => {
            await withServer(async (server) => {
                if (!opts.demo) {
                    printResult({ seeded: [] }, !!opts.json, 'Nothing to seed without --demo (the schema is migrated).');
                    return;
                }
                const { lines } = await seedDemo(server);
                printResult({ seeded: lines }, !!opts.json, lines.join('\n'));
            });
        });
}
