import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/**
 * One way to show a phone on every staff screen (issue 23): stored phones are E.164 (DESIGN §8); staff read a
 * number of the store's own country (organizations.country) in its national format ("(555) 555-0100" in a US store,
 * "612 34 56 78" in a Spanish one) and any other in international format ("+34 612 34 56 78"). Anything that does
 * not parse (SPEC's 'Unknown', free text from before the phones-only migrations) is answered as it is, and
 * nothing at all is null. The admin app (console lists and panel, analytics) calls this; the data stays E.164.
 */
export function formatPhone(phone: string | null | undefined, storeCountry: string | null | undefined): string | null {
    const text = phone?.trim();
    if (!text) {
        return null;
    }
    if (!text.startsWith('+')) {
        return text;
    }
    const parsed = parsePhoneNumberFromString(text);
    if (!parsed) {
        return text;
    }
    const country = (storeCountry || 'US').toUpperCase() as CountryCode;
    let callingCode: string | null = null;
    try {
        callingCode = getCountryCallingCode(country);
    }
    catch {
        callingCode = null;     // not a country libphonenumber knows: international format
    }
    // The country's own numbers by calling code: fictional numbers (+1 555 …) have no region, but a US store reads them nationally.
    const own = parsed.country ? parsed.country === country : parsed.countryCallingCode === callingCode;
    return own ? parsed.formatNational() : parsed.formatInternational();
}
