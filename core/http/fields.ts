import Joi from 'joi';

/**
 * One joi schema per field that several routes share, so a rule is written once (the widget builds its ids
 * and phone input to the same rules).
 */

/** The largest value of the integer id and foreign-key columns (PostgreSQL `integer`). */
export const MAX_ID = 2147483647;

/** The widget's session id (SPEC §3: a prefix, the current time and a random string), e.g. widget_1700000000000_k3j9x2. */
export const WIDGET_SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A live chat's id: the widget session's id, or for a later chat of that widget session the id with the server's ~N. */
export const CHAT_SESSION_ID = /^[A-Za-z0-9_-]{1,100}(~[1-9][0-9]{0,5})?$/;

export const fields = {
    /** A row id or foreign key: a positive integer within the column's range. */
    id: Joi.number().integer().positive().max(MAX_ID),
    widgetSessionId: Joi.string().trim().pattern(WIDGET_SESSION_ID)
        .messages({ 'string.pattern.base': '{{#label}} must be 1 to 100 letters, digits, _ or -' }),
    chatSessionId: Joi.string().trim().pattern(CHAT_SESSION_ID)
        .messages({ 'string.pattern.base': '{{#label}} must be a chat session id (letters, digits, _ or -, and an optional ~N)' })
};
