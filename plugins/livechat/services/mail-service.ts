import Joi from 'joi';
import nodemailer, { Transporter } from 'nodemailer';
import type { Config } from '../../../config';
import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import { EmailOutboxModel } from '../models';

export interface Email {
    organizationId: number | null;
    to: string;
    subject: string;
    text: string;
    /** Where an answer to this mail goes (a reply to a left message: the store's address). */
    replyTo?: string | null;
}

/** One email of the outbox as `loyalty-chat mail` prints it. */
export type OutboxEntry = {
    id: number;
    organizationId: number | null;
    to: string;
    replyTo: string | null;
    subject: string;
    body: string;
    transport: string;
    status: string;
    error: string | null;
    createdAt: string | null;
};

export interface OutboxFilter {
    to?: string;
    /** At most this many (100 unless given). */
    limit?: number;
}

/** Which emails to list (the `loyalty-chat mail` options): validated once, by the caller, before list(). */
export const outboxFilter = Joi.object<OutboxFilter>({
    to: Joi.string().trim().max(320),
    limit: Joi.number().integer().min(1).max(1000)
        .messages({ '*': '--limit must be a whole number from 1 to 1000' })
});

export interface MailServiceDeps {
    db: Db;
    /** MAIL_TRANSPORT, SMTP_URL, MAIL_FROM. */
    mail: Config['mail'];
}

/**
 * Outgoing email (DESIGN §3): `outbox` keeps each message in email_outbox (read with `loyalty-chat mail`);
 * `smtp` sends it with nodemailer to SMTP_URL and records it there as sent or failed.
 */
export class MailService {
    private transporter: Transporter | null = null;

    constructor(private readonly deps: MailServiceDeps) {}

    get transport(): 'outbox' | 'smtp' {
        return this.deps.mail.transport;
    }

    private smtp(): Transporter {
        if (!this.transporter) {
            if (!this.deps.mail.smtpUrl) {
                throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL');
            }
            this.transporter = nodemailer.createTransport(this.deps.mail.smtpUrl);
        }
        return this.transporter;
    }

    /** Sends (or stores) one email; throws when SMTP refuses it, after recording the failure. */
    async send(email: Email): Promise<OutboxEntry> {
        let status = 'stored';
        let error: string | null = null;
        if (this.transport === 'smtp') {
            try {
                await this.smtp().sendMail({
                    from: this.deps.mail.from, to: email.to, subject: email.subject, text: email.text,
                    ...(email.replyTo ? { replyTo: email.replyTo } : {})
                });
                status = 'sent';
            }
            catch (err) {
                status = 'failed';
                error = (err as Error).message;
            }
        }
        const saved = await EmailOutboxModel.query(this.deps.db).insertAndFetch({
            organizationId: email.organizationId,
            toAddress: email.to,
            replyTo: email.replyTo ?? null,
            subject: email.subject,
            bodyText: email.text,
            bodyHtml: null,
            transport: this.transport,
            status,
            error
        });
        if (status === 'failed') {
            throw new Error(`Email could not be sent: ${error}`);
        }
        return toEntry(saved);
    }

    /** The outbox, newest first. */
    async list(filter: OutboxFilter = {}): Promise<OutboxEntry[]> {
        const query = EmailOutboxModel.query(this.deps.db).orderBy('id', 'desc').limit(filter.limit ?? 100);
        if (filter.to) {
            query.whereRaw('lower(to_address) = ?', [filter.to.toLowerCase()]);
        }
        return (await query).map(toEntry);
    }

    close(): void {
        this.transporter?.close();
    }
}

function toEntry(row: EmailOutboxModel): OutboxEntry {
    return {
        id: row.id,
        organizationId: row.organizationId,
        to: row.toAddress,
        replyTo: row.replyTo ?? null,
        subject: row.subject,
        body: row.bodyText,
        transport: row.transport,
        status: row.status,
        error: row.error,
        createdAt: iso(row.createdAt)
    };
}
