import { startFakeHttp } from './fake-http';

/** A fake Alpine IQ-shaped loyalty API with one account and its customers (keyed by E.164 phone). */
export async function startFakeAlpineIq(apiKey: string, uid: string, customers: Record<string, { firstName: string; lastName: string; email: string; contactId: string; points: number; orders?: unknown[] }>) {
    const state = { down: false };
    const fake = await startFakeHttp((req) => {
        if (state.down) {
            return { status: 503, body: { message: 'maintenance' } };
        }
        if (req.headers['x-apikey'] !== apiKey) {
            return { status: 401, body: { success: false, message: 'bad key' } };
        }
        const wallet = req.url.match(/^\/api\/v1\.1\/wallet\/([^/]+)\/([^/?]+)$/);
        const orders = req.url.match(/^\/api\/v1\.1\/orders\/([^/]+)\/([^/?]+)$/);
        const match = wallet ?? orders;
        if (!match || decodeURIComponent(match[1]) !== uid) {
            return { status: 404, body: { success: false } };
        }
        const customer = customers[decodeURIComponent(match[2])];
        if (!customer) {
            return { status: 404, body: { success: false, message: 'contact not found' } };
        }
        return wallet
            ? { status: 200, body: { success: true, data: { ...customer, orders: undefined } } }
            : { status: 200, body: { success: true, data: customer.orders ?? [] } };
    });
    return Object.assign(fake, { state });
}
