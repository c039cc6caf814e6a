import Boom from '@hapi/boom';
import type { Logger } from 'pino';
import type { Db } from '../../../core/db';
import { e164 } from '../../../core/http/fields';
import { coded } from '../../../core/http/errors';
import { LoyaltyCustomerModel } from '../models';
import type { LoyaltyCustomer, LoyaltyOrder, LoyaltyProvider } from '../providers/types';
import { ProviderError } from '../providers/types';
import type { CustomerRow } from '../customers-csv';
import type { LookupCache } from './lookup-cache';
import { CODES, MESSAGES } from './messages';

export interface ResolvedProvider {
    provider: LoyaltyProvider;
    /** Names the organization's account in cache keys (it changes when the settings do); null: do not cache. */
    cacheKey: string | null;
}

export type ProviderOf = (organizationId: number) => Promise<ResolvedProvider>;

/** The most orders anyone gets (the widget, the Orders tab, the AI agent, analytics). */
export const MAX_ORDERS = 5;

export interface MembersDeps {
    db: Db;
    log: Logger;
    /** The provider of an organization, and the cache key prefix of its answers (null: not cached). */
    providerOf: ProviderOf;
    /** Where remote providers' answers are kept briefly. */
    cache: LookupCache;
}

/**
 * The loyalty members of a store, as its provider knows them: the one read path (`member`, `orders`) that the
 * codes, the widget, the staff console, analytics and the AI agent all go through, with the provider's answers
 * cached briefly; and the built-in provider's own members (import, demo seed).
 */
export class Members {
    constructor(private readonly deps: MembersDeps) {}

    /** E.164 of a phone number as a customer types it (US by default); one no country has is a 400. */
    normalizePhone(input: string): string {
        const phone = e164(input);
        if (!phone) {
            throw coded(Boom.badRequest(MESSAGES.badPhone), CODES.badPhone);
        }
        return phone;
    }

    /** The organization's provider and the customer it knows by this E.164 phone (cached briefly); failures throw ProviderError. */
    private async lookup(organizationId: number, phone: string, fresh: boolean): Promise<{ provider: LoyaltyProvider; customer: LoyaltyCustomer | null }> {
        const { provider, cacheKey } = await this.deps.providerOf(organizationId);
        const key = cacheKey ? `${organizationId}:${cacheKey}:${phone}` : null;
        if (key && !fresh) {
            const cached = await this.deps.cache.get(key);
            if (cached !== undefined) {
                return { provider, customer: cached };
            }
        }
        const customer = await provider.findCustomer(organizationId, phone);
        if (key) {
            await this.deps.cache.set(key, customer);
        }
        return { provider, customer };
    }

    /** Forgets the cached provider answer about a phone (the customer's data erased, issue 25). */
    async forget(organizationId: number, phone: string): Promise<void> {
        const { cacheKey } = await this.deps.providerOf(organizationId);
        if (cacheKey) {
            await this.deps.cache.delete(`${organizationId}:${cacheKey}:${phone}`);
        }
    }

    /** A provider failure as a caller gets it: 503 when it is down or slow, 502 when it refuses our key. */
    private providerFailure(err: unknown, organizationId: number, message: string): unknown {
        if (!(err instanceof ProviderError)) {
            return err;
        }
        this.deps.log.warn({ organizationId, kind: err.kind, reason: err.message }, 'loyalty provider failed');
        return coded(err.kind === 'refused' ? Boom.badGateway(message) : Boom.serverUnavailable(message), CODES.providerDown);
    }

    /**
     * The member behind a phone (name, email, loyalty id, points), or null for a phone that is not a member.
     * A phone no country has is a 400; a provider that is down or slow a 503, one that refuses our key a 502
     * (with `failureMessage`, the customer's text by default). `fresh` asks the provider, not the cache.
     */
    async member(organizationId: number, phoneInput: string, options: { fresh?: boolean; failureMessage?: string } = {}): Promise<LoyaltyCustomer | null> {
        this.normalizePhone(phoneInput);
        try {
            return (await this.read(organizationId, phoneInput, { fresh: options.fresh })).customer;
        }
        catch (err) {
            throw this.providerFailure(err, organizationId, options.failureMessage ?? MESSAGES.providerDown);
        }
    }

    /**
     * A member's newest orders: at most `limit` (1 to 5), newest first; none for a phone that is not a member.
     * Errors as `member`.
     */
    async orders(organizationId: number, phoneInput: string, limit = MAX_ORDERS): Promise<LoyaltyOrder[]> {
        this.normalizePhone(phoneInput);
        try {
            return (await this.read(organizationId, phoneInput, { orders: limit })).orders;
        }
        catch (err) {
            throw this.providerFailure(err, organizationId, MESSAGES.providerDown);
        }
    }

    /** The name of the organization's provider now. */
    async providerName(organizationId: number): Promise<string> {
        return (await this.deps.providerOf(organizationId)).provider.name;
    }

    /**
     * The one read under `member` and `orders`, for the staff's views that show the provider's own error (SPEC §3
     * shapes, the /test page): the member (from the cache unless `fresh`) and, when asked, their newest orders;
     * a provider failure as it is (ProviderError, whose message names the provider's answer).
     */
    async read(organizationId: number, phoneInput: string, options: { fresh?: boolean; orders?: number } = {}): Promise<{ customer: LoyaltyCustomer | null; orders: LoyaltyOrder[] }> {
        const phone = this.normalizePhone(phoneInput);
        const { provider, customer } = await this.lookup(organizationId, phone, !!options.fresh);
        const limit = Math.min(Math.max(1, Math.floor(options.orders ?? 0) || 1), MAX_ORDERS);
        return { customer, orders: customer && options.orders ? await provider.orderHistory(organizationId, customer, limit) : [] };
    }

    /**
     * Imports the built-in provider's customers, updating the ones whose phone is known (`customers import`,
     * the rows validated by customers-csv.ts): all of them or, on any error, none.
     */
    async importCustomers(organizationId: number, rows: readonly CustomerRow[]): Promise<{ created: number; updated: number }> {
        let created = 0;
        let updated = 0;
        await this.deps.db.transaction(async (trx) => {
            for (const { phone, name, email, loyaltyId, points } of rows) {
                const patched = await LoyaltyCustomerModel.query(trx)
                    .patch({ name, email, loyaltyId, points })
                    .where({ organization_id: organizationId, phone });
                if (patched) {
                    updated++;
                }
                else {
                    await LoyaltyCustomerModel.query(trx).insert({ organizationId, phone, name, email, loyaltyId, points });
                    created++;
                }
            }
        });
        return { created, updated };
    }

    /** The built-in tables' members of a store, oldest first: phone, points and how many orders (LoyaltyService.listMembers). */
    async list(organizationId: number, limit = 10_000): Promise<Array<{ phone: string; points: number; orders: number }>> {
        const rows = await LoyaltyCustomerModel.query(this.deps.db).where('loyalty_customers.organization_id', organizationId)
            .select('loyalty_customers.phone', 'loyalty_customers.points')
            .select(LoyaltyCustomerModel.relatedQuery('orders').count().as('order_count'))
            .orderBy('loyalty_customers.id').limit(limit)
            .castTo<Array<{ phone: string; points: number | string; order_count?: number | string; orderCount?: number | string }>>();
        return rows.map((r) => ({ phone: r.phone, points: Number(r.points), orders: Number(r.orderCount ?? r.order_count ?? 0) }));
    }

    /** Adds the demo members and their orders (once: nothing when the store has members already). Returns the lines to print. */
    async seedDemoCustomers(organizationId: number, customers: ReadonlyArray<{ phone: string; name: string; email: string; loyaltyId: string; points: number;
        orders: ReadonlyArray<{ productName: string; quantity: number; price: number; daysAgo: number }> }>): Promise<string[]> {
        if (await LoyaltyCustomerModel.query(this.deps.db).where('organization_id', organizationId).first()) {
            return [];
        }
        const t = Date.now();
        await this.deps.db.transaction(async (trx) => {
            for (const c of customers) {
                await LoyaltyCustomerModel.query(trx).insertGraph({
                    organizationId, phone: c.phone, name: c.name, email: c.email, loyaltyId: c.loyaltyId, points: c.points,
                    orders: c.orders.map((order, index) => ({
                        organizationId, orderRef: `${c.loyaltyId}-${index + 1}`, productName: order.productName, quantity: order.quantity,
                        priceCents: Math.round(order.price * 100), orderDate: t - order.daysAgo * 86400000
                    }))
                });
            }
        });
        return [`Created ${customers.length} demo loyalty customers: ${customers.map((c) => `${c.phone} (${c.points} points)`).join(', ')}`];
    }

}
