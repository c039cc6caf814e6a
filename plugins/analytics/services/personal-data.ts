import { sessionsByPhone, tableHolder } from '../../../core/privacy/personal-data';

/**
 * What analytics keeps about a customer (issue 25): their events (by phone, or in the widget sessions tied to them)
 * and the per-phone rollups (the Phones list and its cached loyalty lookup). The daily and hourly rollups count
 * events by day, domain and action, with no phone and no session: they name nobody and stay.
 */
export const analyticsPersonalData = tableHolder('analytics', {
    analytics_events: { phone: 'phone_number', session: 'session_id' },
    analytics_phone_daily: { phone: 'phone_number' },
    analytics_phones: { phone: 'phone_number' }
}, {
    sessionsOf: (person, db) => sessionsByPhone(db, 'analytics_events', { phone: 'phone_number', session: 'session_id' }, person)
});
