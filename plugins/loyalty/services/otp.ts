import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import { Limit, LimitBackend, tooMany } from '../../../core/http/rate-limit';
import { coded } from '../../../core/http/errors';
import { smsCodeText } from '../texts';
import { VerificationCodeModel, WidgetSessionModel } from '../models';
import { SmsError, SmsSender } from '../sms';
import type { Members } from './members';
import { CODES, customerError, MESSAGES, OTP } from './messages';

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

export interface OneTimeCodesDeps {
    db: Db;
    /** Keys the codes' HMAC (the JWT secret: never stored beside the codes). */
    secret: string;
    /** Where the per-address and per-phone limits count. */
    limits: LimitBackend;
    sms: SmsSender;
    /** Whose phone may get a code, and their points once it is checked. */
    members: Members;
}

/**
 * The one-time SMS codes (SPEC §4, §7; DESIGN §7): a code to a member's phone, its check, the points it
 * unlocks, and the widget session it verifies.
 */
export class OneTimeCodes {
    private readonly verifyIpLimit: Limit;
    private readonly viewIpLimit: Limit;
    private readonly sendPhoneLimit: Limit;

    constructor(private readonly deps: OneTimeCodesDeps) {
        this.verifyIpLimit = new Limit(deps.limits, { name: 'otp-verify-ip', ...OTP.verifyPerIp });
        this.viewIpLimit = new Limit(deps.limits, { name: 'otp-view-ip', ...OTP.viewPerIp });
        // The stored codes are the durable count of sends; this atomic counter closes the race between
        // simultaneous requests (shared by every node through Redis).
        this.sendPhoneLimit = new Limit(deps.limits, { name: 'otp-send-phone', points: OTP.maxSendsPerPhone, duration: OTP.sendWindowMs / 1000 });
    }

    private hash(organizationId: number, phone: string, code: string): string {
        return Crypto.createHmac('sha256', this.deps.secret).update(`${organizationId}:${phone}:${code}`).digest('hex');
    }

    /** POST /api/loyalty/verify: sends a new code to a known customer's phone. */
    async requestCode(ctx: WidgetContext, identifier: string): Promise<{ ok: true; success: true; message: string } | LoyaltyMiss> {
        await this.verifyIpLimit.consume(`${ctx.organizationId}:${ctx.ip}`, customerError('tooManyIp'));
        const phone = this.deps.members.normalizePhone(identifier);
        const t = Date.now();
        const recent = await VerificationCodeModel.query(this.deps.db)
            .where({ organization_id: ctx.organizationId, phone })
            .where('created_at', '>', t - OTP.sendWindowMs)
            .orderBy('id', 'desc');
        if (recent.length >= OTP.maxSendsPerPhone) {
            const oldest = recent[recent.length - 1].createdAt;
            throw tooMany(MESSAGES.tooManySends, oldest + OTP.sendWindowMs - t, CODES.tooManySends);
        }
        const customer = await this.deps.members.member(ctx.organizationId, phone);
        if (!customer) {
            return { ok: false, reason: 'not_found', code: CODES.notFound, message: MESSAGES.notFound };
        }
        await this.sendPhoneLimit.consume(`${ctx.organizationId}:${phone}`, customerError('tooManySends'));
        const code = String(Crypto.randomInt(0, 10 ** OTP.digits)).padStart(OTP.digits, '0');
        // A resend keeps the failed checks of the code it replaces (DESIGN §7: failures are not reset by a resend).
        const latest = recent[0];
        const carried = latest && !latest.consumedAt ? latest.attempts : 0;
        const inserted = await VerificationCodeModel.query(this.deps.db).insertAndFetch({
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
            await this.deps.sms.send({
                organizationId: ctx.organizationId,
                to: phone,
                // In the customer's language once the widget passes it (issue 27); English until then.
                body: smsCodeText(ctx.locale, { store: ctx.storeName, code, minutes: TTL_MINUTES })
            });
        }
        catch (err) {
            await VerificationCodeModel.query(this.deps.db).deleteById(inserted.id);
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
        const phone = this.deps.members.normalizePhone(identifier);
        const t = Date.now();
        const latest = await VerificationCodeModel.query(this.deps.db)
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
        const counted = await VerificationCodeModel.query(this.deps.db)
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
        const customer = await this.deps.members.member(ctx.organizationId, phone, { fresh: true, failureMessage: MESSAGES.providerDownOnCode });
        if (!customer) {
            return { ok: false, reason: 'not_found', code: CODES.notFound, message: MESSAGES.notFound };
        }
        const consumed = await VerificationCodeModel.query(this.deps.db)
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
        await WidgetSessionModel.query(this.deps.db)
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
        const row = await WidgetSessionModel.query(this.deps.db).findOne({ organization_id: organizationId, session_id: sessionId });
        return row?.verifiedPhone ?? null;
    }

}
