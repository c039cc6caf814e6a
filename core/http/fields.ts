import Joi from 'joi';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * One joi schema per field that several routes share, so a rule is written once (the widget builds its ids
 * and phone input to the same rules).
 */

/** The largest value of the integer id and foreign-key columns (PostgreSQL `integer`). */
export const MAX_ID = 2147483647;

/** The widget's session id (SPEC §3: a prefix, the current time and a random string), e.g. widget_1700000000000_k3j9x2. */
export const WIDGET_SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A phone number as a customer types it: 4 to 30 digits, spaces, dots, dashes and parentheses, an optional leading +. */
export const PHONE = /^\+?[0-9() .-]{4,30}$/;

/** A live chat's id: the widget session's id, or for a later chat of that widget session the id with the server's ~N. */
export const CHAT_SESSION_ID = /^[A-Za-z0-9_-]{1,100}(~[1-9][0-9]{0,5})?$/;

export const fields = {
    /** A row id or foreign key: a positive integer within the column's range. */
    id: Joi.number().integer().positive().max(MAX_ID),
    widgetSessionId: Joi.string().trim().pattern(WIDGET_SESSION_ID)
        .messages({ 'string.pattern.base': '{{#label}} must be 1 to 100 letters, digits, _ or -' }),
    chatSessionId: Joi.string().trim().pattern(CHAT_SESSION_ID)
        .messages({ 'string.pattern.base': '{{#label}} must be a chat session id (letters, digits, _ or -, and an optional ~N)' }),
    /**
     * A phone number as typed (the loyalty identifier, an analytics event's phone, a live chat's phone). Its
     * E.164 form is the service's to find (libphonenumber-js), which also refuses a number no country has.
     */
    phone: Joi.string().trim().max(30).pattern(PHONE)
        .messages({ 'string.pattern.base': '{{#label}} must be a phone number' }),
    /** A host name, lowercased: an organization's domain, the page an analytics event came from. */
    domain: Joi.string().trim().lowercase().hostname().max(253)
        .messages({ 'string.hostname': '{{#label}} must be a host name' })
};

/** The E.164 form of a phone number as typed (US when it names no country), or null when no country has such a number. */
export function e164(text: string): string | null {
    const parsed = parsePhoneNumberFromString(text.trim(), 'US');
    return parsed && parsed.isPossible() ? parsed.number : null;
}

/** A phone for a log line (DESIGN §10: logs carry phones masked): its last 4 digits only, e.g. "***0100". */
export function maskPhone(phone: string | null | undefined): string | null {
    if (!phone) {
        return null;
    }
    const digits = phone.replace(/\D/g, '');
    return `***${digits.slice(-4)}`;
}
