import type { CustomerError } from '../../../core/http/errors';

/** DESIGN §7: the one-time code rules. */
export const OTP = {
    digits: 6,
    ttlMs: 10 * 60 * 1000,
    maxChecksPerCode: 5,
    maxSendsPerPhone: 5,
    sendWindowMs: 10 * 60 * 1000,
    verifyPerIp: { points: 20, duration: 600 },
    viewPerIp: { points: 30, duration: 600 }
};

export const MESSAGES = {
    phoneRequired: 'Please enter your phone number',
    badPhone: 'Please enter a valid phone number',
    codeRequired: 'Please enter the 6-digit code',
    codeFormat: 'The code must be 6 digits',
    notFound: 'Phone number not found in our loyalty program',
    sent: 'A verification code has been sent to your phone.',
    tooManySends: 'Too many codes were requested for this phone number. Please try again in a few minutes.',
    tooManyIp: 'Too many attempts from your connection. Please try again in a few minutes.',
    noCode: 'No verification code was requested for this phone number. Please request a new code.',
    expired: 'This code has expired. Please request a new code.',
    used: 'This code has already been used. Please request a new code.',
    tooManyChecks: 'Too many incorrect codes. Please try again in a few minutes.',
    wrong: 'Invalid verification code',
    /** SPEC §8's connection texts, for a provider that is down, too slow or refuses our key (503/502). */
    providerDown: "Sorry, I'm having trouble connecting. Please try again.",
    providerDownOnCode: "Sorry, I'm having trouble verifying the code. Please try again.",
    smsFailed: 'We could not send the text message. Please try again later.'
};

/**
 * The stable code of each message a customer may read (issue 27): the widget shows its catalogue's text for it
 * (`error.<code>`), in the customer's language; the English message stays beside it.
 */
export const CODES = {
    phoneRequired: 'loyalty.phone_required',
    badPhone: 'loyalty.invalid_phone',
    codeRequired: 'loyalty.code_required',
    codeFormat: 'loyalty.code_format',
    notFound: 'loyalty.not_found',
    tooManySends: 'loyalty.too_many_codes',
    tooManyIp: 'loyalty.too_many_attempts',
    noCode: 'loyalty.no_code',
    expired: 'loyalty.code_expired',
    used: 'loyalty.code_used',
    tooManyChecks: 'loyalty.too_many_checks',
    wrong: 'loyalty.invalid_code',
    providerDown: 'loyalty.provider_unavailable',
    providerDownOnCode: 'loyalty.provider_unavailable',
    smsFailed: 'loyalty.sms_failed'
} as const;

/** A message with its code. */
export function customerError(kind: keyof typeof CODES): CustomerError {
    return { code: CODES[kind], message: MESSAGES[kind] };
}

