import { iso } from '../../../core/db/model';
import type { Config } from '../../../config';
import type { Db } from '../../../core/db';
import type { Realtime } from '../../../core/realtime/socket-server';
import { ChatSessionModel } from '../models';
import { OPEN_STATUSES, paths } from './chat-shapes';

/** The latest marks a sweep reads to find those this node's sockets contradict (a crossing's mark is as new as the reconnect). */
const MARKS_READ = 1000;

export interface CustomerPresenceDeps {
    db: Db;
    realtime: Realtime;
    /** CHAT_DISCONNECT_GRACE_SECONDS and CHAT_ABANDON_SECONDS. */
    chat: Pick<Config['chat'], 'disconnectGraceSeconds' | 'abandonSeconds'>;
    /** Ends a chat whose customer stayed away (the chat lifecycle's end, by the customer). */
    abandon(organizationId: number, sessionId: string): Promise<{ endReason: string | null }>;
}

/**
 * The customer's side of the connections (issue 11): this node's customer sockets per organization (the figures
 * of SPEC §3 'Websocket stats') and per open chat, and what happens when a chat's customer goes away — a
 * 'Customer Disconnected' push after the grace period, the chat ended after the abandon window, a
 * `customer_reconnected` push when they come back. The marks live in the database, so every node's sweep sees them.
 */
export class CustomerPresence {
    /** Customer sockets on this node, per organization. */
    private readonly perOrganization = new Map<number, { count: number; last: number | null }>();
    /** This node's customer sockets per chat (`org:session`), and its grace / abandon timers per chat. */
    private readonly chatSockets = new Map<string, number>();
    private readonly goneTimers = new Map<string, NodeJS.Timeout[]>();
    /** Per chat, the database work of its last connect or disconnect on this node: the next one runs after it. */
    private readonly work = new Map<string, Promise<void>>();

    constructor(private readonly deps: CustomerPresenceDeps) {}

    /** This node's customer sockets and the time of the last one of an organization. */
    local(organizationId: number): { count: number; last: number | null } | undefined {
        return this.perOrganization.get(organizationId);
    }

    /** This node's customer sockets of every organization (analytics sums them over the nodes through Redis). */
    counts(): Array<{ organizationId: number; count: number; last: number | null }> {
        return [...this.perOrganization].map(([organizationId, e]) => ({ organizationId, count: e.count, last: e.last }));
    }

    socket(organizationId: number, delta: 1 | -1): void {
        const entry = this.perOrganization.get(organizationId) ?? { count: 0, last: null };
        entry.count = Math.max(0, entry.count + delta);
        if (delta > 0) {
            entry.last = Date.now();
        }
        this.perOrganization.set(organizationId, entry);
    }

    /**
     * A chat's marks are read and written in the order its sockets opened and closed on this node. Otherwise a reload
     * (the old socket closed, the new one opened) could have the new socket read the chat before the old one's mark was
     * written, and the chat would stay marked gone, then end, with its customer there (PostgreSQL runs them side by side).
     */
    private inOrder(key: string, work: () => Promise<void>): Promise<void> {
        const run = (this.work.get(key) ?? Promise.resolve()).then(work);
        const settled = run.catch(() => undefined);
        this.work.set(key, settled);
        void settled.then(() => {
            if (this.work.get(key) === settled) {
                this.work.delete(key);
            }
        });
        return run;
    }

    private clearGoneTimers(key: string): void {
        for (const timer of this.goneTimers.get(key) ?? []) {
            clearTimeout(timer);
        }
        this.goneTimers.delete(key);
    }

    /**
     * A customer socket of this chat opened (first connect, reconnect or resume): the chat is no longer
     * "customer gone". When the agents had been told 'Customer Disconnected', they now get `customer_reconnected`.
     */
    async connected(organizationId: number, sessionId: string): Promise<void> {
        const key = `${organizationId}:${sessionId}`;
        this.chatSockets.set(key, (this.chatSockets.get(key) ?? 0) + 1);
        this.clearGoneTimers(key);
        return this.inOrder(key, async () => {
            await this.clearMark(organizationId, sessionId);
        });
    }

    /** The chat is not "customer gone" (anymore): its mark cleared, and `customer_reconnected` pushed when the agents had been told. */
    private async clearMark(organizationId: number, sessionId: string): Promise<boolean> {
        const row = await ChatSessionModel.query(this.deps.db).findOne({ organization_id: organizationId, session_id: sessionId });
        if (!row || !OPEN_STATUSES.includes(row.status) || row.customerGoneAt === null) {
            return false;
        }
        const updated = await ChatSessionModel.query(this.deps.db).where('id', row.id).whereNotNull('customer_gone_at')
            .patch({ customerGoneAt: null, customerGoneNotified: false });
        if (updated && row.customerGoneNotified) {
            await this.deps.realtime.publish(paths.agents(organizationId), { type: 'customer_reconnected', sessionId, timestamp: iso(Date.now()) });
        }
        return updated > 0;
    }

    /**
     * Marks that this node's own sockets contradict. The connects and disconnects of a chat run in order on one node
     * only: a customer who comes back through this node while another node writes the mark of their old socket can
     * have this node's read pass before that write lands, and the chat stays marked gone with its customer here. Every
     * sweep of this node first clears such marks, as a reconnect would (at most MARKS_READ of the latest marks a sweep).
     */
    private async clearContradictedMarks(): Promise<number> {
        if (!this.chatSockets.size) {
            return 0;
        }
        const marked = await ChatSessionModel.query(this.deps.db).whereIn('status', OPEN_STATUSES).whereNotNull('customer_gone_at')
            .orderBy('customer_gone_at', 'desc').limit(MARKS_READ).select('organization_id', 'session_id');
        let cleared = 0;
        for (const r of marked) {
            const key = `${r.organizationId}:${r.sessionId}`;
            if (!this.chatSockets.has(key)) {
                continue;
            }
            await this.inOrder(key, async () => {
                // Still here once the chat's earlier work on this node ran (a close since marks it again, as it should).
                if (this.chatSockets.has(key) && await this.clearMark(r.organizationId, r.sessionId)) {
                    cleared += 1;
                }
            });
        }
        return cleared;
    }

    /**
     * A customer socket of this chat closed. When it was this node's last one, the chat is marked gone (in the
     * database, so every node's sweep sees it) and this node sets its own grace and abandon timers; a reconnect
     * on any node clears the mark, and the timers then find nothing to do.
     */
    async disconnected(organizationId: number, sessionId: string): Promise<void> {
        const key = `${organizationId}:${sessionId}`;
        const left = (this.chatSockets.get(key) ?? 1) - 1;
        if (left > 0) {
            this.chatSockets.set(key, left);
            return;
        }
        this.chatSockets.delete(key);
        return this.inOrder(key, () => this.markGone(organizationId, sessionId, key));
    }

    private async markGone(organizationId: number, sessionId: string, key: string): Promise<void> {
        if (this.chatSockets.has(key)) {
            return;     // a socket of this chat opened on this node since
        }
        const updated = await ChatSessionModel.query(this.deps.db)
            .where({ organization_id: organizationId, session_id: sessionId }).whereIn('status', OPEN_STATUSES).whereNull('customer_gone_at')
            .patch({ customerGoneAt: Date.now(), customerGoneNotified: false });
        if (!updated || this.chatSockets.has(key)) {
            return;     // (the socket that opened meanwhile clears the mark: its work comes next)
        }
        this.clearGoneTimers(key);
        const sweep = () => {
            this.sweepDue().catch(() => undefined);
        };
        const timers = [
            setTimeout(sweep, this.deps.chat.disconnectGraceSeconds * 1000 + 20),
            setTimeout(() => {
                this.goneTimers.delete(key);
                sweep();
            }, this.deps.chat.abandonSeconds * 1000 + 20)
        ];
        timers.forEach((timer) => timer.unref());
        this.goneTimers.set(key, timers);
    }

    /**
     * Every node, on its timers and on its periodic sweep: chats whose customer has been gone longer than
     * CHAT_DISCONNECT_GRACE_SECONDS get one `customer_disconnected` push to the agents (a conditional update
     * decides which node sends it); gone longer than CHAT_ABANDON_SECONDS, the chat ends (`customer_abandoned`). First,
     * the marks this node's own sockets contradict are cleared (clearContradictedMarks): the periodic sweep (every 20 s)
     * runs within the grace period's 30 s by default, so a crossed mark is cleared before anyone is told. (The timers
     * of a disconnect, which may come by the hundred a second, do the rest only.)
     */
    async sweep(): Promise<{ notified: number; ended: number; cleared: number }> {
        const cleared = await this.clearContradictedMarks();
        return { ...await this.sweepDue(), cleared };
    }

    /** The gone marks due: 'Customer Disconnected' after the grace period, the chat ended after the abandon window. */
    private async sweepDue(): Promise<{ notified: number; ended: number }> {
        const db = this.deps.db;
        const now = Date.now();
        const graceBefore = now - this.deps.chat.disconnectGraceSeconds * 1000;
        const abandonBefore = now - this.deps.chat.abandonSeconds * 1000;
        let notified = 0;
        let ended = 0;
        const abandoned = await ChatSessionModel.query(db).whereIn('status', OPEN_STATUSES)
            .whereNotNull('customer_gone_at').where('customer_gone_at', '<=', abandonBefore).limit(100);
        for (const r of abandoned) {
            const session = await this.deps.abandon(r.organizationId, r.sessionId);
            ended += session.endReason === 'customer_abandoned' ? 1 : 0;
        }
        const due = await ChatSessionModel.query(db).whereIn('status', OPEN_STATUSES)
            .whereNotNull('customer_gone_at').where('customer_gone_at', '<=', graceBefore).where('customer_gone_notified', false).limit(100);
        for (const r of due) {
            const updated = await ChatSessionModel.query(db).where('id', r.id).whereIn('status', OPEN_STATUSES)
                .whereNotNull('customer_gone_at').where('customer_gone_at', '<=', graceBefore).where('customer_gone_notified', false)
                .patch({ customerGoneNotified: true });
            if (updated) {
                notified += 1;
                await this.deps.realtime.publish(paths.agents(r.organizationId), {
                    type: 'customer_disconnected', sessionId: r.sessionId, reason: 'customer_disconnected',
                    goneSince: iso(r.customerGoneAt), timestamp: iso(now)
                });
            }
        }
        return { notified, ended };
    }

    /** Clears this node's grace and abandon timers (server stop). */
    stopTimers(): void {
        for (const key of [...this.goneTimers.keys()]) {
            this.clearGoneTimers(key);
        }
    }
}
