import * as Net from 'net';
import type { ReqRef, Request } from '@hapi/hapi';

/**
 * The client's address, the one rule for rate limits and socket caps: the peer address, or behind a trusted
 * proxy (TRUST_PROXY) the last X-Forwarded-For hop, the one our proxy appended. Earlier hops come from the
 * client itself (a proxy appends to what it received), so trusting the first would let an attacker pick a
 * fresh address for every request.
 */
export function clientAddress(forwardedFor: string | string[] | undefined, peer: string | undefined, trustProxy: boolean): string {
    if (trustProxy && typeof forwardedFor === 'string') {
        const last = forwardedFor.split(',').pop()!.trim();
        if (Net.isIP(last)) {
            return last;
        }
    }
    return peer ?? 'unknown';
}

export function clientIp<Refs extends ReqRef>(request: Request<Refs>): string {
    return clientAddress(request.headers['x-forwarded-for'] as string | undefined, request.info.remoteAddress, request.server.app.config.trustProxy);
}
