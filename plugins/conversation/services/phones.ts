import { CountryCode, findNumbers, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * Phone numbers and one-time codes inside a customer's message (DESIGN §8: only parsed, valid numbers are phones;
 * DESIGN §10: libphonenumber stays on the server). A number written without its country code is read in the store's
 * country. "Valid" is libphonenumber's possible-number check (a country code it knows and a length that country
 * uses): stricter range checks would refuse the fictional 555 numbers that stores and this project's demo use.
 */
export interface FoundPhone {
    /** E.164, e.g. +15555550100. */
    number: string;
    start: number;
    end: number;
}

export function countryOrDefault(country: string | null | undefined): CountryCode {
    const upper = String(country ?? '').toUpperCase();
    return isSupportedCountry(upper) ? upper as CountryCode : 'US';
}

/** The first phone number in a text ("my number is 555-555-0100, how many points?"), or null. */
export function findPhone(text: string, country: string | null | undefined): FoundPhone | null {
    const defaultCountry = countryOrDefault(country);
    // `leniency` is a documented option of findNumbers that its typings leave out; 'POSSIBLE' matches the check below.
    const options = { defaultCountry, v2: true as const, leniency: 'POSSIBLE' };
    for (const found of findNumbers(text, options)) {
        if (found.number.isPossible()) {
            return { number: found.number.number, start: found.startsAt, end: found.endsAt };
        }
    }
    // A number glued to words ("tel:5555550100pls") that the finder's word boundaries skip.
    const glued = /\+?\d[\d ().-]{5,18}\d/.exec(text);
    if (glued) {
        const parsed = parsePhoneNumberFromString(glued[0], defaultCountry);
        if (parsed && parsed.isPossible()) {
            return { number: parsed.number, start: glued.index, end: glued.index + glued[0].length };
        }
    }
    return null;
}

/** The E.164 form of a number as typed, or null when it is not a phone number (free text, too short, no such country code). */
export function e164In(country: string | null | undefined, text: string | null | undefined): string | null {
    if (!text || !/\d/.test(text)) {
        return null;
    }
    const parsed = parsePhoneNumberFromString(text.trim(), countryOrDefault(country));
    return parsed && parsed.isPossible() ? parsed.number : null;
}

/** Six digits standing alone ("123456", "123 456", "my code is 123-456."), without the separators; or null. */
export function findCode(text: string): string | null {
    const match = /(?<!\d[ .-]?)\d(?:[ .-]?\d){5}(?![ .-]?\d)/.exec(text);
    return match ? match[0].replace(/\D/g, '') : null;
}

/** How many digits a text holds. */
export function digitCount(text: string): number {
    return text.replace(/\D/g, '').length;
}
