import nodemailer, { Transporter } from 'nodemailer';
import type { AppContext } from '../../../core/types';
import { iso, now } from '../../../core/db/base-model';
import { EmailOutboxModel } from '../models';

export interface Email {
    organizationId: number | null;
    to: string;
    subject: string;
    text: string;
}

export interface OutboxEntry {
    id: number;
    organizationId: number | null;
    to: string;
    subject: string;
    body: string;
    transport: string;
    status: string;
    error: string | null;
    createdAt: string | null;
}

/**
 * Outgoing email (DESIGN §3): `outbox` keeps each message in email_outbox (read with `loyalty-chat mail`);
 * `smtp` sends it with nodemailer to SMTP_URL and records it there as sent or failed.
 */
export class MailService {
    private transporter: Transporter | null = null;

    constructor(private readonly app: Pick<AppContext, 'db' | 'config' | 'log'>) {}

    get transport(): 'outbox' | 'smtp' {
        return this.app.config.mail.transport;
    }

    private smtp(): Transporter {
        if (!this.transporter) {
            if (!this.app.config.mail.smtpUrl) {
                throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL');
            }
            this.transporter = nodemailer.createTransport(this.app.config.mail.smtpUrl);
        }
        return this.transporter;
    }

    /** Sends (or stores) one email; throws when SMTP refuses it, after recording the failure. */
    async send(email: Email): Promise<OutboxEntry> {
        const row = {
            organization_id: email.organizationId,
            to_address: email.to,
            subject: email.subject,
            body_text: email.text,
            body_html: null,
            transport: this.transport,
            status: 'stored',
            error: null as string | null,
            created_at: now()
        };
        if (this.transport === 'smtp') {
            try {
                await this.smtp().sendMail({ from: this.app.config.mail.from, to: email.to, subject: email.subject, text: email.text });
                row.status = 'sent';
            }
            catch (err) {
                row.status = 'failed';
                row.error = (err as Error).message;
            }
        }
        const saved = await EmailOutboxModel.query(this.app.db).insertAndFetch(row);
        if (row.status === 'failed') {
            throw new Error(`Email could not be sent: ${row.error}`);
        }
        return toEntry(saved);
    }

    async list(filter: { to?: string; limit?: number } = {}): Promise<OutboxEntry[]> {
        const query = EmailOutboxModel.query(this.app.db).orderBy('id', 'desc').limit(filter.limit ?? 100);
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
        organizationId: row.organization_id,
        to: row.to_address,
        subject: row.subject,
        body: row.body_text,
        transport: row.transport,
        status: row.status,
        error: row.error,
        createdAt: iso(row.created_at)
    };
}
