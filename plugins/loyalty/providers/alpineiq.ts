import type { LoyaltyCustomer, LoyaltyOrder, LoyaltyProvider } from './types';
import { ProviderError } from './types';

export interface AlpineIqSettings {
    apiKey: string | null;
    uid: string | null;
    baseUrl: string;
}

/**
 * An HTTP provider shaped like Alpine IQ's API: the API key in the X-APIKEY header, the account uid in the
 * path, `GET /api/v1.1/wallet/{uid}/{phone}` for the wallet (points and contact) and
 * `GET /api/v1.1/orders/{uid}/{phone}` for order history. A 404 means "no such customer".
 */
export class AlpineIqLoyaltyProvider implements LoyaltyProvider {
    readonly name = 'alpineiq' as const;

    constructor(private readonly settings: AlpineIqSettings, private readonly timeoutMs = 8000) {}

    private async get(path: string): Promise<any | null> {
        if (!this.settings.apiKey) {
            throw new ProviderError('The loyalty provider is not configured (ALPINEIQ_API_KEY)');
        }
        let response: Response;
        try {
            response = await fetch(`${this.settings.baseUrl}${path}`, {
                headers: { 'x-apikey': this.settings.apiKey, accept: 'application/json' },
                signal: AbortSignal.timeout(this.timeoutMs)
            });
        }
        catch (err) {
            throw new ProviderError(`The loyalty provider cannot be reached: ${(err as Error).message}`);
        }
        if (response.status === 404) {
            return null;
        }
        if (!response.ok) {
            throw new ProviderError(`The loyalty provider answered ${response.status}`);
        }
        try {
            return await response.json();
        }
        catch {
            throw new ProviderError('The loyalty provider answered something that is not JSON');
        }
    }

    private uid(): string {
        return encodeURIComponent(this.settings.uid ?? 'default');
    }

    async findCustomer(_organizationId: number, phone: string): Promise<LoyaltyCustomer | null> {
        const body = await this.get(`/api/v1.1/wallet/${this.uid()}/${encodeURIComponent(phone)}`);
        const data = body?.data ?? body;
        if (!data || (data.success === false)) {
            return null;
        }
        const name = [data.firstName, data.lastName].filter(Boolean).join(' ') || data.name || null;
        return {
            phone,
            name,
            email: data.email ?? null,
            loyaltyId: data.contactId ?? data.id ?? null,
            points: Number(data.points ?? data.loyaltyPoints ?? 0) || 0
        };
    }

    async orderHistory(_organizationId: number, phone: string, limit: number): Promise<LoyaltyOrder[]> {
        const body = await this.get(`/api/v1.1/orders/${this.uid()}/${encodeURIComponent(phone)}`);
        const list: any[] = Array.isArray(body?.data) ? body.data : Array.isArray(body) ? body : [];
        return list.slice(0, limit).map((o) => ({
            orderRef: o.orderId ? String(o.orderId) : null,
            productName: String(o.productName ?? o.name ?? 'Item'),
            quantity: Number(o.quantity ?? 1),
            price: Number(o.price ?? 0),
            orderDate: new Date(o.orderDate ?? o.date ?? 0).toISOString()
        }));
    }
}
