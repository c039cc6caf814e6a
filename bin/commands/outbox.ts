import type { Command } from 'commander';
import { printRows, withServer } from './context';

/** `loyalty-chat outbox [--phone P] [--json]`: the text messages the outbox SMS sender stored (newest first). */
export function registerOutbox(program: Command): void {
    program.command('outbox')
        .description('list stored text messages (SMS outbox), newest first')
        .option('--phone <phone>', 'only messages to this phone number')
        .option('--limit <n>', 'how many', '20')
        .option('--json', 'machine-readable output')
        .action(async (opts) => {
            await withServer(async (server) => {
                const limit = Number(opts.limit);
                if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
                    throw new Error('--limit must be a whole number from 1 to 1000');
                }
                const rows = await server.app.services.loyalty.listOutbox({ phone: opts.phone, limit });
                printRows(rows as unknown as Array<Record<string, unknown>>, !!opts.json, ['id', 'createdAt', 'to', 'status', 'body']);
            });
        });
}
