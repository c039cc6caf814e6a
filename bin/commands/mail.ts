import type { Command } from 'commander';
import { outboxFilter } from '../../plugins/livechat/services/mail-service';
import { printRows, withServer } from './context';

/** `loyalty-chat mail [--to E] [--limit N] [--json]`: the email outbox (transcripts, test emails), newest first. */
export function registerMail(program: Command): void {
    program
        .command('mail')
        .description('List the email outbox (chat transcripts and test emails), newest first')
        .option('--to <email>', 'only emails to this address')
        .option('--limit <n>', 'at most this many', '50')
        .option('--full', 'print each body in full')
        .option('--json', 'print JSON')
        .action(async (options: { to?: string; limit: string; full?: boolean; json?: boolean }) => {
            // The service's own schema, checked here once (the service takes typed input).
            const { error, value: filter } = outboxFilter.validate({ to: options.to, limit: options.limit });
            if (error) {
                process.stderr.write(`Error: ${error.message}\n`);
                process.exitCode = 1;
                return;
            }
            await withServer(async (server) => {
                const rows = await server.app.services.mail.list(filter);
                if (options.json) {
                    printRows(rows, true);
                    return;
                }
                if (options.full) {
                    for (const r of rows) {
                        process.stdout.write(`#${r.id} ${r.createdAt} ${r.status} via ${r.transport}\nTo: ${r.to}\n${r.replyTo ? `Reply-To: ${r.replyTo}\n` : ''}Subject: ${r.subject}\n\n${r.body}\n${'-'.repeat(60)}\n`);
                    }
                    if (!rows.length) {
                        process.stdout.write('(none)\n');
                    }
                    return;
                }
                printRows(rows.map((r) => ({ ...r, body: r.body.split('\n')[0].slice(0, 60) })), false,
                    ['id', 'createdAt', 'to', 'subject', 'status', 'transport']);
            });
        });
}
