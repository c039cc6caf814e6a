import type { Db } from '../../../core/db';
import type { Realtime } from '../../../core/realtime/socket-server';
import { ChatSessionModel } from '../models';
import { paths, SESSION_ROUTE } from './chat-shapes';

/** How many of the store's last accepted chats the typical wait is the median of (issue 26). */
export const TYPICAL_WAIT_SAMPLE = 20;
/** The queue's pushes name at most this many waiting chats (the waiting list's own limit). */
const MAX_WAITING = 200;

export interface QueuePlace {
    /** 1 = next to be answered. */
    position: number;
    /** How many customers wait in all. */
    waiting: number;
    /** The median wait of the store's last 20 accepted chats, in seconds; null before any. */
    typicalWaitSeconds: number | null;
}

/**
 * The customer's place in the waiting queue (issue 26): oldest first, as agents see the queue; the typical wait is the
 * median time from request to acceptance of the store's last TYPICAL_WAIT_SAMPLE accepted chats. When the queue of a
 * store changes (a chat joins, is accepted, ends while waiting), every waiting customer of that store is pushed their
 * place (`queue_position` on their session's subscription), from whichever node saw the change.
 */
export class QueueService {
    /** Per store: a push in flight, and whether another change came meanwhile (one more push then, not one per change). */
    private readonly running = new Map<number, { again: boolean }>();

    constructor(private readonly deps: { db: Db; realtime: Realtime }) {}

    async typicalWaitSeconds(organizationId: number): Promise<number | null> {
        const rows = await ChatSessionModel.query(this.deps.db).select('created_at', 'accepted_at')
            .where('organization_id', organizationId).whereNotNull('accepted_at')
            .orderBy('accepted_at', 'desc').limit(TYPICAL_WAIT_SAMPLE);
        const waits = rows.map((r) => Math.max(0, Number(r.acceptedAt) - Number(r.createdAt))).sort((a, b) => a - b);
        if (!waits.length) {
            return null;
        }
        const mid = Math.floor(waits.length / 2);
        const median = waits.length % 2 ? waits[mid] : (waits[mid - 1] + waits[mid]) / 2;
        return Math.round(median / 1000);
    }

    private async waiting(organizationId: number): Promise<string[]> {
        const rows = await ChatSessionModel.query(this.deps.db).select('session_id')
            .where({ organization_id: organizationId, status: 'waiting' })
            .orderBy('created_at', 'asc').orderBy('id', 'asc').limit(MAX_WAITING);
        return rows.map((r) => r.sessionId);
    }

    /** The place of one waiting chat; null when it is not waiting (or not this store's). */
    async placeOf(organizationId: number, sessionId: string): Promise<QueuePlace | null> {
        const waiting = await this.waiting(organizationId);
        const index = waiting.indexOf(sessionId);
        if (index < 0) {
            return null;
        }
        return { position: index + 1, waiting: waiting.length, typicalWaitSeconds: await this.typicalWaitSeconds(organizationId) };
    }

    /** The store's queue changed: every waiting customer gets their place (coalesced per store on this node). */
    changed(organizationId: number): Promise<void> {
        const run = this.running.get(organizationId);
        if (run) {
            run.again = true;
            return Promise.resolve();
        }
        const state = { again: false };
        this.running.set(organizationId, state);
        return (async () => {
            try {
                do {
                    state.again = false;
                    await this.push(organizationId);
                } while (state.again);
            }
            finally {
                this.running.delete(organizationId);
            }
        })();
    }

    private async push(organizationId: number): Promise<void> {
        const waiting = await this.waiting(organizationId);
        if (!waiting.length) {
            return;
        }
        const typicalWaitSeconds = await this.typicalWaitSeconds(organizationId);
        await this.deps.realtime.publishAll(waiting.map((sessionId, index) => ({
            route: SESSION_ROUTE,
            path: paths.session(sessionId),
            message: { organizationId, type: 'queue_position', sessionId, position: index + 1, waiting: waiting.length, typicalWaitSeconds }
        })));
    }
}
