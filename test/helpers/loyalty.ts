import type { Server } from '@hapi/hapi';
import { parseCustomersCsv } from '../../plugins/loyalty';

/** Inserts loyalty customers for an organization through the CSV import (phone,name,email,loyaltyId,points). */
export async function importCustomers(server: Server, organizationId: number, rows: Array<[string, string, string, string, number]>): Promise<void> {
    const csv = ['phone,name,email,loyaltyId,points', ...rows.map((r) => r.join(','))].join('\n');
    await server.app.services.loyalty.importCustomers(organizationId, parseCustomersCsv(csv));
}

/** The 6-digit code of the newest text message to a phone in the SMS outbox. */
export async function lastCode(server: Server, phone: string): Promise<string> {
    const [latest] = await server.app.services.loyalty.listOutbox({ phone, limit: 1 });
    const match = latest?.body.match(/\b(\d{6})\b/);
    if (!match) {
        throw new Error(`No code sent to ${phone}`);
    }
    return match[1];
}
