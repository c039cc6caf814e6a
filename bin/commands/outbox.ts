import type { Command } from 'commander';
import { outboxQuery } from '../../plugins/loyalty';
import { validate } from '../../core/http/validate';
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
                const query = validate(outboxQuery, { phone: opts.phone, limit: opts.limit });
                const rows = await server.app.services.loyalty.listOutbox(query);
                printRows(rows, !!opts.json, ['id', 'createdAt', 'to', 'status', 'body']);
            });
        });
}
