import type { Command } from 'commander';

/** The `mail` command (stub: filled by its issue). */
export function registerMail(_program: Command): void {
    // program.command('mail')…
}
