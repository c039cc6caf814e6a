import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Request, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import { allow, PUBLIC } from '../../../core/http/access';
import { fields } from '../../../core/http/fields';
import { callerOf } from '../../../core/http/callers';
import { withCodes } from '../../../core/http/errors';
import { contentSecurityPolicy } from '../../../core/http/security';
import { LinkTokenError } from '../../../core/auth/link-token';
import { matchLanguage, SHIPPED_LANGUAGES } from '../../../core/shared/languages';
import { LIVECHAT_ERRORS } from '../errors';
import { RATE_CSS, rateFormPage, rateMessagePage } from '../rate-page';
import type { RatingMail } from '../services/rating-mail';
import { ratePageTexts } from '../texts';

export const MAX_RATING_COMMENT = 1000;

/** A rating's body (issue 28): a score 1 to 5 and an optional comment of at most 1000 characters. */
export const ratingPayload = Joi.object({
    score: Joi.number().integer().min(1).max(5).required()
        .messages({ 'number.min': '"score" must be from 1 to 5', 'number.max': '"score" must be from 1 to 5', 'number.base': '"score" must be a number from 1 to 5' }),
    comment: Joi.string().trim().max(MAX_RATING_COMMENT).allow('', null)
        .messages({ 'string.max': `"comment" must be at most ${MAX_RATING_COMMENT} characters` })
}).required().unknown(false);

/** The customer's email in a live chat (issue 28): where the link to rate it goes if they leave before it ends. */
export const customerEmailPayload = Joi.object({
    email: withCodes(Joi.string().trim().lowercase().email({ tlds: false }).max(254).required()
        .messages({ 'string.email': LIVECHAT_ERRORS.invalidEmail.message }), { '*': LIVECHAT_ERRORS.invalidEmail.code })
}).required().unknown(false);

/** A link's token as it appears in the URL (a JWT: three base64url parts). */
const linkToken = Joi.string().max(2048).pattern(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/).required();

/** The rate page's form (form-encoded): a score 1 to 5 and an optional comment. */
const rateForm = Joi.object({
    score: Joi.number().integer().min(1).max(5).required(),
    comment: Joi.string().trim().max(MAX_RATING_COMMENT).allow('')
}).required().unknown(false);

/** An HTML page of ours: strict CSP, never cached (the URL holds the link's token), no referrer. */
function html(request: Request, h: ResponseToolkit, body: string, code: number) {
    return h.response(body).code(code).type('text/html; charset=utf-8')
        .header('content-security-policy', contentSecurityPolicy(request))
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer');
}

/** The reader's language where the link does not say (an expired or forged link): their browser's first choice. */
function browserLanguage(request: Request): string {
    const first = String(request.headers['accept-language'] ?? '').split(',')[0]?.split(';')[0];
    return matchLanguage(first, SHIPPED_LANGUAGES) ?? 'en';
}

export function ratingRoutes(server: Server, ratingMail: RatingMail): ServerRoute[] {
    /** What a link's token opens: its chat's store, language and whether it may still be rated; else the page to show. */
    async function open(request: Request, h: ResponseToolkit, token: string) {
        let claims;
        try {
            claims = ratingMail.verify(token);
        }
        catch (err) {
            const lang = browserLanguage(request);
            const m = ratePageTexts(lang);
            const expired = err instanceof LinkTokenError && err.reason === 'expired';
            return { ok: false as const, page: html(request, h, rateMessagePage({ lang, title: expired ? m.rateExpiredTitle() : m.rateInvalidTitle(),
                text: expired ? m.rateExpired() : m.rateInvalid() }), expired ? 410 : 404) };
        }
        const { livechat, tenants } = server.app.services;
        const chat = await livechat.getSession(claims.organizationId, claims.subject).catch(() => null);
        const org = chat ? await tenants.getOrganization(claims.organizationId) : null;
        if (!chat || !org || chat.kind === 'left_message') {
            // Erased since, or its store is gone: as good as a link that never was.
            const lang = browserLanguage(request);
            const m = ratePageTexts(lang);
            return { ok: false as const, page: html(request, h, rateMessagePage({ lang, title: m.rateInvalidTitle(), text: m.rateInvalid() }), 404) };
        }
        const lang = matchLanguage(chat.lang, SHIPPED_LANGUAGES) ?? 'en';
        const m = ratePageTexts(lang);
        const store = org.storeName;
        const already = () => html(request, h, rateMessagePage({ lang, store, title: m.rateAlreadyTitle(), text: m.rateAlready() }), 409);
        return { ok: true as const, claims, lang, m, store, already };
    }

    return [
        {
            method: 'PUT',
            path: '/api/chat/session/{sessionId}/email',
            options: {
                id: 'livechat.session.email',
                description: 'The customer gives an email in their open live chat (issue 28): the link to rate it is mailed there if their widget is closed when it ends',
                auth: allow('customer'),
                tags: ['widget'],
                validate: { params: Joi.object({ sessionId: fields.chatSessionId.required() }), payload: customerEmailPayload },
                handler: async (request) => {
                    const caller = callerOf(request);
                    const { sessionId } = request.params as { sessionId: string };
                    if (caller.kind !== 'customer' || caller.sessionId !== sessionId) {
                        throw Boom.notFound('Chat session not found');
                    }
                    const { email } = request.payload as { email: string };
                    await server.app.services.livechat.setCustomerEmail(caller.organizationId, sessionId, email);
                    return { sessionId, email };
                }
            }
        },
        {
            method: 'GET',
            path: '/rate.css',
            options: {
                id: 'livechat.rate-page.css',
                auth: PUBLIC,
                handler: (_request, h) => h.response(RATE_CSS).type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300')
            }
        },
        {
            method: 'GET',
            path: '/rate/{token}',
            options: {
                id: 'livechat.rate-page.get',
                description: 'The page of a mailed link to rate a chat (issue 28): the form, or why it cannot be rated',
                auth: PUBLIC,
                validate: {
                    params: Joi.object({ token: linkToken }),
                    failAction: async (request, h) => {
                        const lang = browserLanguage(request);
                        const m = ratePageTexts(lang);
                        return html(request, h, rateMessagePage({ lang, title: m.rateInvalidTitle(), text: m.rateInvalid() }), 404).takeover();
                    }
                },
                handler: async (request, h) => {
                    const opened = await open(request, h, (request.params as { token: string }).token);
                    if (!opened.ok) {
                        return opened.page;
                    }
                    const { claims, lang, m, store } = opened;
                    if (!await server.app.services.livechatRatings.rateable(claims.organizationId, claims.subject)) {
                        return opened.already();
                    }
                    return html(request, h, rateFormPage({ lang, texts: m, store, maxComment: MAX_RATING_COMMENT }), 200);
                }
            }
        },
        {
            method: 'POST',
            path: '/rate/{token}',
            options: {
                id: 'livechat.rate-page.send',
                description: 'The mailed link\'s form (form-encoded score and comment): the rating, with source mail (issue 28)',
                auth: PUBLIC,
                payload: { maxBytes: 16 * 1024, allow: ['application/x-www-form-urlencoded', 'application/json'] },
                validate: {
                    params: Joi.object({ token: linkToken }),
                    payload: rateForm,
                    failAction: async (request, h) => {
                        const token = (request.params as { token?: string }).token ?? '';
                        const opened = typeof token === 'string' && /^[A-Za-z0-9_.-]{1,2048}$/.test(token)
                            ? await open(request, h, token) : null;
                        if (!opened) {
                            const lang = browserLanguage(request);
                            const m = ratePageTexts(lang);
                            return html(request, h, rateMessagePage({ lang, title: m.rateInvalidTitle(), text: m.rateInvalid() }), 404).takeover();
                        }
                        if (!opened.ok) {
                            return opened.page.takeover();
                        }
                        // The form again, with what was wrong and what the customer had chosen and written.
                        const body = (request.payload ?? {}) as { score?: unknown; comment?: unknown };
                        const score = Number(body.score);
                        const comment = typeof body.comment === 'string' ? body.comment : '';
                        const { lang, m, store } = opened;
                        const error = comment.trim().length > MAX_RATING_COMMENT ? m.rateTooLong({ max: MAX_RATING_COMMENT }) : m.rateChoose();
                        return html(request, h, rateFormPage({ lang, texts: m, store, maxComment: MAX_RATING_COMMENT, error,
                            score: Number.isInteger(score) && score >= 1 && score <= 5 ? score : null, comment: comment.slice(0, MAX_RATING_COMMENT * 2) }), 400).takeover();
                    }
                },
                handler: async (request, h) => {
                    const opened = await open(request, h, (request.params as { token: string }).token);
                    if (!opened.ok) {
                        return opened.page;
                    }
                    const { claims, lang, m, store } = opened;
                    const body = request.payload as { score: number; comment?: string };
                    try {
                        await server.app.services.livechatRatings.rate(claims.organizationId, claims.subject, { score: body.score, comment: body.comment || null }, 'mail');
                    }
                    catch (err) {
                        if (Boom.isBoom(err) && (err.output.payload as { code?: string }).code === LIVECHAT_ERRORS.alreadyRated.code) {
                            return opened.already();
                        }
                        throw err;
                    }
                    return html(request, h, rateMessagePage({ lang, store, title: m.rateThanksTitle(), text: m.rateThanks({ store }) }), 201);
                }
            }
        },
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/rating',
            options: {
                id: 'livechat.session.rate',
                description: 'The customer rates their ended chat (issue 28): 201; a second rating 409; another chat\'s or store\'s 404',
                // The chat's own customer: the token the widget already sends to live chat routes (DESIGN §10).
                auth: allow('customer'),
                tags: ['widget'],
                validate: { params: Joi.object({ sessionId: fields.chatSessionId.required() }), payload: ratingPayload },
                handler: async (request, h) => {
                    const caller = callerOf(request);
                    const { sessionId } = request.params as { sessionId: string };
                    if (caller.kind !== 'customer' || caller.sessionId !== sessionId) {
                        return h.response({ statusCode: 404, error: 'Not Found', message: 'Chat session not found' }).code(404);
                    }
                    const body = request.payload as { score: number; comment?: string | null };
                    const rating = await server.app.services.livechatRatings.rate(caller.organizationId, sessionId, body, 'widget');
                    return h.response({ sessionId, ...rating, message: 'Thanks for your rating' }).code(201);
                }
            }
        }
    ];
}
