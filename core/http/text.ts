import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';

/** C0 control characters and DEL, except tab, line feed and carriage return (which messages may hold). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The path of the first string (or key) in value that holds a control character, or null. */
export function controlCharacterAt(value: unknown, path: string[] = [], depth = 0): string[] | null {
    if (typeof value === 'string') {
        return CONTROL.test(value) ? path : null;
    }
    if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) {
        return null;
    }
    for (const [key, item] of Object.entries(value)) {
        if (CONTROL.test(key)) {
            return [...path, key];
        }
        const found = controlCharacterAt(item, [...path, key], depth + 1);
        if (found) {
            return found;
        }
    }
    return null;
}

/**
 * One rule for every text field of every route, on every entry path (HTTP and socket frames): params, query
 * and payload may not hold NUL or other C0 control characters (PostgreSQL cannot store NUL, and nothing we
 * show needs the others). Answers 400 naming the field, before the route's own validation and handler.
 */
export function rejectControlCharacters(server: Server): void {
    server.ext('onPostAuth', (request: Request, h: ResponseToolkit) => {
        for (const [source, value] of [['params', request.params], ['query', request.query], ['payload', request.payload]] as const) {
            const path = controlCharacterAt(value);
            if (path) {
                const label = path.length ? `"${path.join('.')}"` : `The ${source}`;
                const boom = Boom.badRequest(`${label} must not contain control characters`);
                (boom.output.payload as Record<string, unknown>).validation = { source, keys: [path.join('.')] };
                throw boom;
            }
        }
        return h.continue;
    });
}
