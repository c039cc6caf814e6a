import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type { Realtime } from '../../../core/realtime/socket-server';
import { AgentConnectionModel, AgentPresenceModel } from '../models';
import type { AgentStatus, AwayReason } from '../../../core/types/api';

/** An agent socket counts as open while its node refreshed it within this window (nodes refresh every 20 s). */
export const PRESENCE_TTL_MS = 75_000;

export interface PresenceDeps {
    db: Db;
    realtime: Pick<Realtime, 'publish'>;
    /** AGENT_AWAY_GRACE_SECONDS and AGENT_IDLE_MINUTES, in ms. */
    awayGraceMs: number;
    idleMs: number;
}

export type { AgentStatus };

const agentsPath = (organizationId: number) => `/agents/${organizationId}`;

/**
 * One presence per agent (issue 23), in the database so every node agrees: Available is the agent's (not a tab's),
 * each open agent socket is a row of agent_connections refreshed by its node. Availability ends on logout, when the
 * agent's last socket has been closed for AGENT_AWAY_GRACE_SECONDS, or after AGENT_IDLE_MINUTES without activity
 * reported by any tab; each time the organization's agent feed gets `agent_availability` with the reason, which the
 * agent's tabs show. Every node sweeps; a conditional update decides which node sets (and announces) an agent Away.
 */
export class PresenceService {
    private readonly db: Db;

    constructor(private readonly deps: PresenceDeps) {
        this.db = deps.db;
    }

    private liveSince(): number {
        return Date.now() - PRESENCE_TTL_MS;
    }

    /** The agent of the agent_presence row has an open socket on some node (a correlated subquery). */
    private openSocket() {
        return AgentConnectionModel.query(this.db).select('agent_connections.id')
            .whereColumn('agent_connections.user_id', 'agent_presence.user_id')
            .where('agent_connections.last_seen_at', '>', this.liveSince());
    }

    /** An agent socket opened (a tab): it counts as activity, and ends the away grace of a closed last tab. */
    async connected(connectionId: string, nodeId: string, userId: number, organizationId: number): Promise<void> {
        const t = Date.now();
        await AgentConnectionModel.query(this.db)
            .insert({ id: connectionId, userId, organizationId, nodeId, connectedAt: t, lastSeenAt: t })
            .onConflict('id').merge(['last_seen_at']);
        await AgentPresenceModel.query(this.db)
            .insert({ userId, organizationId, available: false, connections: 0, lastSeenAt: t, lastActiveAt: t, disconnectedAt: null })
            .onConflict('user_id')
            .merge({ organizationId, lastSeenAt: t, lastActiveAt: t, disconnectedAt: null });
    }

    /**
     * An agent socket closed. When it was the agent's last open one (on any node), the grace period starts: answers
     * true then (the caller sets a timer to sweep when it ends).
     */
    async disconnected(connectionId: string, userId: number): Promise<boolean> {
        await AgentConnectionModel.query(this.db).deleteById(connectionId);
        const open = await AgentConnectionModel.query(this.db).where('user_id', userId).where('last_seen_at', '>', this.liveSince()).first();
        if (open) {
            return false;
        }
        await AgentPresenceModel.query(this.db).where('user_id', userId).whereNull('disconnected_at').patch({ disconnectedAt: Date.now() });
        return true;
    }

    /** This node's open sockets are still there (every 20 s, and on each heartbeat ping). */
    async touch(connectionIds: string[]): Promise<void> {
        const t = Date.now();
        for (let i = 0; i < connectionIds.length; i += 500) {
            await AgentConnectionModel.query(this.db).whereIn('id', connectionIds.slice(i, i + 500)).patch({ lastSeenAt: t });
        }
    }

    /** The UI saw the agent's mouse or keyboard (reported at most about once a minute per tab). */
    async activity(userId: number, organizationId: number): Promise<AgentStatus> {
        await AgentPresenceModel.query(this.db).where({ user_id: userId, organization_id: organizationId }).patch({ lastActiveAt: Date.now() });
        return this.status(userId);
    }

    async setAvailability(userId: number, organizationId: number, available: boolean): Promise<{ available: boolean }> {
        const t = Date.now();
        const open = await AgentConnectionModel.query(this.db).where('user_id', userId).where('last_seen_at', '>', this.liveSince()).first();
        // Available with no tab open (an API call): the away grace runs from now, as if the last tab had just closed.
        const disconnectedAt = open ? null : t;
        await AgentPresenceModel.query(this.db)
            .insert({ userId, organizationId, available, connections: 0, lastSeenAt: t, lastActiveAt: t, disconnectedAt, awayReason: null, awayAt: null })
            .onConflict('user_id')
            .merge({ available, organizationId, lastActiveAt: t, disconnectedAt, awayReason: null, awayAt: null });
        await this.deps.realtime.publish(agentsPath(organizationId), { type: 'agent_availability', agentId: userId, available });
        return { available };
    }

    /**
     * Sets an Available agent Away for a reason and tells the organization's agent feed (the agent's own tabs show
     * it). Answers false when the agent was not Available (nothing to say) or another node did it first.
     */
    async setAway(userId: number, reason: AwayReason, extra: (q: ReturnType<typeof AgentPresenceModel.query>) => void = () => undefined): Promise<boolean> {
        const row = await AgentPresenceModel.query(this.db).findById(userId);
        if (!row?.available) {
            return false;
        }
        const t = Date.now();
        const query = AgentPresenceModel.query(this.db).where('user_id', userId).where('available', true);
        extra(query);
        const updated = await query.patch({ available: false, awayReason: reason, awayAt: t });
        if (!updated) {
            return false;
        }
        await this.deps.realtime.publish(agentsPath(row.organizationId), {
            type: 'agent_availability', agentId: userId, available: false, reason, timestamp: iso(t),
            ...(reason === 'idle' ? { idleMinutes: this.deps.idleMs / 60_000 } : reason === 'closed' ? { graceSeconds: this.deps.awayGraceMs / 1000 } : {})
        });
        return true;
    }

    /** The agent signs out (the UI calls this before it forgets the token): Away at once. */
    async logout(userId: number): Promise<{ available: false }> {
        await this.setAway(userId, 'logout');
        return { available: false };
    }

    async status(userId: number): Promise<AgentStatus> {
        const row = await AgentPresenceModel.query(this.db).findById(userId);
        const counted = await AgentConnectionModel.query(this.db).count({ n: '*' }).where('user_id', userId)
            .where('last_seen_at', '>', this.liveSince()).castTo<Array<{ n: number | string }>>();
        return {
            available: row?.available ?? false,
            connections: Number(counted[0]?.n ?? 0),
            awayReason: row?.awayReason ?? null,
            awayAt: iso(row?.awayAt ?? null),
            idleSeconds: this.deps.idleMs / 1000,
            graceSeconds: this.deps.awayGraceMs / 1000
        };
    }

    /** True when an agent of the organization is Available with a socket open on some node. */
    async agentsAvailable(organizationId: number): Promise<boolean> {
        return !!await AgentPresenceModel.query(this.db).where({ organization_id: organizationId, available: true })
            .whereExists(this.openSocket()).first();
    }

    /** Open agent sockets of the organization on every node. */
    async connectionCount(organizationId: number): Promise<number> {
        const rows = await AgentConnectionModel.query(this.db).count({ n: '*' }).where('organization_id', organizationId)
            .where('last_seen_at', '>', this.liveSince()).castTo<Array<{ n: number | string }>>();
        return Number(rows[0]?.n ?? 0);
    }

    /**
     * Every node, on its interval and its grace timers: sockets of a stopped node expire (their agent's grace starts),
     * then Available agents are set Away whose last socket closed AGENT_AWAY_GRACE_SECONDS ago (`closed`) or whose
     * tabs reported no activity for AGENT_IDLE_MINUTES (`idle`). Answers who was set Away, by reason.
     */
    async sweep(): Promise<{ closed: number[]; idle: number[] }> {
        const now = Date.now();
        const live = this.liveSince();
        await AgentConnectionModel.query(this.db).where('last_seen_at', '<=', live).delete();
        await AgentPresenceModel.query(this.db).whereNull('disconnected_at').whereNotExists(this.openSocket()).patch({ disconnectedAt: now });

        const result = { closed: [] as number[], idle: [] as number[] };
        const graceBefore = now - this.deps.awayGraceMs;
        const gone = await AgentPresenceModel.query(this.db).where('available', true)
            .whereNotNull('disconnected_at').where('disconnected_at', '<=', graceBefore).limit(200);
        for (const row of gone) {
            const done = await this.setAway(row.userId, 'closed', (q) => {
                q.whereNotNull('disconnected_at').where('disconnected_at', '<=', graceBefore).whereNotExists(this.openSocket());
            });
            if (done) {
                result.closed.push(row.userId);
            }
        }
        const idleBefore = now - this.deps.idleMs;
        const idle = await AgentPresenceModel.query(this.db).where('available', true)
            .where((q) => q.whereNull('last_active_at').orWhere('last_active_at', '<=', idleBefore)).limit(200);
        for (const row of idle) {
            const done = await this.setAway(row.userId, 'idle', (q) => {
                q.where((w) => w.whereNull('last_active_at').orWhere('last_active_at', '<=', idleBefore));
            });
            if (done) {
                result.idle.push(row.userId);
            }
        }
        return result;
    }
}
