import type { Command } from 'commander';
import { localBaseUrl } from '../../config';
import { configOrExit } from './context';
import { createServer, migratorFor } from '../../core/server';
import { seedDemo } from './seed';
import { plugins } from '../../plugins';

export function registerServe(program: Command): void {
    program
        .command('serve')
        .description('migrate the database to latest, then serve the API, the admin app and the widget')
        .option('--port <n>', 'port to listen on (default: PORT or 3000)')
        .option('--host <h>', 'interface to bind (default: HOST or 0.0.0.0)')
        .option('--no-migrate', 'serve without migrating (several nodes: a one-shot `loyalty-chat migrate` ran first)')
        .action(async (opts: { port?: string; host?: string; migrate?: boolean }) => {
            const overrides: Record<string, unknown> = {};
            if (opts.port !== undefined) overrides.PORT = opts.port;
            if (opts.host !== undefined) overrides.HOST = opts.host;
            const config = configOrExit(overrides);
            const server = await createServer(config, plugins);
            const log = server.app.log;
            try {
                const applied = opts.migrate === false ? [] : await migratorFor(server).latest();
                if (applied.length) {
                    log.info({ migrations: applied }, 'database migrated');
                }
                // Listen first, then seed: the demo bot's embed snippet (without PUBLIC_URL) carries the real port.
                await server.start();
                if (config.database.client === 'sqlite' && config.seedDemoOnEmpty && await server.app.services.tenants.isEmpty()) {
                    const { lines } = await seedDemo(server);
                    // stdout only, never the logger: in production the lines hold the generated passwords.
                    const once = config.env === 'production' ? '\n  These generated passwords are shown only this once: sign in and change them.' : '';
                    process.stdout.write(`\nThe database was empty: created the demo tenant.\n${lines.map((l) => '  ' + l).join('\n')}${once}\n`);
                }
            }
            catch (err) {
                log.error({ err }, 'failed to start');
                await server.stop().catch(() => undefined);
                process.exit(1);
            }
            const url = config.publicUrl ?? localBaseUrl(config.host, server.info.port);
            process.stdout.write(`\nloyalty-chat ${server.app.version} is running on ${url}\n` +
                `  demo storefront: ${url}/\n  admin login:     ${url}/admin-login\n  health:          ${url}/health\n` +
                `  database: ${server.app.dbClient}, jobs: ${server.app.jobs.backend}, realtime: ${server.app.pubsub.backend}\n\n`);

            let stopping = false;
            const stop = async (signal: string) => {
                if (stopping) {
                    return;
                }
                stopping = true;
                log.info({ signal }, 'stopping');
                try {
                    await server.stop({ timeout: 10000 });
                    process.exit(0);
                }
                catch (err) {
                    log.error({ err }, 'error while stopping');
                    process.exit(1);
                }
            };
            process.on('SIGINT', () => void stop('SIGINT'));
            process.on('SIGTERM', () => void stop('SIGTERM'));
        });
}
