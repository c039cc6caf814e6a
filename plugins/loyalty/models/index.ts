import { BaseModel } from '../../../core/db/base-model';

export class LoyaltyCustomerModel extends BaseModel {
    static override tableName = 'loyalty_customers';
    id!: number;
    organization_id!: number;
    phone!: string;
    name!: string | null;
    email!: string | null;
    loyalty_id!: string | null;
    points!: number;
    created_at!: number;
    updated_at!: number;
}

export class LoyaltyOrderModel extends BaseModel {
    static override tableName = 'loyalty_orders';
    id!: number;
    organization_id!: number;
    customer_id!: number;
    order_ref!: string | null;
    product_name!: string;
    quantity!: number;
    price_cents!: number;
    order_date!: number;
}

export class VerificationCodeModel extends BaseModel {
    static override tableName = 'verification_codes';
    id!: number;
    organization_id!: number;
    phone!: string;
    code_hash!: string;
    session_id!: string | null;
    ip!: string | null;
    attempts!: number;
    expires_at!: number;
    consumed_at!: number | null;
    created_at!: number;
}

export class WidgetSessionModel extends BaseModel {
    static override tableName = 'widget_sessions';
    id!: number;
    organization_id!: number;
    bot_instance_id!: number | null;
    session_id!: string;
    domain!: string | null;
    verified_phone!: string | null;
    verified_at!: number | null;
    created_at!: number;
    last_seen_at!: number;
}

export class SmsOutboxModel extends BaseModel {
    static override tableName = 'sms_outbox';
    id!: number;
    organization_id!: number | null;
    to_phone!: string;
    body!: string;
    provider!: string;
    status!: string;
    error!: string | null;
    provider_ref!: string | null;
    created_at!: number;
}
