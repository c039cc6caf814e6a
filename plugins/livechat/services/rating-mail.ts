import type { Db } from '../../../core/db';
import type { Services } from '../../../core/types';
import { LinkClaims, signLinkToken, verifyLinkToken } from '../../../core/auth/link-token';
import type { MailService } from './mail-service';
import { ratingLinkMail } from '../texts';

/** The job that mails the link to rate a chat (one per chat: its job id, and rating_mailed_at). */
export const RATING_MAIL_JOB = 'livechat.rating-mail';
/** The link token's purpose: it opens the rate page of one chat, nothing else. */
export const RATE_SCOPE = 'rate';

export interface RatingMailDeps {
    db: Db;
    mail: Pick<MailService, 'send'>;
    tenants: Pick<Services['tenants'], 'getOrganization'>;
    /** JWT_SECRET: the link's token is signed with the server's key (core/auth/link-token.ts). */
    secret: string;
    /** RATING_LINK_DAYS in seconds: how long the link opens the rate page. */
    linkSeconds: number;
    /** PUBLIC_URL, else the server's own address: where the link points. */
    baseUrl(): string;
}

/** What decides whether an ended chat's customer is asked by mail (read before the chat was ended). */
export interface EndedChatFacts {
    status: string;
    kind: string;
    customerEmail: string | null;
    /** customer-presence's mark: set while no widget of the chat is connected (on any node). */
    customerGoneAt: number | null;
}

/**
 * The mail with a link to rate a chat (issue 28): a customer who gave an email in the chat (and only then), whose
 * widget was not connected when a chat an agent had joined ended (closed before the end, or abandoned), is asked by
 * mail instead of by the widget — once per chat, at the address they gave, in the chat's language, with a signed link
 * (scope 'rate', organization + chat, RATING_LINK_DAYS) to `/rate/<token>`, where the rating service records it.
 */
export class RatingMail {
    constructor(private readonly deps: RatingMailDeps) {}

    /** Whether a chat that just ended with `status` asks its customer by mail (the widget would ask one still connected). */
    static asks(before: EndedChatFacts, status: string): boolean {
        return status === 'completed' && before.kind !== 'left_message' && !!before.customerEmail && before.customerGoneAt !== null;
    }

    token(organizationId: number, sessionId: string, now = Date.now()): string {
        return signLinkToken(this.deps.secret, { scope: RATE_SCOPE, organizationId, subject: sessionId }, this.deps.linkSeconds, now);
    }

    /** The chat a link's token names; throws LinkTokenError (expired, invalid). */
    verify(token: string): LinkClaims {
        return verifyLinkToken(this.deps.secret, token, RATE_SCOPE, this.deps.linkSeconds);
    }

    /**
     * The job: mails the link unless the chat has no address, is still open, was rated already or was mailed already
     * (rating_mailed_at, claimed by a conditional update, so two nodes or a retried job never mail twice). A mail that
     * fails releases the claim and throws (the queue's retry tries again). Answers whether it mailed.
     */
    async send(organizationId: number, sessionId: string): Promise<boolean> {
        const { db } = this.deps;
        const chat = await db('chat_sessions').where({ organization_id: organizationId, session_id: sessionId })
            .first('id', 'status', 'kind', 'customer_email', 'lang') as { id: number; status: string; kind: string; customer_email: string | null; lang: string | null } | undefined;
        if (!chat || !chat.customer_email || chat.status !== 'completed' || chat.kind === 'left_message') {
            return false;
        }
        if (await db('chat_ratings').where('chat_session_id', chat.id).first('id')) {
            return false;
        }
        const claimed = await db('chat_sessions').where('id', chat.id).whereNull('rating_mailed_at').update({ rating_mailed_at: Date.now() });
        if (!claimed) {
            return false;
        }
        try {
            const org = await this.deps.tenants.getOrganization(organizationId);
            const url = `${this.deps.baseUrl().replace(/\/+$/, '')}/rate/${this.token(organizationId, sessionId)}`;
            const days = Math.max(1, Math.round(this.deps.linkSeconds / 86400));
            const mail = ratingLinkMail(chat.lang, { store: org?.storeName ?? '', url, days });
            await this.deps.mail.send({ organizationId, to: chat.customer_email, ...mail });
        }
        catch {
            await db('chat_sessions').where('id', chat.id).update({ rating_mailed_at: null });
            // The outbox row keeps SMTP's answer; the job's error (logged) names no address.
            throw new Error(`The rating mail of chat ${sessionId} could not be sent`);
        }
        return true;
    }
}
