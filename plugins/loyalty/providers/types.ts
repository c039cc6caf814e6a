import type { LoyaltyOrder } from '../../../core/types/loyalty';

export type { LoyaltyOrder };

/** One loyalty customer as every provider answers it (phone in E.164). */
export interface LoyaltyCustomer {
    phone: string;
    name: string | null;
    email: string | null;
    loyaltyId: string | null;
    points: number;
}

/**
 * Where loyalty data comes from (DESIGN §3): the built-in tables, or an HTTP provider shaped like Alpine IQ.
 * Every call is scoped to one organization.
 */
export interface LoyaltyProvider {
    readonly name: 'builtin' | 'alpineiq';
    findCustomer(organizationId: number, phone: string): Promise<LoyaltyCustomer | null>;
    /** The customer's newest orders (at most `limit`), for a customer findCustomer answered. */
    orderHistory(organizationId: number, customer: LoyaltyCustomer, limit: number): Promise<LoyaltyOrder[]>;
}

/**
 * A provider that could not answer: `unavailable` (down, too slow, not configured: a 503 to the widget) or
 * `refused` (it refused our credentials: a 502). The message is for the log and never holds a credential.
 */
export class ProviderError extends Error {
    constructor(readonly kind: 'unavailable' | 'refused', message: string) {
        super(message);
        this.name = 'ProviderError';
    }
}
