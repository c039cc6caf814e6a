import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import { LoyaltyCustomerModel } from '../models';
import type { LoyaltyCustomer, LoyaltyOrder, LoyaltyProvider } from './types';

/** The built-in provider: the loyalty_customers table and each customer's orders (filled by `customers import`). */
export class BuiltinLoyaltyProvider implements LoyaltyProvider {
    readonly name = 'builtin' as const;

    constructor(private readonly db: Db) {}

    private customer(organizationId: number, phone: string) {
        return LoyaltyCustomerModel.query(this.db).findOne({ organization_id: organizationId, phone });
    }

    async findCustomer(organizationId: number, phone: string): Promise<LoyaltyCustomer | null> {
        const row = await this.customer(organizationId, phone);
        return row ? { phone: row.phone, name: row.name, email: row.email, loyaltyId: row.loyaltyId, points: row.points } : null;
    }

    async orderHistory(organizationId: number, found: LoyaltyCustomer, limit: number): Promise<LoyaltyOrder[]> {
        const customer = await this.customer(organizationId, found.phone);
        if (!customer) {
            return [];
        }
        const orders = await customer.$relatedQuery('orders', this.db)
            .orderBy('order_date', 'desc')
            .orderBy('id', 'desc')
            .limit(limit);
        return orders.map((order) => ({
            orderRef: order.orderRef,
            productName: order.productName,
            quantity: order.quantity,
            price: order.priceCents / 100,
            orderDate: iso(order.orderDate)!
        }));
    }
}
