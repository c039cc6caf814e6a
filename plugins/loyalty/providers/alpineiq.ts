import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { OutboundError, OutboundPolicy, OutboundResponse, outboundRequest } from '../../../core/http/outbound';
import type { LoyaltyCustomer, LoyaltyOrder, LoyaltyProvider } from './types';
import { ProviderError } from './types';

/** One Alpine IQ account: the API key (X-APIKEY header), the account id (UID, a path segment) and the base URL. */
export interface AlpineIqSettings {
    apiKey: string | null;
    uid: string | null;
    baseUrl: string;
}

/** The orders the provider reads per contact (the newest of them are kept). */
export const ORDERS_PAGE = 25;
/** The most orders the widget, the Orders tab and the agent ever get. */
export const MAX_ORDERS = 5;

/** A customer as Alpine IQ knows them: the contact id the orders and the wallet are read by. */
export interface AlpineIqCustomer extends LoyaltyCustomer {
    contactId: string;
    tier: string | null;
}

type Envelope = { success?: boolean; data?: any; errors?: Array<{ message?: string }> };

type Answer = { ok: true; data: any } | { ok: false; status: number; message: string };

/**
 * The phone forms an Alpine IQ account may hold a member under, in the order they are tried: E.164
 * (+15555550100), its digits (15555550100), the national number (5555550100).
 */
export function phoneForms(phone: string): string[] {
    const parsed = parsePhoneNumberFromString(phone, 'US');
    const forms = [phone, phone.replace(/\D/g, '')];
    if (parsed) {
        forms.push(String(parsed.nationalNumber));
    }
    return [...new Set(forms.filter(Boolean))];
}

function textOf(value: unknown): string | null {
    return typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null;
}

function numberOf(value: unknown): number {
    const n = Number(value);
    return Number.isFinite(n) ? n : 0;
}

function dateOf(value: unknown): string {
    const n = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(String(value ?? ''));
    return Number.isFinite(n) ? new Date(n).toISOString() : new Date(0).toISOString();
}

/**
 * The client of Alpine IQ's published API (base https://lab.alpineiq.com). Every answer is the envelope
 * `{ success, data, errors: [{ message }] }`; a failure is `success: false` or a non-2xx status.
 *
 * - `POST /api/v2/loyalty/lookup/{phone}` with `{}`: `data.contact` and `data.wallet` of a member; a phone
 *   that is not a member answers an error;
 * - `GET /api/v1.1/wallet/{uid}/{contactId}`: the wallet when the lookup did not carry one;
 * - `GET /api/v1.1/contact/orders/{uid}/{contactId}?start=0&limit=25`: a contact's orders.
 *
 * A refused key (401/403) is `ProviderError('refused')`; no answer within the timeout, a 5xx, a 429, an
 * answer that is not the envelope, a redirect (never followed) or an address the outbound guard refuses
 * (core/http/outbound.ts) is `ProviderError('unavailable')`. The key is sent only in its header and
 * never appears in an error's text.
 */
export class AlpineIqClient {
    /** `policy`: the outbound guard (OUTBOUND_REFUSE_PRIVATE): the base URL is a staff-configured URL. */
    constructor(private readonly settings: AlpineIqSettings, private readonly timeoutMs: number, private readonly policy: OutboundPolicy) {}

    private async call(method: 'GET' | 'POST', path: string): Promise<Answer> {
        const { apiKey, uid } = this.settings;
        if (!apiKey || !uid) {
            throw new ProviderError('unavailable', 'The Alpine IQ provider has no API key or UID');
        }
        let response: OutboundResponse;
        try {
            // Never follows a redirect (the key would go along), checks the address it connects to.
            response = await outboundRequest(`${this.settings.baseUrl}${path}`, {
                method,
                headers: { 'x-apikey': apiKey, accept: 'application/json', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
                body: method === 'POST' ? '{}' : undefined,
                timeoutMs: this.timeoutMs
            }, this.policy);
        }
        catch (err) {
            const reason = err instanceof OutboundError ? err.reason : 'unreachable';
            throw new ProviderError('unavailable', reason === 'timeout'
                ? `Alpine IQ did not answer within ${this.timeoutMs} ms`
                : reason === 'unreachable' ? 'Alpine IQ cannot be reached' : `Alpine IQ ${(err as Error).message}`);
        }
        let body: Envelope | null = null;
        try {
            const text = await response.text();
            body = text ? JSON.parse(text) as Envelope : null;
        }
        catch {
            body = null;
        }
        if (response.status === 401 || response.status === 403) {
            throw new ProviderError('refused', `Alpine IQ refused the API key (${response.status})`);
        }
        if (response.status >= 500 || response.status === 429) {
            throw new ProviderError('unavailable', `Alpine IQ answered ${response.status}`);
        }
        if (!body || typeof body !== 'object') {
            throw new ProviderError('unavailable', `Alpine IQ answered ${response.status} without its JSON envelope`);
        }
        const message = textOf(body.errors?.[0]?.message) ?? `status ${response.status}`;
        if (!response.ok || body.success === false) {
            return { ok: false, status: response.status, message };
        }
        return { ok: true, data: body.data };
    }

    private uid(): string {
        return encodeURIComponent(this.settings.uid ?? '');
    }

    /** The member with this E.164 phone under any of its forms, or null when Alpine IQ knows no member by it. */
    async lookup(phone: string): Promise<AlpineIqCustomer | null> {
        for (const form of phoneForms(phone)) {
            const answer = await this.call('POST', `/api/v2/loyalty/lookup/${encodeURIComponent(form)}`);
            if (!answer.ok) {
                continue;
            }
            const contact = answer.data?.contact;
            const contactId = textOf(contact?.id) ?? textOf(contact?.contactID) ?? textOf(contact?.contactId);
            if (!contact || !contactId) {
                continue;
            }
            let wallet = answer.data?.wallet;
            if (!wallet || wallet.points === undefined) {
                const fetched = await this.call('GET', `/api/v1.1/wallet/${this.uid()}/${encodeURIComponent(contactId)}`);
                wallet = fetched.ok ? (fetched.data?.wallet ?? fetched.data) : null;
            }
            const name = [textOf(contact.firstName), textOf(contact.lastName)].filter(Boolean).join(' ') || null;
            return {
                phone,
                name,
                email: textOf(contact.email),
                loyaltyId: contactId,
                contactId,
                points: Math.max(0, Math.floor(numberOf(wallet?.points))),
                tier: textOf(wallet?.tier)
            };
        }
        return null;
    }

    /** The contact's newest orders (at most `limit`, never more than MAX_ORDERS), newest first. */
    async orders(contactId: string, limit: number): Promise<LoyaltyOrder[]> {
        const answer = await this.call('GET', `/api/v1.1/contact/orders/${this.uid()}/${encodeURIComponent(contactId)}?start=0&limit=${ORDERS_PAGE}`);
        if (!answer.ok) {
            return [];
        }
        const data = answer.data;
        const list: any[] = Array.isArray(data) ? data : Array.isArray(data?.orders) ? data.orders : Array.isArray(data?.results) ? data.results : [];
        return list
            .filter((o) => o && typeof o === 'object')
            .map((o): LoyaltyOrder => {
                const items: any[] = Array.isArray(o.items) ? o.items : Array.isArray(o.products) ? o.products : [];
                const itemNames = items.map((i) => textOf(i?.name) ?? textOf(i?.productName)).filter(Boolean);
                return {
                    orderRef: textOf(o.orderID) ?? textOf(o.orderId) ?? textOf(o.id) ?? textOf(o.invoiceID),
                    productName: (textOf(o.productName) ?? textOf(o.name) ?? (itemNames.join(', ') || 'Order')).slice(0, 200),
                    quantity: o.quantity !== undefined ? numberOf(o.quantity) : items.length ? items.reduce((n, i) => n + (numberOf(i?.quantity) || 1), 0) : 1,
                    price: numberOf(o.price ?? o.total ?? o.grandTotal),
                    orderDate: dateOf(o.orderDate ?? o.date ?? o.created ?? o.createdAt)
                };
            })
            .sort((a, b) => b.orderDate.localeCompare(a.orderDate))
            .slice(0, Math.max(0, Math.min(limit, MAX_ORDERS)));
    }

    /**
     * Whether the key and the UID work: a lookup of a number no member has and a page of a contact's orders must
     * answer without refusing (an error envelope counts as an answer).
     */
    async check(): Promise<void> {
        await this.call('POST', `/api/v2/loyalty/lookup/${encodeURIComponent('+15550000000')}`);
        await this.call('GET', `/api/v1.1/contact/orders/${this.uid()}/0?start=0&limit=1`);
    }
}

/** What the provider needs to know about an organization's Alpine IQ account (null: none configured). */
export type AlpineIqSettingsOf = (organizationId: number) => Promise<AlpineIqSettings | null>;

/**
 * The Alpine IQ loyalty provider: each organization's account (its stored settings, else the server's
 * ALPINEIQ_* variables) looked up through AlpineIqClient.
 */
export class AlpineIqLoyaltyProvider implements LoyaltyProvider {
    readonly name = 'alpineiq' as const;

    constructor(private readonly settingsOf: AlpineIqSettingsOf, private readonly timeoutMs: number, private readonly policy: OutboundPolicy) {}

    private async client(organizationId: number): Promise<AlpineIqClient> {
        const settings = await this.settingsOf(organizationId);
        if (!settings?.apiKey || !settings.uid) {
            throw new ProviderError('unavailable', 'The Alpine IQ provider has no API key or UID for this organization');
        }
        return new AlpineIqClient(settings, this.timeoutMs, this.policy);
    }

    async findCustomer(organizationId: number, phone: string): Promise<AlpineIqCustomer | null> {
        return (await this.client(organizationId)).lookup(phone);
    }

    async orderHistory(organizationId: number, customer: LoyaltyCustomer, limit: number): Promise<LoyaltyOrder[]> {
        return customer.loyaltyId ? (await this.client(organizationId)).orders(customer.loyaltyId, limit) : [];
    }
}
