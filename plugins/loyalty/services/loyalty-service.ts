import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Logger } from 'pino';
import type { Db } from '../../../core/db';
import { e164 } from '../../../core/http/fields';
import { Limit, LimitBackend, tooMany } from '../../../core/http/rate-limit';
import { coded, CustomerError } from '../../../core/http/errors';
import { smsCodeText } from '../texts';
import type { CustomerRow } from '../customers-csv';
import { LoyaltyCustomerModel, VerificationCodeModel, WidgetSessionModel } from '../models';
import type { LoyaltyCustomer, LoyaltyOrder, LoyaltyProvider } from '../providers/types';
import { ProviderError } from '../providers/types';
import type { LookupCache } from './lookup-cache';
import type { CustomerLookup, LoyaltyLookups, OrderHistory } from '../../../core/types/loyalty';
import { listOutbox, OutboxEntry, OutboxQuery, SmsError, SmsSender } from '../sms';

/** DESIGN §7: the one-time code rules. */
export const OTP = {
    digits: 6,
    ttlMs: 10 * 60 * 1000,
    maxChecksPerCode: 5,
    maxSendsPerPhone: 5,
    sendWindowMs: 10 * 60 * 1000,
    verifyPerIp: { points: 20, duration: 600 },
    viewPerIp: { points: 30, duration: 600 }
};

export const MESSAGES = {
    phoneRequired: 'Please enter your phone number',
    badPhone: 'Please enter a valid phone number',
    codeRequired: 'Please enter the 6-digit code',
    codeFormat: 'The code must be 6 digits',
    notFound: 'Phone number not found in our loyalty program',
    sent: 'A verification code has been sent to your phone.',
    tooManySends: 'Too many codes were requested for this phone number. Please try again in a few minutes.',
    tooManyIp: 'Too many attempts from your connection. Please try again in a few minutes.',
    noCode: 'No verification code was requested for this phone number. Please request a new code.',
    expired: 'This code has expired. Please request a new code.',
    used: 'This code has already been used. Please request a new code.',
    tooManyChecks: 'Too many incorrect codes. Please try again in a few minutes.',
    wrong: 'Invalid verification code',
    /** SPEC §8's connection texts, for a provider that is down, too slow or refuses our key (503/502). */
    providerDown: "Sorry, I'm having trouble connecting. Please try again.",
    providerDownOnCode: "Sorry, I'm having trouble verifying the code. Please try again.",
    smsFailed: 'We could not send the text message. Please try again later.'
};

/**
 * The stable code of each message a customer may read (issue 27): the widget shows its catalogue's text for it
 * (`error.<code>`), in the customer's language; the English message stays beside it.
 */
export const CODES = {
    phoneRequired: 'loyalty.phone_required',
    badPhone: 'loyalty.invalid_phone',
    codeRequired: 'loyalty.code_required',
    codeFormat: 'loyalty.code_format',
    notFound: 'loyalty.not_found',
    tooManySends: 'loyalty.too_many_codes',
    tooManyIp: 'loyalty.too_many_attempts',
    noCode: 'loyalty.no_code',
    expired: 'loyalty.code_expired',
    used: 'loyalty.code_used',
    tooManyChecks: 'loyalty.too_many_checks',
    wrong: 'loyalty.invalid_code',
    providerDown: 'loyalty.provider_unavailable',
    providerDownOnCode: 'loyalty.provider_unavailable',
    smsFailed: 'loyalty.sms_failed'
} as const;

/** A message with its code. */
export function customerError(kind: keyof typeof CODES): CustomerError {
    return { code: CODES[kind], message: MESSAGES[kind] };
}

/** How long a code stays valid, in minutes (the SMS says it). */
const TTL_MINUTES = 10;

/**
 * An expected outcome that is not an error (issue 11): the phone is not a member, or the code is wrong. The
 * widget shows the message; the merchant's console stays free of red 4xx lines.
 */
export interface LoyaltyMiss {
    ok: false;
    reason: 'not_found' | 'invalid_code';
    /** The stable code of the message (issue 27). */
    code: string;
    message: string;
}

export interface WidgetContext {
    organizationId: number;
    botInstanceId: number | null;
    storeName: string;
    ip: string;
    sessionId?: string | null;
    domain?: string | null;
    /** The customer's language (BCP 47), for the texts sent to them; English when absent. */
    locale?: string | null;
}

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

export interface ResolvedProvider {
    provider: LoyaltyProvider;
    /** Names the organization's account in cache keys (it changes when the settings do); null: do not cache. */
    cacheKey: string | null;
}

export type ProviderOf = (organizationId: number) => Promise<ResolvedProvider>;

/** The most orders anyone gets (the widget, the Orders tab, the AI agent, analytics). */
export const MAX_ORDERS = 5;

export type { CustomerLookup, OrderHistory };

/**
 * Loyalty points behind a phone number and a one-time SMS code (SPEC §4, §7; DESIGN §7), customer lookup
 * and order history for analytics and the AI agent, and the CSV import of the built-in provider.
 */
export class LoyaltyService implements LoyaltyLookups {
    private readonly verifyIpLimit: Limit;
    private readonly viewIpLimit: Limit;
    private readonly sendPhoneLimit: Limit;

    private readonly db: Db;
    private readonly log: Logger;
    private readonly secret: string;
    private readonly providerOf: ProviderOf;
    private readonly cache: LookupCache;
    readonly sms: SmsSender;

    constructor(deps: LoyaltyDeps) {
        this.db = deps.db;
        this.log = deps.log;
        this.secret = deps.secret;
        this.providerOf = deps.providerOf;
        this.cache = deps.cache;
        this.sms = deps.sms;
        this.verifyIpLimit = new Limit(deps.limits, { name: 'otp-verify-ip', ...OTP.verifyPerIp });
        this.viewIpLimit = new Limit(deps.limits, { name: 'otp-view-ip', ...OTP.viewPerIp });
        // The stored codes are the durable count of sends; this atomic counter closes the race between
        // simultaneous requests (shared by every node through Redis).
        this.sendPhoneLimit = new Limit(deps.limits, { name: 'otp-send-phone', points: OTP.maxSendsPerPhone, duration: OTP.sendWindowMs / 1000 });
    }

    /** E.164 of a phone number as a customer types it (US by default); one no country has is a 400. */
    normalizePhone(input: string): string {
        const phone = e164(input);
        if (!phone) {
            throw coded(Boom.badRequest(MESSAGES.badPhone), CODES.badPhone);
        }
        return phone;
    }

    private hash(organizationId: number, phone: string, code: string): string {
        return Crypto.createHmac('sha256', this.secret).update(`${organizationId}:${phone}:${code}`).digest('hex');
    }

    /** The organization's provider and the customer it knows by this E.164 phone (cached briefly); failures throw ProviderError. */
    private async lookup(organizationId: number, phone: string, fresh = false): Promise<{ provider: LoyaltyProvider; customer: LoyaltyCustomer | null }> {
        const { provider, cacheKey } = await this.providerOf(organizationId);
        const key = cacheKey ? `${organizationId}:${cacheKey}:${phone}` : null;
        if (key && !fresh) {
            const cached = await this.cache.get(key);
            if (cached !== undefined) {
                return { provider, customer: cached };
            }
        }
        const customer = await provider.findCustomer(organizationId, phone);
        if (key) {
            await this.cache.set(key, customer);
        }
        return { provider, customer };
    }

    /** A provider failure as the widget gets it: 503 when it is down or slow, 502 when it refuses our key. */
    private providerFailure(err: unknown, organizationId: number, message: string): unknown {
        if (!(err instanceof ProviderError)) {
            return err;
        }
        this.log.warn({ organizationId, kind: err.kind, reason: err.message }, 'loyalty provider failed');
        return coded(err.kind === 'refused' ? Boom.badGateway(message) : Boom.serverUnavailable(message), CODES.providerDown);
    }

    private async findCustomer(organizationId: number, phone: string, options: { fresh: boolean; failureMessage: string }): Promise<LoyaltyCustomer | null> {
        try {
            return (await this.lookup(organizationId, phone, options.fresh)).customer;
        }
        catch (err) {
            throw this.providerFailure(err, organizationId, options.failureMessage);
        }
    }

    /** POST /api/loyalty/verify: sends a new code to a known customer's phone. */
    async requestCode(ctx: WidgetContext, identifier: string): Promise<{ ok: true; success: true; message: string } | LoyaltyMiss> {
        await this.verifyIpLimit.consume(`${ctx.organizationId}:${ctx.ip}`, customerError('tooManyIp'));
        const phone = this.normalizePhone(identifier);
        const t = Date.now();
        const recent = await VerificationCodeModel.query(this.db)
            .where({ organization_id: ctx.organizationId, phone })
            .where('created_at', '>', t - OTP.sendWindowMs)
            .orderBy('id', 'desc');
        if (recent.length >= OTP.maxSendsPerPhone) {
            const oldest = recent[recent.length - 1].createdAt;
            throw tooMany(MESSAGES.tooManySends, oldest + OTP.sendWindowMs - t, CODES.tooManySends);
        }
        const customer = await this.findCustomer(ctx.organizationId, phone, { fresh: false, failureMessage: MESSAGES.providerDown });
        if (!customer) {
            return { ok: false, reason: 'not_found', code: CODES.notFound, message: MESSAGES.notFound };
        }
        await this.sendPhoneLimit.consume(`${ctx.organizationId}:${phone}`, customerError('tooManySends'));
        const code = String(Crypto.randomInt(0, 10 ** OTP.digits)).padStart(OTP.digits, '0');
        // A resend keeps the failed checks of the code it replaces (DESIGN §7: failures are not reset by a resend).
        const latest = recent[0];
        const carried = latest && !latest.consumedAt ? latest.attempts : 0;
        const inserted = await VerificationCodeModel.query(this.db).insertAndFetch({
            organizationId: ctx.organizationId,
            phone,
            codeHash: this.hash(ctx.organizationId, phone, code),
            sessionId: ctx.sessionId ?? null,
            ip: ctx.ip.slice(0, 64),
            attempts: carried,
            expiresAt: t + OTP.ttlMs,
            consumedAt: null,
            createdAt: t
        });
        try {
            await this.sms.send({
                organizationId: ctx.organizationId,
                to: phone,
                // In the customer's language once the widget passes it (issue 27); English until then.
                body: smsCodeText(ctx.locale, { store: ctx.storeName, code, minutes: TTL_MINUTES })
            });
        }
        catch (err) {
            await VerificationCodeModel.query(this.db).deleteById(inserted.id);
            if (err instanceof SmsError) {
                throw coded(Boom.badGateway(MESSAGES.smsFailed), CODES.smsFailed);
            }
            throw err;
        }
        return { ok: true, success: true, message: MESSAGES.sent };
    }

    /** POST /api/loyalty/view: checks the code and answers the points; marks the widget session verified. */
    async viewPoints(ctx: WidgetContext, identifier: string, code: string): Promise<{ ok: true; success: true; points: number; message: string } | LoyaltyMiss> {
        await this.viewIpLimit.consume(`${ctx.organizationId}:${ctx.ip}`, customerError('tooManyIp'));
        const phone = this.normalizePhone(identifier);
        const t = Date.now();
        const latest = await VerificationCodeModel.query(this.db)
            .where({ organization_id: ctx.organizationId, phone })
            .orderBy('id', 'desc')
            .first();
        if (!latest) {
            throw coded(Boom.badRequest(MESSAGES.noCode), CODES.noCode);
        }
        if (latest.consumedAt) {
            throw coded(Boom.badRequest(MESSAGES.used), CODES.used);
        }
        if (latest.expiresAt <= t) {
            throw coded(Boom.badRequest(MESSAGES.expired), CODES.expired);
        }
        // Count the check first, atomically: at most maxChecksPerCode checks, even when they race.
        const counted = await VerificationCodeModel.query(this.db)
            .where('id', latest.id)
            .where('attempts', '<', OTP.maxChecksPerCode)
            .whereNull('consumed_at')
            .increment('attempts', 1);
        if (!counted) {
            throw tooMany(MESSAGES.tooManyChecks, latest.expiresAt - t, CODES.tooManyChecks);
        }
        const expected = Buffer.from(latest.codeHash, 'hex');
        const given = Buffer.from(this.hash(ctx.organizationId, phone, code), 'hex');
        if (expected.length !== given.length || !Crypto.timingSafeEqual(expected, given)) {
            return { ok: false, reason: 'invalid_code', code: CODES.wrong, message: MESSAGES.wrong };
        }
        // The provider first (fresh points, not the cache): when it fails, the code stays usable for another try.
        const customer = await this.findCustomer(ctx.organizationId, phone, { fresh: true, failureMessage: MESSAGES.providerDownOnCode });
        if (!customer) {
            return { ok: false, reason: 'not_found', code: CODES.notFound, message: MESSAGES.notFound };
        }
        const consumed = await VerificationCodeModel.query(this.db)
            .patch({ consumedAt: t })
            .where('id', latest.id)
            .whereNull('consumed_at');
        if (!consumed) {
            throw coded(Boom.badRequest(MESSAGES.used), CODES.used);
        }
        if (ctx.sessionId) {
            await this.markSessionVerified(ctx, ctx.sessionId, phone);
        }
        return { ok: true, success: true, points: customer.points, message: `You have ${customer.points.toLocaleString('en-US')} points.` };
    }

    private async markSessionVerified(ctx: WidgetContext, sessionId: string, phone: string): Promise<void> {
        const t = Date.now();
        await WidgetSessionModel.query(this.db)
            .insert({
                organizationId: ctx.organizationId,
                botInstanceId: ctx.botInstanceId,
                sessionId,
                domain: ctx.domain ?? null,
                verifiedPhone: phone,
                verifiedAt: t,
                createdAt: t,
                lastSeenAt: t
            })
            .onConflict(['organization_id', 'session_id'])
            .merge(['verified_phone', 'verified_at', 'last_seen_at']);
    }

    /**
     * The phone a widget session last proved with a code, or null: for the staff console ("verified by code"). The
     * customer's own tier-2 data never relies on it: that needs the customer's token (core/auth/customer-token.ts).
     */
    async verifiedPhone(organizationId: number, sessionId: string): Promise<string | null> {
        const row = await WidgetSessionModel.query(this.db).findOne({ organization_id: organizationId, session_id: sessionId });
        return row?.verifiedPhone ?? null;
    }

    /** Customer lookup for analytics (SPEC §3 'Loyalty customer lookup result'). */
    async lookupCustomer(organizationId: number, phoneInput: string): Promise<CustomerLookup> {
        const phone = this.normalizePhone(phoneInput);
        try {
            const { customer } = await this.lookup(organizationId, phone);
            return customer
                ? { found: true, email: customer.email, name: customer.name, alpineId: customer.loyaltyId }
                : { found: false, email: null, name: null, alpineId: null };
        }
        catch (err) {
            return { found: false, email: null, name: null, alpineId: null, error: (err as Error).message };
        }
    }

    /** Recent orders of a customer for analytics and the AI agent (at most `limit`, newest first). */
    async orderHistory(organizationId: number, phoneInput: string, limit = MAX_ORDERS): Promise<OrderHistory> {
        const phone = this.normalizePhone(phoneInput);
        try {
            const { provider, customer } = await this.lookup(organizationId, phone);
            if (!customer) {
                return { found: false, customerName: null, totalOrders: 0, orders: [], error: 'Customer not found' };
            }
            const orders = await provider.orderHistory(organizationId, customer, Math.min(Math.max(1, limit), MAX_ORDERS));
            return { found: true, customerName: customer.name, totalOrders: orders.length, orders };
        }
        catch (err) {
            return { found: false, customerName: null, totalOrders: 0, orders: [], error: (err as Error).message };
        }
    }

    /**
     * The member behind a phone for the staff console (name, email, loyalty id, points), or null for a phone that
     * is not a member. A phone no country has is a 400; a provider that is down or slow a 503, one that refuses
     * our key a 502.
     */
    async customer(organizationId: number, phoneInput: string): Promise<LoyaltyCustomer | null> {
        return this.findCustomer(organizationId, this.normalizePhone(phoneInput), { fresh: false, failureMessage: MESSAGES.providerDown });
    }

    /**
     * The /test page's loyalty round trip: the organization's provider looks the phone up now (never from the
     * cache), and the code text is only prepared (a dry run: nothing is sent). A failing provider is a 503 (down or
     * slow) or 502 (refused our key) whose message names the provider and its error, for the store's admin.
     */
    async systemTest(organizationId: number, phoneInput: string): Promise<{ provider: string; customer: LoyaltyCustomer | null; sms: string }> {
        const phone = this.normalizePhone(phoneInput);
        const { provider } = await this.providerOf(organizationId);
        try {
            const { customer } = await this.lookup(organizationId, phone, true);
            return { provider: provider.name, customer, sms: this.sms.name };
        }
        catch (err) {
            if (err instanceof ProviderError) {
                const message = `Loyalty provider "${provider.name}" failed: ${err.message}`;
                throw err.kind === 'refused' ? Boom.badGateway(message) : Boom.serverUnavailable(message);
            }
            throw err;
        }
    }

    /**
     * A customer's newest orders for other plugins (analytics, the staff console): at most `limit` (1 to 5),
     * newest first; none for a phone that is not a member. A phone no country has is a 400; a provider that is
     * down or slow a 503, one that refuses our key a 502 (Boom errors a route can pass on).
     */
    async orders(organizationId: number, phoneInput: string, limit = MAX_ORDERS): Promise<LoyaltyOrder[]> {
        const phone = this.normalizePhone(phoneInput);
        try {
            const { provider, customer } = await this.lookup(organizationId, phone);
            return customer ? await provider.orderHistory(organizationId, customer, Math.min(Math.max(1, Math.floor(limit) || 1), MAX_ORDERS)) : [];
        }
        catch (err) {
            throw this.providerFailure(err, organizationId, MESSAGES.providerDown);
        }
    }

    /**
     * Imports the built-in provider's customers, updating the ones whose phone is known (`customers import`,
     * the rows validated by customers-csv.ts): all of them or, on any error, none.
     */
    async importCustomers(organizationId: number, rows: readonly CustomerRow[]): Promise<{ created: number; updated: number }> {
        let created = 0;
        let updated = 0;
        await this.db.transaction(async (trx) => {
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

    /**
     * The store's members in the built-in tables (phone, points, how many orders), for demo data that agrees with them
     * (`loyalty-chat analytics generate`). A store on Alpine IQ cannot be listed: its built-in tables are usually empty.
     */
    async members(organizationId: number, limit = 10_000): Promise<Array<{ phone: string; points: number; orders: number }>> {
        const rows = await LoyaltyCustomerModel.query(this.db).where('loyalty_customers.organization_id', organizationId)
            .select('loyalty_customers.phone', 'loyalty_customers.points')
            .select(LoyaltyCustomerModel.relatedQuery('orders').count().as('order_count'))
            .orderBy('loyalty_customers.id').limit(limit)
            .castTo<Array<{ phone: string; points: number | string; order_count?: number | string; orderCount?: number | string }>>();
        return rows.map((r) => ({ phone: r.phone, points: Number(r.points), orders: Number(r.orderCount ?? r.order_count ?? 0) }));
    }

    /** Adds the demo members and their orders (once: nothing when the store has members already). Returns the lines to print. */
    async seedDemoCustomers(organizationId: number, customers: ReadonlyArray<{ phone: string; name: string; email: string; loyaltyId: string; points: number;
        orders: ReadonlyArray<{ productName: string; quantity: number; price: number; daysAgo: number }> }>): Promise<string[]> {
        if (await LoyaltyCustomerModel.query(this.db).where('organization_id', organizationId).first()) {
            return [];
        }
        const t = Date.now();
        await this.db.transaction(async (trx) => {
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

    /** The stored text messages, newest first; a phone is matched in its E.164 form. */
    async listOutbox(filter: OutboxQuery & { organizationId?: number } = {}): Promise<OutboxEntry[]> {
        return listOutbox(this.db, { ...filter, phone: filter.phone ? this.normalizePhone(filter.phone) : undefined });
    }
}
