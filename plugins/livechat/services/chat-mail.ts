import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import type { Services } from '../../../core/types';
import { zonedDateTime, zonedStamp } from '../../../core/shared/zoned-time';
import { EmailSettingsModel } from '../models';
import type { MailService } from './mail-service';
import { transcriptMail } from '../texts';
import type { ChatSession, EmailSettings } from '../../../core/types/api';

/** organizations.time_zone's default (DESIGN §5), for a store the tenants service no longer knows. */
const DEFAULT_STORE_ZONE = 'America/New_York';

export interface ChatMailDeps {
    db: Db;
    mail: Pick<MailService, 'send'>;
    tenants: Pick<Services['tenants'], 'getOrganization' | 'timeZoneOf'>;
    users: Pick<Services['users'], 'list'>;
    /** PUBLIC_URL: the transcript links the conversation in the console (issue 29). */
    publicUrl?: string | null;
    /** A chat with its messages (the transcript's content). */
    chatWithMessages(organizationId: number, sessionId: string): Promise<ChatSession>;
}

/**
 * The store's live chat mail (SPEC §9): where transcripts and left messages go (the email settings, by default the
 * store's first admin), the test email, and the transcript of a chat, in the store's language and zone.
 */
export class ChatMail {
    constructor(private readonly deps: ChatMailDeps) {}

    /** SPEC §9: a company contact address by default: the organization's first admin, else support@{domain}. */
    async defaultRecipient(organizationId: number): Promise<string> {
        const users = await this.deps.users.list({ organizationId });
        const admin = users.filter((u) => u.role === 'admin' && u.isActive).sort((a, b) => a.id - b.id)[0];
        if (admin) {
            return admin.email;
        }
        const org = await this.deps.tenants.getOrganization(organizationId);
        return `support@${org?.domain ?? 'localhost'}`;
    }

    async settings(organizationId: number): Promise<EmailSettings> {
        const row = await EmailSettingsModel.query(this.deps.db).findById(organizationId);
        return {
            emailNotificationsEnabled: row?.emailNotificationsEnabled ?? false,
            emailRecipient: row?.emailRecipient || await this.defaultRecipient(organizationId)
        };
    }

    async setSettings(organizationId: number, input: { emailNotificationsEnabled: boolean; emailRecipient?: string | null }): Promise<EmailSettings> {
        await EmailSettingsModel.query(this.deps.db)
            .insert({ organizationId, emailNotificationsEnabled: input.emailNotificationsEnabled, emailRecipient: input.emailRecipient?.trim() || null })
            .onConflict('organization_id')
            .merge(['email_notifications_enabled', 'email_recipient', 'updated_at']);
        return this.settings(organizationId);
    }

    /**
     * Where the test email may go (issue 25): the saved (or default) transcript recipient, only when it is the
     * address of an active admin of this organization; anything else is a 400, so the button cannot mail
     * strangers. (Transcripts and left messages still go to whatever recipient the store saved.)
     */
    async testRecipient(organizationId: number): Promise<string> {
        const settings = await this.settings(organizationId);
        const recipient = settings.emailRecipient.trim().toLowerCase();
        const admins = (await this.deps.users.list({ organizationId })).filter((u) => u.role === 'admin' && u.isActive);
        if (!admins.some((u) => u.email.trim().toLowerCase() === recipient)) {
            throw Boom.badRequest('The test email goes only to an admin of this store: save the email address of one of its admins as the recipient, then test again.');
        }
        return settings.emailRecipient;
    }

    async sendTest(organizationId: number): Promise<{ message: string; to: string }> {
        const to = await this.testRecipient(organizationId);
        const org = await this.deps.tenants.getOrganization(organizationId);
        await this.deps.mail.send({
            organizationId,
            to,
            subject: `Test email from ${org?.storeName ?? 'loyalty-chat'} live chat`,
            text: 'This is a test of your live chat transcript emails. If you can read this, transcripts will reach this address.'
        });
        return { message: `Test email sent to ${to}`, to };
    }

    /** The transcript job: one email with every message of the session, as plain text. */
    async sendTranscript(organizationId: number, sessionId: string): Promise<void> {
        const session = await this.deps.chatWithMessages(organizationId, sessionId);
        const settings = await this.settings(organizationId);
        const [org, zone] = await Promise.all([this.deps.tenants.getOrganization(organizationId), this.deps.tenants.timeZoneOf(organizationId)]);
        // Times in the store's zone, named (DESIGN §10 'Times'); each message line carries the local time only.
        const timeZone = zone ?? DEFAULT_STORE_ZONE;
        const at = (iso: string | null | undefined) => (iso ? zonedStamp(iso, timeZone) : '-');
        // In the store's default language (DESIGN §10), whatever the customer's.
        const mail = transcriptMail(org?.languages.default, {
            store: org?.storeName ?? '', sessionId: session.sessionId, phone: session.phoneNumber, visitorNumber: session.visitorNumber,
            started: at(session.createdAt), accepted: at(session.acceptedAt), ended: at(session.endedAt), reason: session.endReason ?? session.status,
            zone: timeZone,
            messages: (session.messages ?? []).map((m) => ({
                time: m.timestamp ? zonedDateTime(m.timestamp, timeZone) : '-',
                sender: m.sender === 'customer' || m.sender === 'agent' ? m.sender : 'system', text: m.message,
                files: (m.attachments ?? []).map((f) => f.name)
            })),
            // Files are never linked in a mail (DESIGN §10): the conversation in the console is, behind the login.
            conversationUrl: `${this.deps.publicUrl ?? ''}/admin-chat/history?session=${encodeURIComponent(session.sessionId)}`
        });
        await this.deps.mail.send({ organizationId, to: settings.emailRecipient, ...mail });
    }
}
