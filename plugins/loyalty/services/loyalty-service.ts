import Boom from '@hapi/boom';
import type { Logger } from 'pino';
import type { Db } from '../../../core/db';
import type { LimitBackend } from '../../../core/http/rate-limit';
import type { CustomerRow } from '../customers-csv';
import type { LoyaltyCustomer, LoyaltyOrder } from '../providers/types';
import { ProviderError } from '../providers/types';
import type { LookupCache } from './lookup-cache';
import type { CustomerLookup, LoyaltyLookups, OrderHistory } from '../../../core/types/loyalty';
import { listOutbox, OutboxEntry, OutboxQuery, SmsSender } from '../sms';
import { MAX_ORDERS, Members, ProviderOf } from './members';
import { LoyaltyMiss, OneTimeCodes, WidgetContext } from './otp';

export { CODES, customerError, MESSAGES, OTP } from './messages';
export { MAX_ORDERS } from './members';
export type { ProviderOf, ResolvedProvider } from './members';
export type { LoyaltyMiss, WidgetContext } from './otp';
export type { CustomerLookup, OrderHistory };

/** What the loyalty service uses. */
export interface LoyaltyDeps {
    db: Db;
    log: Logger;
    /** Keys the codes' HMAC (the JWT secret: never stored beside the codes). */
    secret: string;
    /** Where the per-address and per-phone limits count. */
    limits: LimitBackend;
    /** The provider of an organization, and the cache key prefix of its answers (null: not cached). */
    providerOf: ProviderOf;
    /** Where remote providers' answers are kept briefly. */
    cache: LookupCache;
    sms: SmsSender;
}

/**
 * The loyalty plugin's service (`services.loyalty`), one facade over its two parts: the one-time codes
 * (otp.ts: a code to a member's phone, its check, the points) and the members (members.ts: the one read path
 * to the store's provider, cached briefly; the built-in provider's import and demo seed).
 *
 * Other plugins read members through `customer` and `orders` (errors as Boom: 400 bad phone, 503/502 provider);
 * `lookupCustomer` and `orderHistory` are the same reads in the shapes of SPEC §3, with a provider failure as
 * a value instead of an error.
 */
export class LoyaltyService implements LoyaltyLookups {
    readonly members: Members;
    readonly codes: OneTimeCodes;
    readonly sms: SmsSender;
    private readonly db: Db;

    constructor(deps: LoyaltyDeps) {
        this.db = deps.db;
        this.sms = deps.sms;
        this.members = new Members({ db: deps.db, log: deps.log, providerOf: deps.providerOf, cache: deps.cache });
        this.codes = new OneTimeCodes({ db: deps.db, secret: deps.secret, limits: deps.limits, sms: deps.sms, members: this.members });
    }

    /** E.164 of a phone number as a customer types it (US by default); one no country has is a 400. */
    normalizePhone(input: string): string {
        return this.members.normalizePhone(input);
    }

    // ---- the codes (the widget) ----

    /** POST /api/loyalty/verify: sends a new code to a known customer's phone. */
    requestCode(ctx: WidgetContext, identifier: string): Promise<{ ok: true; success: true; message: string } | LoyaltyMiss> {
        return this.codes.requestCode(ctx, identifier);
    }

    /** POST /api/loyalty/view: checks the code and answers the points; marks the widget session verified. */
    viewPoints(ctx: WidgetContext, identifier: string, code: string): Promise<{ ok: true; success: true; points: number; message: string } | LoyaltyMiss> {
        return this.codes.viewPoints(ctx, identifier, code);
    }

    /** The phone a widget session last proved with a code, or null (the staff console's "verified by code"). */
    verifiedPhone(organizationId: number, sessionId: string): Promise<string | null> {
        return this.codes.verifiedPhone(organizationId, sessionId);
    }

    // ---- the one read API of members ----

    /** The member behind a phone, or null. 400 for a phone no country has; 503/502 when the provider fails. */
    customer(organizationId: number, phoneInput: string): Promise<LoyaltyCustomer | null> {
        return this.members.member(organizationId, phoneInput);
    }

    /** A member's newest orders (1 to 5), none for a phone that is not a member. Errors as `customer`. */
    orders(organizationId: number, phoneInput: string, limit = MAX_ORDERS): Promise<LoyaltyOrder[]> {
        return this.members.orders(organizationId, phoneInput, limit);
    }

    /** `customer` in SPEC §3's 'Loyalty customer lookup result' (analytics): a provider failure as `error`. */
    async lookupCustomer(organizationId: number, phoneInput: string): Promise<CustomerLookup> {
        const phone = this.normalizePhone(phoneInput);
        try {
            const { customer } = await this.members.read(organizationId, phone);
            return customer
                ? { found: true, email: customer.email, name: customer.name, alpineId: customer.loyaltyId }
                : { found: false, email: null, name: null, alpineId: null };
        }
        catch (err) {
            return { found: false, email: null, name: null, alpineId: null, error: (err as Error).message };
        }
    }

    /** `customer` and `orders` as SPEC §3's order history (analytics, the AI agent): a provider failure as `error`. */
    async orderHistory(organizationId: number, phoneInput: string, limit = MAX_ORDERS): Promise<OrderHistory> {
        const phone = this.normalizePhone(phoneInput);
        try {
            const { customer, orders } = await this.members.read(organizationId, phone, { orders: limit });
            if (!customer) {
                return { found: false, customerName: null, totalOrders: 0, orders: [], error: 'Customer not found' };
            }
            return { found: true, customerName: customer.name, totalOrders: orders.length, orders };
        }
        catch (err) {
            return { found: false, customerName: null, totalOrders: 0, orders: [], error: (err as Error).message };
        }
    }

    /**
     * The /test page's loyalty round trip: the organization's provider looks the phone up now (never from the
     * cache), and the code text is only prepared (a dry run: nothing is sent). A failing provider is a 503 (down or
     * slow) or 502 (refused our key) whose message names the provider and its error, for the store's admin.
     */
    async systemTest(organizationId: number, phoneInput: string): Promise<{ provider: string; customer: LoyaltyCustomer | null; sms: string }> {
        this.normalizePhone(phoneInput);
        const provider = await this.members.providerName(organizationId);
        try {
            return { provider, customer: (await this.members.read(organizationId, phoneInput, { fresh: true })).customer, sms: this.sms.name };
        }
        catch (err) {
            if (err instanceof ProviderError) {
                const message = `Loyalty provider "${provider}" failed: ${err.message}`;
                throw err.kind === 'refused' ? Boom.badGateway(message) : Boom.serverUnavailable(message);
            }
            throw err;
        }
    }

    // ---- the built-in provider's members ----

    importCustomers(organizationId: number, rows: readonly CustomerRow[]): Promise<{ created: number; updated: number }> {
        return this.members.importCustomers(organizationId, rows);
    }

    seedDemoCustomers(...args: Parameters<Members['seedDemoCustomers']>): Promise<string[]> {
        return this.members.seedDemoCustomers(...args);
    }

    /** The stored text messages, newest first; a phone is matched in its E.164 form. */
    async listOutbox(filter: OutboxQuery & { organizationId?: number } = {}): Promise<OutboxEntry[]> {
        return listOutbox(this.db, { ...filter, phone: filter.phone ? this.normalizePhone(filter.phone) : undefined });
    }
}
