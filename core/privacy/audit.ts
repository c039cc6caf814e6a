import type { ReqRef, Request } from '@hapi/hapi';
import type { Logger } from 'pino';
import { clientIp } from '../http/client-ip';
import { personHash } from './personal-data';

/**
 * The audit trail (issue 25): who did what and when. Any plugin records through `server.app.audit.record`; the
 * privacy plugin plugs in the store (its append-only table). Before it does (or in a server built without it) the
 * entries only go to the log. An entry names the person an action was about by a hash, never by phone or email.
 */
export interface AuditEntry {
    /** The store the action was in (null: the platform, e.g. a super admin creating a store). */
    organizationId: number | null;
    actorUserId: number | null;
    actorRole: string | null;
    /** What was done, as `area.verb` (`auth.sign_in`, `customers.erase`, `knowledge.update`…). */
    action: string;
    /** What it was done to, as `kind:id` (`user:12`, `knowledge:5`), never personal data. */
    target?: string | null;
    /** The person it was about, hashed by `record`. */
    subject?: { phone?: string | null; email?: string | null } | null;
    /** A few facts without personal data (counts, changed field names). */
    details?: Record<string, string | number | boolean | null>;
    ip?: string | null;
}

export interface StoredAuditEntry extends Omit<AuditEntry, 'subject'> {
    subjectHash: string | null;
}

export type AuditSink = (entry: StoredAuditEntry) => Promise<void>;

export class AuditTrail {
    private sink: AuditSink | null = null;

    constructor(private readonly secret: string, private readonly log: Logger) {}

    plug(sink: AuditSink): void {
        this.sink = sink;
    }

    /** Stores the entry (an audit failure is logged, never thrown at the action it records). */
    async record(entry: AuditEntry): Promise<void> {
        const { subject, ...rest } = entry;
        const stored: StoredAuditEntry = { ...rest, subjectHash: subject ? personHash(this.secret, subject) : null };
        if (!this.sink) {
            this.log.info({ audit: stored }, 'audit');
            return;
        }
        try {
            await this.sink(stored);
        }
        catch (err) {
            this.log.error({ err, audit: { action: stored.action, organizationId: stored.organizationId } }, 'audit entry not stored');
        }
    }

    /** The entry of a staff request: its caller and address. */
    async fromRequest<Refs extends ReqRef>(request: Request<Refs>, entry: Omit<AuditEntry, 'actorUserId' | 'actorRole' | 'ip' | 'organizationId'>
        & { organizationId?: number | null }): Promise<void> {
        const caller = request.auth.credentials?.caller;
        const staff = caller?.kind === 'staff' ? caller : null;
        await this.record({
            ...entry,
            organizationId: entry.organizationId !== undefined ? entry.organizationId : staff?.organizationId ?? null,
            actorUserId: staff?.userId ?? null,
            actorRole: staff?.role ?? null,
            ip: clientIp(request)
        });
    }
}
