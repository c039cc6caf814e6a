import type { Command } from 'commander';

/** The `customers` command (stub: filled by its issue). */
export function registerCustomers(_program: Command): void {
    // program.command('customers')…
}
