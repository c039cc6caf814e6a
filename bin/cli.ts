import { Command, CommanderError } from 'commander';
import { packageVersion } from '../core/paths';
import { registerServe } from './commands/serve';
import { registerMigrate } from './commands/migrate';
import { registerSeed } from './commands/seed';
import { registerOrg } from './commands/org';
import { registerBot } from './commands/bot';
import { registerUser } from './commands/user';
import { registerCustomers } from './commands/customers';
import { registerOutbox } from './commands/outbox';
import { registerMail } from './commands/mail';
import { registerAnalytics } from './commands/analytics';

export function buildProgram(): Command {
    const program = new Command();
    program
        .name('loyalty-chat')
        .description('Self-hosted, multi-tenant customer-support chat for retail brands')
        .version(packageVersion())
        .showHelpAfterError('(run with --help for usage)');
    registerServe(program);
    registerMigrate(program);
    registerSeed(program);
    registerOrg(program);
    registerBot(program);
    registerUser(program);
    registerCustomers(program);
    registerOutbox(program);
    registerMail(program);
    registerAnalytics(program);
    return program;
}

export async function main(argv: string[]): Promise<void> {
    const program = buildProgram();
    program.exitOverride();
    try {
        await program.parseAsync(argv);
    }
    catch (err) {
        if (err instanceof CommanderError) {
            process.exit(err.exitCode);
        }
        throw err;
    }
}
