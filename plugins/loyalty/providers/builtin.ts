import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/base-model';
import { LoyaltyCustomerModel, LoyaltyOrderModel } from '../models';
import type { LoyaltyCustomer, LoyaltyOrder, LoyaltyProvider } from './types';

/** The built-in provider: the loyalty_customers and loyalty_orders tables (filled by `customers import`). */
export class BuiltinLoyaltyProvider implements LoyaltyProvider {
    readonly name = 'builtin' as const;

    constructor(private readonly db: Db) {}

    async findCustomer(organizationId: number, phone: string): Promise<LoyaltyCustomer | null> {
        const row = await LoyaltyCustomerModel.query(this.db).findOne({ organization_id: organizationId, phone });
        return row ? { phone: row.phone, name: row.name, email: row.email, loyaltyId: row.loyalty_id, points: Number(row.points) } : null;
    }

    async orderHistory(organizationId: number, phone: string, limit: number): Promise<LoyaltyOrder[]> {
        const customer = await LoyaltyCustomerModel.query(this.db).findOne({ organization_id: organizationId, phone });
        if (!customer) {
            return [];
        }
        const rows = await LoyaltyOrderModel.query(this.db)
            .where({ organization_id: organizationId, customer_id: customer.id })
            .orderBy('order_date', 'desc')
            .orderBy('id', 'desc')
            .limit(limit);
        return rows.map((r) => ({
            orderRef: r.order_ref,
            productName: r.product_name,
            quantity: Number(r.quantity),
            price: Number(r.price_cents) / 100,
            orderDate: iso(r.order_date)!
        }));
    }
}
