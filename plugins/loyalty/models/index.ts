import type { RelationMappings } from 'objection';
import { Model } from '../../../core/db/model';

/** A member of the built-in loyalty provider (phone in E.164), with their orders. */
export class LoyaltyCustomerModel extends Model {
    static override tableName = 'loyalty_customers';
    static override timestamps = { created: true, updated: true };
    id!: number;
    organizationId!: number;
    phone!: string;
    name!: string | null;
    email!: string | null;
    loyaltyId!: string | null;
    points!: number;
    createdAt!: number;
    updatedAt!: number;
    orders?: LoyaltyOrderModel[];

    static override get relationMappings(): RelationMappings {
        return {
            orders: {
                relation: Model.HasManyRelation,
                modelClass: LoyaltyOrderModel,
                join: { from: 'loyalty_customers.id', to: 'loyalty_orders.customer_id' }
            }
        };
    }
}

export class LoyaltyOrderModel extends Model {
    static override tableName = 'loyalty_orders';
    id!: number;
    organizationId!: number;
    customerId!: number;
    orderRef!: string | null;
    productName!: string;
    quantity!: number;
    priceCents!: number;
    orderDate!: number;
}

/** A one-time code sent to a phone: stored as an HMAC, checked at most OTP.maxChecksPerCode times. */
export class VerificationCodeModel extends Model {
    static override tableName = 'verification_codes';
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number;
    phone!: string;
    codeHash!: string;
    sessionId!: string | null;
    ip!: string | null;
    attempts!: number;
    expiresAt!: number;
    consumedAt!: number | null;
    createdAt!: number;
}

/** A widget session that proved a phone with a code (the AI agent's tier-2 tools rely on it). */
export class WidgetSessionModel extends Model {
    static override tableName = 'widget_sessions';
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number;
    botInstanceId!: number | null;
    sessionId!: string;
    domain!: string | null;
    verifiedPhone!: string | null;
    verifiedAt!: number | null;
    createdAt!: number;
    lastSeenAt!: number;
}

export class SmsOutboxModel extends Model {
    static override tableName = 'sms_outbox';
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number | null;
    toPhone!: string;
    body!: string;
    provider!: string;
    status!: string;
    error!: string | null;
    providerRef!: string | null;
    createdAt!: number;
}

/** An organization's own loyalty provider settings (no row: the server's variables); the API key is sealed. */
export class LoyaltyProviderSettingsModel extends Model {
    static override tableName = 'loyalty_provider_settings';
    static override idColumn = 'organization_id';
    static override timestamps = { updated: true };
    organizationId!: number;
    provider!: 'builtin' | 'alpineiq';
    uid!: string | null;
    baseUrl!: string | null;
    apiKeySealed!: string | null;
    updatedBy!: number | null;
    updatedAt!: number;
}
