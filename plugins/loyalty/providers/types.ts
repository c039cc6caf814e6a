/** One loyalty customer as every provider answers it (phone in E.164). */
export interface LoyaltyCustomer {
    phone: string;
    name: string | null;
    email: string | null;
    loyaltyId: string | null;
    points: number;
}

export interface LoyaltyOrder {
    orderRef: string | null;
    productName: string;
    quantity: number;
    price: number;
    orderDate: string;
}

/**
 * Where loyalty data comes from (DESIGN §3): the built-in tables, or an HTTP provider shaped like Alpine IQ.
 * Every call is scoped to one organization.
 */
export interface LoyaltyProvider {
    readonly name: 'builtin' | 'alpineiq';
    findCustomer(organizationId: number, phone: string): Promise<LoyaltyCustomer | null>;
    orderHistory(organizationId: number, phone: string, limit: number): Promise<LoyaltyOrder[]>;
}

export class ProviderError extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'ProviderError';
    }
}
