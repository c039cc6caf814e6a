import Boom from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Schema, ValidationError } from 'joi';

/**
 * A text the server answers that a customer may read (issue 27): a stable, machine-readable `code` that the widget
 * renders from its catalogue (`error.<code>` in widget/locales/<lang>.json), beside the English `message` that
 * SPEC §8 and API users read. Codes are `<plugin>.<what>`, snake case, and never change once shipped.
 */
export interface CustomerError {
    code: string;
    message: string;
}

/** Adds a customer error's code (and the values its text needs, e.g. `{ max: 2000 }`) to an error answer. */
export function coded<B extends Boom.Boom>(boom: B, code: string, args?: Record<string, string | number>): B {
    const payload = boom.output.payload as unknown as Record<string, unknown>;
    payload.code = code;
    if (args) {
        payload.args = args;
    }
    return boom;
}

/**
 * A joi schema whose validation failures carry a customer error code (by joi error type, `*` for any other), which
 * validationFailAction answers beside joi's message.
 */
export function withCodes<S extends Schema>(schema: S, codes: Record<string, string>, args?: Record<string, string | number>): S {
    return schema.error((errors) => {
        for (const report of errors as Array<{ code: string; local: Record<string, unknown> }>) {
            const code = codes[report.code] ?? codes['*'];
            if (code) {
                report.local.customerCode = code;
                if (args) {
                    report.local.customerArgs = args;
                }
            }
        }
        return errors as never;
    }) as S;
}

/**
 * Route validation failures answer 400 with joi's own message naming the field
 * (e.g. '"email" is required'), instead of hapi's generic 'Invalid request payload input'.
 */
export const validationFailAction: Lifecycle.Method = (request: Request, h: ResponseToolkit, err?: Error) => {
    const joiError = err as (ValidationError & { output?: unknown }) | undefined;
    const details = joiError?.details ?? [];
    // One line per distinct problem: two rules failing on one field say the same thing once (issue 23: "Please enter a
    // valid phone number; Please enter a valid phone number").
    const message = details.length ? [...new Set(details.map((d) => d.message))].join('; ') : err?.message ?? 'Invalid request';
    const boom = Boom.badRequest(message);
    const withCode = details.find((d) => typeof d.context?.customerCode === 'string');
    if (withCode) {
        coded(boom, withCode.context!.customerCode as string, withCode.context!.customerArgs as Record<string, string | number> | undefined);
    }
    (boom.output.payload as Record<string, unknown>).validation = {
        source: (err as any)?.output?.payload?.validation?.source,
        keys: details.map((d) => d.path.join('.'))
    };
    throw boom;
};

/** Database errors that are the client's fault, by driver code (objection wraps the driver's error in nativeError). */
function mapDatabaseError(wrapped: any): Boom.Boom | null {
    if (wrapped?.name === 'NotFoundError' && wrapped?.type === 'NotFound') {
        return Boom.notFound(wrapped.message && wrapped.message !== 'NotFoundError' ? wrapped.message : 'Not found');
    }
    const err = wrapped?.nativeError ?? wrapped;
    const code: string | undefined = err?.code;
    const message: string = err?.message ?? '';
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        return Boom.conflict('A record with the same unique value already exists');
    }
    if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        return Boom.badRequest('A referenced record does not exist');
    }
    if (code === '22001' || code === '22P02' || code === '22003') {
        return Boom.badRequest('A value is out of range or malformed');
    }
    if (/SQLITE_CONSTRAINT_NOTNULL|23502/.test(code ?? '') || /NOT NULL constraint failed/.test(message)) {
        return Boom.badRequest('A required value is missing');
    }
    return null;
}

export function registerErrorHandling(server: Server): void {
    server.ext('onPreResponse', (request, h) => {
        const response = request.response;
        if (!Boom.isBoom(response)) {
            return h.continue;
        }
        if (response.output.statusCode === 500 && !response.isServer) {
            return h.continue;
        }
        if (response.isServer) {
            // The thrown error itself (hapi boomifies it), else what a Boom wraps: objection's NotFoundError
            // carries its own `data` ({ message }), which must not hide it.
            const mapped = mapDatabaseError(response) ?? mapDatabaseError(response.data);
            if (mapped) {
                return h.response(mapped.output.payload).code(mapped.output.statusCode);
            }
            request.log(['error'], response);
            (request as any).logger?.error({ err: response }, 'internal error');
        }
        if (response.output.statusCode === 404 && (response.output.payload as any).message === 'Not Found') {
            response.output.payload.message = `No route or object at ${request.method.toUpperCase()} ${request.path}`;
        }
        return h.continue;
    });
}

/** A 404 that says what was not found, for objects outside the caller's organization too. */
export function notFound(what: string): Boom.Boom {
    return Boom.notFound(`${what} not found`);
}
