import * as Fs from 'fs';
import * as Path from 'path';

/** bench/RESULTS.md in the source tree (scripts run from dist/bench/). */
export const RESULTS_FILE = Path.resolve(__dirname, '..', '..', 'bench', 'RESULTS.md');

/**
 * Replaces the section between `<!-- NAME:start -->` and `<!-- NAME:end -->` in bench/RESULTS.md (appending it
 * when absent), so each benchmark keeps its own last figures without touching the others'.
 */
export function writeSection(name: string, markdown: string): void {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    let text = Fs.existsSync(RESULTS_FILE)
        ? Fs.readFileSync(RESULTS_FILE, 'utf8')
        : '# Benchmark results\n\nWritten by the scripts in bench/ (budgets: DESIGN.md §8). Machine: 2 cores, Node 20.\n';
    const block = `${start}\n${markdown.trim()}\n${end}`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from >= 0 && to > from) {
        text = text.slice(0, from) + block + text.slice(to + end.length);
    }
    else {
        text = text.trimEnd() + '\n\n' + block + '\n';
    }
    Fs.writeFileSync(RESULTS_FILE, text);
}

export function kb(bytes: number): string {
    return (bytes / 1024).toFixed(1) + ' KB';
}
