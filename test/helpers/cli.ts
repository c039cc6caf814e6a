import * as ChildProcess from 'child_process';
import * as Path from 'path';

/** The real executable, as an operator runs it. */
export const BIN = Path.resolve(__dirname, '..', '..', '..', 'bin', 'loyalty-chat');

export interface CliRun { code: number | null; stdout: string; stderr: string }

/** Runs `loyalty-chat ARGS` in a child process with only PATH plus env, and collects its output and exit code. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
    return new Promise((resolve) => {
        const child = ChildProcess.spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
}
