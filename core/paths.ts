import * as Path from 'path';
import * as Fs from 'fs';

/** The package root (this file runs from dist/core/). */
export const ROOT = Path.resolve(__dirname, '..', '..');
/** Where webpack puts the admin app and the widget. */
export const PUBLIC_DIR = Path.join(ROOT, 'dist', 'public');

export function packageVersion(): string {
    return JSON.parse(Fs.readFileSync(Path.join(ROOT, 'package.json'), 'utf8')).version;
}
