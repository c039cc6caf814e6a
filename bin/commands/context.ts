import type { Server } from '@hapi/hapi';
import { ConfigError, loadConfig, Config } from '../../config';
import { createServer, migratorFor } from '../../core/server';
import { plugins } from '../../plugins';

/** Loads the config or exits 1 with the message naming the variable. */
export function configOrExit(overrides: Record<string, unknown> = {}): Config {
    try {
        return loadConfig(process.env, overrides);
    }
    catch (err) {
        if (err instanceof ConfigError) {
            process.stderr.write(`${err.message}\n`);
            process.exit(1);
        }
        throw err;
    }
}

/**
 * Runs a command against the configured database: builds the server (not listening), migrates to latest,
 * runs fn, then closes everything. Errors print their message and exit non-zero.
 */
export async function withServer<T>(fn: (server: Server) => Promise<T>): Promise<T> {
    const config = configOrExit();
    const quiet = { ...config, logLevel: process.env.LOG_LEVEL ? config.logLevel : 'warn' as const };
    const server = await createServer(quiet, plugins, { logRequests: false });
    try {
        await migratorFor(server).latest();
        return await fn(server);
    }
    catch (err: any) {
        const message = err?.isBoom ? err.output.payload.message : err?.message ?? String(err);
        process.stderr.write(`Error: ${message}\n`);
        process.exitCode = 1;
        return undefined as T;
    }
    finally {
        await server.stop();
    }
}

/** Prints rows as JSON (--json) or as an aligned table. */
export function printRows(rows: Array<Record<string, unknown>>, json: boolean, columns?: string[]): void {
    if (json) {
        process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return;
    }
    if (!rows.length) {
        process.stdout.write('(none)\n');
        return;
    }
    const cols = columns ?? Object.keys(rows[0]);
    const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
    const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
    process.stdout.write(line(cols) + '\n' + rows.map((r) => line(cols.map((c) => cell(r[c])))).join('\n') + '\n');
}

export function printResult(value: unknown, json: boolean, text: string): void {
    process.stdout.write(json ? JSON.stringify(value, null, 2) + '\n' : text + '\n');
}
