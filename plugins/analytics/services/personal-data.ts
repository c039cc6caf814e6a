import type { Db } from '../../../core/db';
import { deleteOlder, RetentionCutoffs, sessionsByPhone, tableHolder } from '../../../core/privacy/personal-data';

/**
 * What analytics keeps about a customer (issue 25): their events (by phone, or in the widget sessions tied to them)
 * and the per-phone rollups (the Phones list and its cached loyalty lookup). The daily and hourly rollups count
 * events by day, domain and action, with no phone and no session: they name nobody and stay.
 */
export const analyticsPersonalData = {
    ...tableHolder('analytics', {
        analytics_events: { phone: 'phone_number', session: 'session_id' },
        analytics_phone_daily: { phone: 'phone_number' },
        analytics_phones: { phone: 'phone_number' }
    }, {
        sessionsOf: (person, db) => sessionsByPhone(db, 'analytics_events', { phone: 'phone_number', session: 'session_id' }, person)
    }),
    /**
     * A store's own window over the events and the per-phone rollups (ANALYTICS_RETENTION_DAYS stays the server's
     * ceiling for every store); the anonymous daily and hourly counts stay, as they do after the server's prune.
     */
    async retain(organizationId: number, cutoffs: RetentionCutoffs, db: Db) {
        const cutoff = cutoffs.analytics;
        return {
            analytics_events: await deleteOlder(db, 'analytics_events', 'created_at', organizationId, cutoff),
            analytics_phones: await deleteOlder(db, 'analytics_phones', 'last_activity', organizationId, cutoff),
            analytics_phone_daily: cutoff === undefined ? 0
                : await db('analytics_phone_daily').where('organization_id', organizationId).where('day', '<', new Date(cutoff).toISOString().slice(0, 10)).delete()
        };
    }
};
