import Joi from 'joi';
import type { Logger } from 'pino';
import { fields, maskPhone } from '../../../core/http/fields';
import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import { SmsOutboxModel } from '../models';

export interface SmsMessage {
    organizationId: number | null;
    to: string;
    body: string;
}

/** A stored text message as `loyalty-chat outbox` lists it (a type, so it prints as a plain row). */
export type OutboxEntry = {
    id: number;
    organizationId: number | null;
    to: string;
    body: string;
    provider: string;
    status: string;
    error: string | null;
    createdAt: string | null;
};

/** `loyalty-chat outbox [--phone P] [--limit N]`. */
export interface OutboxQuery {
    phone?: string;
    limit?: number;
}

const LIMIT_MESSAGE = '--limit must be a whole number from 1 to 1000';

/** What `loyalty-chat outbox` may ask for, validated by the command before it asks the service. */
export const outboxQuery = Joi.object<OutboxQuery>({
    phone: fields.phone.label('--phone'),
    limit: Joi.number().integer().min(1).max(1000).default(20)
        .messages({ 'number.base': LIMIT_MESSAGE, 'number.integer': LIMIT_MESSAGE, 'number.min': LIMIT_MESSAGE, 'number.max': LIMIT_MESSAGE, 'number.unsafe': LIMIT_MESSAGE })
});

/** Sends one text message. Throws when the message could not be handed over. */
export interface SmsSender {
    readonly name: 'outbox' | 'twilio';
    send(message: SmsMessage): Promise<void>;
}

export class SmsError extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'SmsError';
    }
}

function record(db: Db, message: SmsMessage, provider: string, status: string, error: string | null, ref: string | null) {
    return SmsOutboxModel.query(db).insert({ organizationId: message.organizationId, toPhone: message.to, body: message.body, provider, status, error, providerRef: ref });
}

/**
 * The default outside production (DESIGN §3): the message is stored, readable with `loyalty-chat outbox`. Its
 * body holds a one-time code, so the log line carries it only with `logBody` (NODE_ENV=development, where the
 * README's demo flow reads the code from the log); elsewhere the log says only that a message was stored.
 */
export class OutboxSmsSender implements SmsSender {
    readonly name = 'outbox' as const;

    constructor(private readonly db: Db, private readonly log: Logger, private readonly options: { logBody?: boolean } = {}) {}

    async send(message: SmsMessage): Promise<void> {
        await record(this.db, message, 'outbox', 'stored', null, null);
        if (this.options.logBody) {
            this.log.info({ to: maskPhone(message.to), body: message.body }, 'sms stored in outbox (development: body logged)');
        }
        else {
            this.log.info({ to: maskPhone(message.to) }, 'sms stored in outbox (read it with: loyalty-chat outbox)');
        }
    }
}

export interface TwilioSettings {
    accountSid: string | null;
    authToken: string | null;
    from: string | null;
    baseUrl: string;
}

/** Twilio's Messages API (form-encoded POST, basic auth); the attempt is recorded in the outbox table too. */
export class TwilioSmsSender implements SmsSender {
    readonly name = 'twilio' as const;

    constructor(private readonly db: Db, private readonly settings: TwilioSettings, private readonly log: Logger, private readonly timeoutMs = 8000) {}

    async send(message: SmsMessage): Promise<void> {
        const { accountSid, authToken, from, baseUrl } = this.settings;
        if (!accountSid || !authToken || !from) {
            await record(this.db, message, 'twilio', 'failed', 'not configured', null);
            throw new SmsError('The SMS provider is not configured');
        }
        const url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
        let error: string | null = null;
        let ref: string | null = null;
        try {
            const response = await fetch(url, {
                method: 'POST',
                headers: {
                    authorization: 'Basic ' + Buffer.from(`${accountSid}:${authToken}`).toString('base64'),
                    'content-type': 'application/x-www-form-urlencoded'
                },
                body: new URLSearchParams({ To: message.to, From: from, Body: message.body }).toString(),
                signal: AbortSignal.timeout(this.timeoutMs)
            });
            const text = await response.text();
            if (!response.ok) {
                error = `HTTP ${response.status}: ${text.slice(0, 300)}`;
            }
            else {
                try {
                    ref = JSON.parse(text).sid ?? null;
                }
                catch { /* no sid */ }
            }
        }
        catch (err) {
            error = (err as Error).message;
        }
        await record(this.db, message, 'twilio', error ? 'failed' : 'sent', error, ref);
        if (error) {
            // Not the provider's answer: it may quote the message, and so the code.
            this.log.warn({ to: maskPhone(message.to), error: error.startsWith('HTTP ') ? error.slice(0, error.indexOf(':')) : error }, 'sms send failed');
            throw new SmsError('The text message could not be sent');
        }
    }
}

export async function listOutbox(db: Db, filter: { phone?: string; organizationId?: number; limit?: number } = {}): Promise<OutboxEntry[]> {
    const query = SmsOutboxModel.query(db).orderBy('id', 'desc').limit(filter.limit ?? 100);
    if (filter.phone) {
        query.where('to_phone', filter.phone);
    }
    if (filter.organizationId !== undefined) {
        query.where('organization_id', filter.organizationId);
    }
    return (await query).map((r) => ({
        id: r.id, organizationId: r.organizationId, to: r.toPhone, body: r.body, provider: r.provider,
        status: r.status, error: r.error, createdAt: iso(r.createdAt)
    }));
}
