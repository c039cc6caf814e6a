import type { Command } from 'commander';

/** The `outbox` command (stub: filled by its issue). */
export function registerOutbox(_program: Command): void {
    // program.command('outbox')…
}
