/**
 * What the loyalty plugin offers other plugins (analytics, the staff console, the AI agent) through
 * `server.app.services.loyalty`: customer lookups and recent orders, whichever provider the organization uses.
 */

/** One order line as every provider answers it. */
export interface LoyaltyOrder {
    orderRef: string | null;
    productName: string;
    quantity: number;
    price: number;
    /** ISO 8601. */
    orderDate: string;
}

/** SPEC §3 'Loyalty customer lookup result' (a type, so `customers show` prints it as a plain row). */
export type CustomerLookup = {
    found: boolean;
    email: string | null;
    name: string | null;
    alpineId: string | null;
    error?: string;
};

export interface OrderHistory {
    found: boolean;
    customerName: string | null;
    totalOrders: number;
    orders: LoyaltyOrder[];
    error?: string;
}

export interface LoyaltyLookups {
    /** Never throws for a provider failure: `found: false` with `error`. A phone no country has is a 400. */
    lookupCustomer(organizationId: number, phone: string): Promise<CustomerLookup>;
    /** Never throws for a provider failure: `found: false` with `error`. At most 5 orders, newest first. */
    orderHistory(organizationId: number, phone: string, limit?: number): Promise<OrderHistory>;
    /**
     * At most `limit` (1 to 5) orders, newest first; [] for a phone that is not a member. Throws Boom: 400 for a
     * phone no country has, 503 when the provider is down or slow, 502 when it refuses the key.
     */
    orders(organizationId: number, phone: string, limit?: number): Promise<LoyaltyOrder[]>;
}

// ---- an organization's loyalty provider (super admin: /api/super-admin/organizations/{id}/loyalty-provider) ----

/** 'default': the server's LOYALTY_PROVIDER and ALPINEIQ_* variables (no row of its own). */
export type ProviderChoice = 'default' | 'builtin' | 'alpineiq';

/** What a super admin reads: never the key, only whether one is stored. */
export interface ProviderSettingsView {
    organizationId: number;
    provider: ProviderChoice;
    /** The provider the organization's customers are looked up in now. */
    effectiveProvider: 'builtin' | 'alpineiq';
    uid: string | null;
    baseUrl: string | null;
    hasApiKey: boolean;
    /** The server's defaults, for the dialog to say what 'default' means. */
    serverDefault: { provider: 'builtin' | 'alpineiq'; uid: string | null; baseUrl: string; hasApiKey: boolean };
    updatedAt: string | null;
}

export interface ProviderSettingsUpdate {
    provider: ProviderChoice;
    uid?: string | null;
    baseUrl?: string | null;
    /** A new key; left out: the stored one stays. */
    apiKey?: string;
}

export interface ProviderCheck {
    ok: boolean;
    provider: 'builtin' | 'alpineiq';
    message: string;
}
