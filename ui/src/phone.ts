import { useCallback } from 'react';
import { formatPhone } from '../../core/shared/phone-display';
import { useAdminOrganization } from './api/console';
import { useT } from './i18n';

export { formatPhone };

/**
 * Phones on staff screens (issue 23), one way everywhere: national format for the store's country, international for
 * others (core/shared/phone-display.ts); the data stays E.164. `null` and SPEC's 'Unknown' give null.
 */
export function usePhoneFormat(): (phone: string | null | undefined) => string | null {
    const country = useAdminOrganization().data?.country ?? 'US';
    return useCallback((phone: string | null | undefined) => (phone && phone !== 'Unknown' ? formatPhone(phone, country) : null), [country]);
}

/**
 * How a customer is named on staff screens: the phone (formatted) when known, else the visitor label derived from
 * the widget session ("Visitor 4821"), so two unverified customers never look the same.
 */
export function useCustomerName(): (c: { phoneNumber: string | null; visitorNumber?: number }) => string {
    const phone = usePhoneFormat();
    const t = useT();
    return useCallback((c: { phoneNumber: string | null; visitorNumber?: number }) => phone(c.phoneNumber) ?? (c.visitorNumber ? t('chat.visitor', { n: String(c.visitorNumber) }) : t('chat.unknownCustomer')),
        [phone, t]);
}
