import type { Db } from '../../../core/db';
import type { ExternalRecord } from '../../../core/types/api';
import { chunks, deleteOlder, RetentionCutoffs, Person, PersonalDataHolder, PersonScope, plainRows, rowsOfPerson, sessionsByPhone, tableHolder } from '../../../core/privacy/personal-data';

/**
 * What loyalty keeps about a customer (issue 25): the store's member record and orders (the built-in provider's
 * tables), the phone verifications and the widget sessions they verified, and the SMS sent to the phone. With an
 * outside provider (Alpine IQ) the member record lives in the store's account there: the export names it, and what
 * the store must do there.
 */
const flat = tableHolder('loyalty', {
    verification_codes: { phone: 'phone', session: 'session_id' },
    widget_sessions: { phone: 'verified_phone', session: 'session_id' },
    sms_outbox: { phone: 'to_phone' }
});

const members = (db: Db, scope: PersonScope) => rowsOfPerson(db, 'loyalty_customers', { phone: 'phone', email: 'email' }, scope);

async function ordersOf(db: Db, customerIds: number[]): Promise<unknown[]> {
    const rows = [];
    for (const part of chunks(customerIds)) {
        rows.push(...await db('loyalty_orders').whereIn('customer_id', part).orderBy('order_date'));
    }
    return rows;
}

export function loyaltyPersonalData(providerName: (organizationId: number) => Promise<string>,
    /** Forgets the cached copy of the provider's answer about a phone. */
    forget: (organizationId: number, phone: string) => Promise<void>): PersonalDataHolder {
    return {
        plugin: 'loyalty',
        tables: ['loyalty_customers', 'loyalty_orders', ...flat.tables],

        async sessionsOf(person: Person, db: Db): Promise<string[]> {
            const [verified, asked] = await Promise.all([
                sessionsByPhone(db, 'widget_sessions', { phone: 'verified_phone', session: 'session_id' }, person),
                sessionsByPhone(db, 'verification_codes', { phone: 'phone', session: 'session_id' }, person)
            ]);
            return [...verified, ...asked];
        },

        async export(scope, db) {
            const customers = await members(db, scope).select('*');
            const rest = await flat.export(scope, db);
            return {
                loyalty_customers: plainRows(customers),
                loyalty_orders: plainRows(await ordersOf(db, customers.map((c: { id: number }) => c.id))),
                ...rest,
                // The code itself is a hash of a number that expired long ago: it says nothing about the person.
                verification_codes: (rest.verification_codes as Record<string, unknown>[]).map(({ code_hash: _hash, ...row }) => row)
            };
        },

        async erase(scope, db) {
            const ids = (await members(db, scope).select('id')).map((c: { id: number }) => c.id);
            let orders = 0;
            let customers = 0;
            for (const part of chunks(ids)) {
                orders += await db('loyalty_orders').whereIn('customer_id', part).delete();
                customers += await db('loyalty_customers').whereIn('id', part).delete();
            }
            return { loyalty_customers: customers, loyalty_orders: orders, ...await flat.erase(scope, db) };
        },

        /** Verifications, the widget visits they proved and the SMS sent: the 'verifications' window (members stay). */
        async retain(organizationId: number, cutoffs: RetentionCutoffs, db: Db) {
            return {
                verification_codes: await deleteOlder(db, 'verification_codes', 'created_at', organizationId, cutoffs.verifications),
                widget_sessions: await deleteOlder(db, 'widget_sessions', 'last_seen_at', organizationId, cutoffs.verifications),
                sms_outbox: await deleteOlder(db, 'sms_outbox', 'created_at', organizationId, cutoffs.verifications)
            };
        },

        /** The provider's answer about the phone, cached for LOYALTY_CACHE_SECONDS (outside the transaction). */
        async afterErase(scope) {
            if (scope.phone) {
                await forget(scope.organizationId, scope.phone);
            }
        },

        async external(scope): Promise<ExternalRecord[]> {
            const provider = await providerName(scope.organizationId);
            return provider === 'builtin' || !scope.phone ? [] : [{
                holder: provider === 'alpineiq' ? 'Alpine IQ (the store\'s loyalty account)' : provider,
                what: 'the loyalty member record (name, email, points, orders) of this phone number',
                action: 'This product reads it but cannot change it: export or erase it in the provider\'s own account.'
            }];
        }
    };
}
