import type { RouteOptions } from '@hapi/hapi';
import type { CallerKind } from '../types/auth';

export type { CallerKind };

type RouteAuth = Exclude<RouteOptions['auth'], string | undefined>;

/**
 * Route auth that admits these caller kinds, declared as data that hapi checks itself (DESIGN §5): the
 * strategies that may authenticate an HTTP request, and `access` scopes that hapi also applies to requests
 * injected with ready credentials (nes `request` frames skip the strategies, never the scopes). A customer
 * is admitted only to the chat named by the route's {sessionId}.
 *
 *     options: { auth: allow('admin', 'customer'), ... }
 */
export function allow(...kinds: [CallerKind, ...CallerKind[]]): RouteAuth {
    return {
        strategies: kinds,
        access: kinds.map((kind) => (kind === 'customer'
            ? { scope: ['+customer', '+session:{params.sessionId}'] }
            : { scope: [kind] }))
    };
}

/** A route anyone may call over HTTP (pages, files, logins). Never reachable over a socket. */
export const PUBLIC = false as const;
