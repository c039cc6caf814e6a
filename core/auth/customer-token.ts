import { createSecretKey, KeyObject } from 'crypto';
import jwt from 'jsonwebtoken';
import type { CustomerCaller } from '../types/auth';
import { ALGORITHM, checkLifetime, ISSUER } from './tokens';

/**
 * The customer's one credential (DESIGN §10 "The customer's credential"; issue 25): a token the widget holds and
 * sends as `Authorization: Bearer <token>` on every widget call. It belongs to one widget session of one store; it
 * is issued by the first widget call that needs it (a successful SMS code check, or create-session), names the live
 * chat once there is one (socket, chat routes), and after a code check names the verified phone, readable for
 * tier-2 data (points, orders, recommendations) until a deadline, CUSTOMER_VERIFIED_MINUTES after the check. A
 * widget session id alone, which anyone with the store's public key may send, reads no phone.
 *
 * Claims: `org` (organization), `sid` (the widget session), `chat` (the chat session, when it is not `sid` or
 * was named by create-session), `ph` + `pvu` (the verified phone, E.164, and until when it may be read, epoch s).
 * A token of an earlier version carries `org` and `sid` only, `sid` being its chat: it still opens that chat.
 */
export const CUSTOMER_AUDIENCE = 'loyalty-chat:customer';
/** How long a customer token lives (create-session renews it; the live chat may last that long). */
export const CUSTOMER_TOKEN_TTL_SECONDS = 4 * 3600;

export interface CustomerTokenClaims {
    organizationId: number;
    /** The widget session (SPEC §3 id) the token belongs to. */
    sessionId: string;
    /** The live chat it may read and write (a chat session id), once create-session named one. */
    chatId?: string | null;
    /** The phone proved by an SMS code in this widget session, and until when (epoch ms) tier-2 data may use it. */
    phone?: { number: string; until: number } | null;
}

export interface CustomerToken extends CustomerTokenClaims {
    /** Epoch ms of the token's exp. */
    expiresAt: number;
}

// jsonwebtoken turns a string secret into a KeyObject on every call (first trying it as a public key,
// which throws): on thousands of sockets re-verified each heartbeat that is most of the auth cost.
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
    let key = keys.get(secret);
    if (!key) {
        key = createSecretKey(Buffer.from(secret));
        keys.set(secret, key);
    }
    return key;
}

export function signCustomerToken(secret: string, claims: CustomerTokenClaims): string {
    const payload: Record<string, unknown> = { org: claims.organizationId, sid: claims.sessionId };
    if (claims.chatId) {
        payload.chat = claims.chatId;
    }
    if (claims.phone && claims.phone.until > Date.now()) {
        payload.ph = claims.phone.number;
        payload.pvu = Math.floor(claims.phone.until / 1000);
    }
    return jwt.sign(payload, keyOf(secret), {
        algorithm: ALGORITHM, issuer: ISSUER, audience: CUSTOMER_AUDIENCE, expiresIn: CUSTOMER_TOKEN_TTL_SECONDS,
        subject: `chat:${claims.chatId ?? claims.sessionId}`
    });
}

/** Verifies signature (HS256 only), issuer, audience, expiry and lifetime. Throws on any failure. */
export function readCustomerToken(secret: string, token: string): CustomerToken {
    const decoded = jwt.verify(token, keyOf(secret), { algorithms: [ALGORITHM], issuer: ISSUER, audience: CUSTOMER_AUDIENCE }) as jwt.JwtPayload;
    if (typeof decoded.org !== 'number' || typeof decoded.sid !== 'string' || (decoded.chat !== undefined && typeof decoded.chat !== 'string')) {
        throw new Error('Malformed customer token');
    }
    checkLifetime(decoded, CUSTOMER_TOKEN_TTL_SECONDS);
    const phone = typeof decoded.ph === 'string' && typeof decoded.pvu === 'number' ? { number: decoded.ph, until: decoded.pvu * 1000 } : null;
    return { organizationId: decoded.org, sessionId: decoded.sid, chatId: decoded.chat ?? null, phone, expiresAt: Number(decoded.exp) * 1000 };
}

/** The caller a customer token makes: the customer of its chat (the `session:{id}` scope binds it to that chat). */
export function customerCallerOf(token: CustomerToken): CustomerCaller {
    return { kind: 'customer', organizationId: token.organizationId, sessionId: token.chatId ?? token.sessionId };
}

/** A customer token's caller (throws like readCustomerToken). */
export function verifyCustomerToken(secret: string, token: string): CustomerCaller {
    return customerCallerOf(readCustomerToken(secret, token));
}

/** The token of an `Authorization: Bearer …` header, if the header is one. */
export function bearerOf(header: unknown): string | null {
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    return match ? match[1] : null;
}

/**
 * The customer token a widget call carries for this store and widget session, or null: none, not ours, broken,
 * expired, or of another store or session (never an error: without it the call simply reads no phone).
 */
export function customerTokenFor(secret: string, header: unknown, organizationId: number, sessionId: string): CustomerToken | null {
    const raw = bearerOf(header);
    if (!raw) {
        return null;
    }
    let token: CustomerToken;
    try {
        token = readCustomerToken(secret, raw);
    }
    catch {
        return null;
    }
    return token.organizationId === organizationId && token.sessionId === sessionId ? token : null;
}

/** The phone a token may read now: its claim, before the deadline of CUSTOMER_VERIFIED_MINUTES, else null. */
export function verifiedPhoneOf(token: CustomerToken | null, now = Date.now()): string | null {
    return token?.phone && token.phone.until > now ? token.phone.number : null;
}
