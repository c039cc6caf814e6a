import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { migratorFor, createServer } from '../../core/server';
import { configOrExit, printResult } from './context';
import { plugins } from '../../plugins';

export function registerMigrate(program: Command): void {
    program
        .command('migrate')
        .description('migrate the database: latest (default), rollback (the last batch) or status')
        .argument('[action]', 'latest | rollback | status', (value: string) => {
            if (!['latest', 'rollback', 'status'].includes(value)) {
                throw new InvalidArgumentError('must be one of latest, rollback, status');
            }
            return value;
        }, 'latest')
        .option('--json', 'machine-readable output')
        .action(async (action: string, opts: { json?: boolean }) => {
            const config = configOrExit();
            const server = await createServer({ ...config, logLevel: 'warn' }, plugins, { logRequests: false });
            const migrator = migratorFor(server);
            try {
                if (action === 'latest') {
                    const names = await migrator.latest();
                    printResult({ action, applied: names }, !!opts.json, names.length ? `Applied: ${names.join(', ')}` : 'Already up to date');
                }
                else if (action === 'rollback') {
                    const names = await migrator.rollback();
                    printResult({ action, rolledBack: names }, !!opts.json, names.length ? `Rolled back: ${names.join(', ')}` : 'Nothing to roll back');
                }
                else {
                    const status = await migrator.status();
                    printResult(status, !!opts.json,
                        `Database: ${server.app.dbClient}\nCompleted (${status.completed.length}): ${status.completed.join(', ') || '-'}\nPending (${status.pending.length}): ${status.pending.join(', ') || '-'}`);
                }
            }
            catch (err) {
                process.stderr.write(`Migration failed: ${(err as Error).message}\n`);
                process.exitCode = 1;
            }
            finally {
                await server.stop();
            }
        });
}
