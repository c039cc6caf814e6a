import * as Dns from 'dns';
import * as Http from 'http';
import * as Https from 'https';
import * as Net from 'net';

/**
 * Outbound HTTP to URLs that staff configure (a store's loyalty provider today; DESIGN §8): with `refusePrivate`
 * (OUTBOUND_REFUSE_PRIVATE, on in production) no call reaches loopback, private (RFC 1918, fc00::/7), link-local
 * (169.254/16, fe80::/10), CGNAT (100.64/10), unspecified, multicast/reserved or cloud metadata addresses, IPv4
 * embedded in IPv6 (mapped, compatible, NAT64, 6to4) included. The check runs on the addresses resolved at the
 * moment of connecting (a `lookup` hook of the socket), so a name that resolved to a public address when staff
 * saved it and to a private one now (DNS rebinding) gets nothing; an IP literal, for which Node skips the lookup,
 * is checked before connecting. Redirects are never followed (a 3xx is an error), answers are bounded in time and
 * size, and nothing here logs a header (keys travel in headers).
 */
export interface OutboundPolicy {
    refusePrivate: boolean;
}

/** A call the guard refused, or one that failed (unreachable, timeout, redirect, too large). Never holds a header. */
export class OutboundError extends Error {
    constructor(readonly reason: 'refused_address' | 'unreachable' | 'timeout' | 'redirect' | 'too_large', message: string) {
        super(message);
        this.name = reason === 'timeout' ? 'TimeoutError' : 'OutboundError';
    }
}

// ---- addresses --------------------------------------------------------------------------------------------

/** IPv4 ranges no call to a staff-configured URL may reach (address, prefix length). */
const V4_RANGES: Array<[string, number]> = [
    ['0.0.0.0', 8],             // "this network", unspecified
    ['10.0.0.0', 8],            // RFC 1918
    ['100.64.0.0', 10],         // CGNAT (RFC 6598)
    ['127.0.0.0', 8],           // loopback
    ['169.254.0.0', 16],        // link-local, cloud metadata (169.254.169.254)
    ['172.16.0.0', 12],         // RFC 1918
    ['192.0.0.0', 24],          // IETF protocol assignments
    ['192.0.2.0', 24],          // documentation
    ['192.168.0.0', 16],        // RFC 1918
    ['198.18.0.0', 15],         // benchmarking
    ['198.51.100.0', 24],       // documentation
    ['203.0.113.0', 24],        // documentation
    ['224.0.0.0', 4],           // multicast
    ['240.0.0.0', 4]            // reserved, broadcast
];

/** IPv6 ranges (embedded IPv4 is checked separately, against V4_RANGES). */
const V6_RANGES: Array<[string, number]> = [
    ['::', 128],                // unspecified
    ['::1', 128],               // loopback
    ['fc00::', 7],              // unique local (fd00:ec2::254, the AWS metadata address, included)
    ['fe80::', 10],             // link-local
    ['fec0::', 10],             // site-local (deprecated)
    ['ff00::', 8],              // multicast
    ['2001:db8::', 32],         // documentation
    ['100::', 64]               // discard-only
];

const blocked = new Net.BlockList();
for (const [address, prefix] of V4_RANGES) {
    blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of V6_RANGES) {
    blocked.addSubnet(address, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (with or without a trailing dotted quad), or null. */
function ipv6Bytes(address: string): number[] | null {
    let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
    if (quad) {
        const v4 = quad[1].split('.').map(Number);
        text = text.slice(0, -quad[1].length) + `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
    }
    const halves = text.split('::');
    if (halves.length > 2) {
        return null;
    }
    const head = halves[0] ? halves[0].split(':') : [];
    const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
    const missing = 8 - head.length - tail.length;
    if (missing < 0 || (halves.length === 1 && missing !== 0)) {
        return null;
    }
    const groups = [...head, ...Array<string>(missing).fill('0'), ...tail].map((g) => parseInt(g, 16));
    if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) {
        return null;
    }
    return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIpv4(bytes: number[]): string | null {
    const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
    const v4 = (at: number) => bytes.slice(at, at + 4).join('.');
    if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
        return v4(12);
    }
    if (zeros(0, 12) && !zeros(12, 16)) {
        return v4(12);
    }
    if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) {
        return v4(12);
    }
    if (bytes[0] === 0x20 && bytes[1] === 0x02) {
        return v4(2);
    }
    return null;
}

/**
 * True for an address no call to a staff-configured URL may reach (see the ranges above); also true for a string
 * that is not an IP address at all (a caller must never treat "unknown" as "public").
 */
export function isForbiddenAddress(address: string): boolean {
    const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    const family = Net.isIP(text);
    if (family === 4) {
        return blocked.check(text, 'ipv4');
    }
    if (family !== 6) {
        return true;
    }
    const bytes = ipv6Bytes(text);
    if (!bytes) {
        return true;
    }
    const v4 = embeddedIpv4(bytes);
    if (v4 !== null && blocked.check(v4, 'ipv4')) {
        return true;
    }
    const canonical = bytes.reduce<string[]>((groups, b, i) => (i % 2 ? groups : [...groups, ((b << 8) | bytes[i + 1]).toString(16)]), []).join(':');
    return blocked.check(canonical, 'ipv6');
}

/** A host that names this machine whatever DNS says (RFC 6761: localhost and *.localhost). */
function namesLocalhost(host: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return name === 'localhost' || name.endsWith('.localhost');
}

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await Dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Where a URL's host may not go: a reason for the staff member saving it ("127.0.0.1 is a loopback, private,
 * link-local or metadata address"), or null when its addresses are all public. A name that does not resolve now
 * is not refused here (the check when connecting still applies).
 */
export async function refusedHost(url: string, resolve: Resolver = systemResolver, timeoutMs = 2000): Promise<string | null> {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const display = Net.isIP(host) === 6 ? `[${host}]` : host;
    const reason = `${display} is a loopback, private, link-local or metadata address`;
    if (Net.isIP(host)) {
        return isForbiddenAddress(host) ? reason : null;
    }
    if (namesLocalhost(host)) {
        return reason;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
        const addresses = await Promise.race([
            resolve(host),
            new Promise<string[]>((done) => {
                timer = setTimeout(() => done([]), timeoutMs);
            })
        ]);
        return addresses.some(isForbiddenAddress) ? reason : null;
    }
    catch {
        return null;
    }
    finally {
        clearTimeout(timer);
    }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | Dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets (net.connect, http(s).request) that resolves the name and keeps only the addresses the
 * policy allows; none left is an OutboundError('refused_address'). Called by Node at the moment of connecting.
 */
export function guardedLookup(resolve: Resolver = systemResolver) {
    return (hostname: string, options: Dns.LookupOptions | number | undefined, callback: LookupCallback): void => {
        const wantAll = typeof options === 'object' && options !== null && options.all === true;
        const family = typeof options === 'number' ? options : (typeof options === 'object' && options !== null ? Number(options.family ?? 0) : 0);
        const refuse = () => callback(Object.assign(new OutboundError('refused_address',
            `refused to connect to ${hostname}: it resolves to a loopback, private, link-local or metadata address`), { code: 'EOUTBOUNDREFUSED' }), wantAll ? [] : '');
        if (namesLocalhost(hostname)) {
            refuse();
            return;
        }
        resolve(hostname).then((addresses) => {
            const allowed = addresses
                .filter((a) => !isForbiddenAddress(a))
                .map((address) => ({ address, family: Net.isIP(address) }))
                .filter((a) => a.family && (!family || a.family === family));
            if (!allowed.length) {
                refuse();
                return;
            }
            if (wantAll) {
                callback(null, allowed);
            }
            else {
                callback(null, allowed[0].address, allowed[0].family);
            }
        }, (err: NodeJS.ErrnoException) => callback(err, wantAll ? [] : ''));
    };
}

// ---- requests ---------------------------------------------------------------------------------------------

export interface OutboundRequest {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    headers?: Record<string, string>;
    body?: string;
    timeoutMs: number;
    /** Largest answer read, in bytes (default 4 MiB). */
    maxBytes?: number;
}

export interface OutboundResponse {
    status: number;
    ok: boolean;
    headers: Http.IncomingHttpHeaders;
    text(): Promise<string>;
}

/**
 * Kept-alive connections, one pool per policy: a connection opened without the guard is never handed to a call
 * that needs it (its address was not checked).
 */
const pools = new Map<boolean, { 'http:': Http.Agent; 'https:': Https.Agent }>();
function agentOf(protocol: 'http:' | 'https:', policy: OutboundPolicy): Http.Agent {
    let pool = pools.get(policy.refusePrivate);
    if (!pool) {
        pool = { 'http:': new Http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new Https.Agent({ keepAlive: true, maxSockets: 64 }) };
        pools.set(policy.refusePrivate, pool);
    }
    return pool[protocol];
}

/**
 * One HTTP(S) request to a staff-configured URL under the policy: a refused address, no answer within
 * `timeoutMs` (the whole exchange), a redirect or an answer over `maxBytes` is an OutboundError. Resolves with
 * the status and the body for any other status.
 */
export async function outboundRequest(url: string, request: OutboundRequest, policy: OutboundPolicy, resolve?: Resolver): Promise<OutboundResponse> {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new OutboundError('unreachable', `unsupported scheme ${target.protocol}`);
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // Node connects to an IP literal without calling lookup: check it here.
    if (policy.refusePrivate && Net.isIP(host) && isForbiddenAddress(host)) {
        throw new OutboundError('refused_address', `refused to connect to ${host}: a loopback, private, link-local or metadata address`);
    }
    const maxBytes = request.maxBytes ?? 4 * 1024 * 1024;
    const send = target.protocol === 'https:' ? Https.request : Http.request;
    return new Promise<OutboundResponse>((done, fail) => {
        let settled = false;
        const finish = (err: Error | null, response?: OutboundResponse) => {
            if (settled) {
                return;
            }
            settled = true;
            clearTimeout(timer);
            if (err) {
                fail(err);
            }
            else {
                done(response!);
            }
        };
        const req = send(target, {
            method: request.method,
            headers: { ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}), ...request.headers },
            agent: agentOf(target.protocol as 'http:' | 'https:', policy),
            ...(policy.refusePrivate ? { lookup: guardedLookup(resolve) as unknown as typeof Dns.lookup } : {})
        }, (res) => {
            const status = res.statusCode ?? 0;
            if (status >= 300 && status < 400) {
                res.resume();
                finish(new OutboundError('redirect', `answered a redirect (${status}), which is not followed`));
                req.destroy();
                return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
                size += chunk.length;
                if (size > maxBytes) {
                    finish(new OutboundError('too_large', `answered more than ${maxBytes} bytes`));
                    req.destroy();
                    return;
                }
                chunks.push(chunk);
            });
            res.on('end', () => {
                const body = Buffer.concat(chunks).toString('utf8');
                finish(null, { status, ok: status >= 200 && status < 300, headers: res.headers, text: async () => body });
            });
            res.on('error', (err) => finish(new OutboundError('unreachable', `the answer broke off: ${err.message}`)));
        });
        const timer = setTimeout(() => {
            finish(new OutboundError('timeout', `no answer within ${request.timeoutMs} ms`));
            req.destroy();
        }, request.timeoutMs);
        req.on('error', (err) => finish(err instanceof OutboundError ? err : new OutboundError('unreachable', `cannot be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`)));
        req.end(request.body);
    });
}
