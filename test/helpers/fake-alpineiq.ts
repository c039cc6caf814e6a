import * as Http from 'http';
import type { AddressInfo } from 'net';
import type { RecordedRequest } from './fake-http';

export interface FakeAlpineOrder {
    id: string;
    /** ISO 8601. */
    date: string;
    total: number;
    items: Array<{ name: string; quantity: number; price: number }>;
}

export interface FakeAlpineMember {
    /** The phone as the account holds it: E.164, digits only or the national number. */
    phone: string;
    contactId: string;
    firstName: string;
    lastName: string;
    email: string;
    points: number;
    tier?: string;
    /** Oldest first, as the real API does not promise any order. */
    orders?: FakeAlpineOrder[];
    /** When false the lookup answers the contact without its wallet (the client then reads the wallet endpoint). */
    walletInLookup?: boolean;
}

export interface FakeAlpineAccount {
    apiKey: string;
    uid: string;
    members: FakeAlpineMember[];
}

/**
 * A local server speaking Alpine IQ's published API shape (base https://lab.alpineiq.com): the `X-APIKEY`
 * header, the account UID as a path segment, answers in the envelope `{ success, data, errors: [{ message }] }`.
 *
 * - `POST /api/v2/loyalty/lookup/{phoneOrEmail}` → `data.contact` + `data.wallet`; a phone that is not a
 *   member: 404 with `success: false` and an error message;
 * - `GET /api/v1.1/wallet/{uid}/{contactId}` → `data` = `{ points, tier }`;
 * - `GET /api/v1.1/contact/orders/{uid}/{contactId}?start=&limit=` → `data` = a page of the orders.
 *
 * A key no account has is 401. `state.down` answers 503, `state.delayMs` holds every answer back,
 * `state.garbage` answers HTML.
 */
export async function startFakeAlpineIq(...accounts: FakeAlpineAccount[]) {
    const state = { down: false, delayMs: 0, garbage: false };
    const requests: RecordedRequest[] = [];
    const fail = (status: number, message: string) => ({ status, body: { success: false, data: null, errors: [{ message }] } as unknown });
    const ok = (data: unknown) => ({ status: 200, body: { success: true, data, errors: [] } as unknown });

    function answer(req: RecordedRequest): { status: number; body: unknown } {
        if (state.down) {
            return fail(503, 'Service temporarily unavailable');
        }
        const account = accounts.find((a) => a.apiKey === req.headers['x-apikey']);
        if (!account) {
            return fail(401, 'Invalid API key');
        }
        const url = new URL(req.url, 'http://fake');
        const parts = url.pathname.split('/').map((p) => decodeURIComponent(p));
        const lookup = req.method === 'POST' && url.pathname.startsWith('/api/v2/loyalty/lookup/') && parts.length === 6;
        if (lookup) {
            const member = account.members.find((m) => m.phone === parts[5] || m.email === parts[5]);
            if (!member) {
                return fail(404, 'No loyalty member found for this phone or email');
            }
            const contact = { id: member.contactId, email: member.email, firstName: member.firstName, lastName: member.lastName, mobilePhone: member.phone };
            return ok(member.walletInLookup === false ? { contact } : { contact, wallet: { points: member.points, tier: member.tier ?? 'Member' } });
        }
        const wallet = req.method === 'GET' && url.pathname.startsWith('/api/v1.1/wallet/') && parts.length === 6;
        const orders = req.method === 'GET' && url.pathname.startsWith('/api/v1.1/contact/orders/') && parts.length === 7;
        if (!wallet && !orders) {
            return fail(404, 'Not found');
        }
        const [uid, contactId] = wallet ? [parts[4], parts[5]] : [parts[5], parts[6]];
        if (uid !== account.uid) {
            return fail(403, 'This API key does not belong to the account');
        }
        const member = account.members.find((m) => m.contactId === contactId);
        if (!member) {
            return fail(404, 'Contact not found');
        }
        if (wallet) {
            return ok({ points: member.points, tier: member.tier ?? 'Member' });
        }
        const start = Number(url.searchParams.get('start') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 10);
        return ok((member.orders ?? []).slice(start, start + limit));
    }

    const server = Http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
            const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
            requests.push(recorded);
            const reply = answer(recorded);
            setTimeout(() => {
                if (res.destroyed) {
                    return;
                }
                if (state.garbage) {
                    res.writeHead(200, { 'content-type': 'text/html' });
                    res.end('<html>maintenance</html>');
                    return;
                }
                res.writeHead(reply.status, { 'content-type': 'application/json' });
                res.end(JSON.stringify(reply.body));
            }, state.delayMs);
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        state,
        close: () => new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        })
    };
}
