import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Db, DbClient } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type { JobQueue } from '../../../core/jobs';
import type { Realtime } from '../../../core/realtime/socket-server';
import type { Services } from '../../../core/types';
import type { ChatSession, User } from '../../../core/types/api';
import type { ChatNote, ChatOffer, RoutingEvent, RoutingSettings, TeamMember, TeamPresence } from '../../../core/types/routing';
import { coded } from '../../../core/http/errors';
import { AgentConnectionModel, AgentPresenceModel, ChatSessionModel } from '../models';
import { AgentCapacityModel, ChatNoteModel, ChatOfferModel, RoutingEventModel, RoutingSettingsModel } from '../models/routing';
import type { RoutingEventType } from '../models/routing';
import { PRESENCE_TTL_MS } from './presence-service';
import { paths, SESSION_ROUTE, toSession } from './chat-shapes';
import { agentName } from './agent-names';
import type { ChatRouting } from './chat-service';

export type { ChatNote, ChatOffer, RoutingEvent, RoutingSettings, TeamMember };

/** The delayed job that sweeps an offer's deadline (Bull keeps it across restarts; every node's interval sweeps too). */
export const OFFER_JOB = 'livechat.offer-deadline';
/** An agent's capacity when the team page never set one. */
export const DEFAULT_CAPACITY = 3;
export const MAX_CAPACITY = 50;

/** What staff may act on (codes the admin app can name). */
export const ROUTING_ERRORS = {
    agentNotFound: { code: 'livechat.agent_not_found', message: 'Agent not found' },
    agentUnavailable: { code: 'livechat.agent_unavailable', message: 'That agent is not available right now' },
    notInProgress: { code: 'livechat.transfer_not_in_progress', message: 'Only a chat in progress can be transferred' },
    sameAgent: { code: 'livechat.transfer_same_agent', message: 'This chat is already with that agent' },
    chatNotFound: { code: 'livechat.chat_not_found', message: 'Chat session not found' }
} as const;

export interface RoutingDeps {
    db: Db;
    dbClient: DbClient;
    realtime: Pick<Realtime, 'publish' | 'publishAll'>;
    jobs: Pick<JobQueue, 'add'>;
    /** CHAT_OFFER_SECONDS in ms. */
    offerMs: number;
    users: Pick<Services['users'], 'list'>;
    /** Where a failure that must not fail the caller's own work is written (an ended chat stays ended). */
    log: { warn(obj: object, msg: string): void };
    /** The names customers and agents read. */
    names: {
        agentFirstName(organizationId: number, userId: number | null): Promise<string | undefined>;
        agentJoinName(organizationId: number, userId: number): Promise<string | undefined>;
    };
}

type Candidate = { userId: number; capacity: number; load: number; lastAssignedAt: number | null };

/**
 * Routing, hand-over and internal notes (issue 26). Everything lives in the database (chat_offers, agent_capacity,
 * chat_routing_settings, chat_notes, chat_routing_events), so any node may make an offer, any node's sweep lapses it
 * after CHAT_OFFER_SECONDS and moves the chat to the next agent, and a restart loses nothing.
 *
 * A new chat (auto-assign on) is offered to the Available agent (a socket open on some node) with the fewest open
 * chats (connected chats plus offers not yet accepted), ties to the one whose last chat came longest ago, never to
 * one at capacity nor to one who already let it lapse. Accepting (the offer, or Accept in the queue) settles it.
 * When nobody is left, the chat stays in the queue and every agent is told (`chat_returned`).
 */
export class RoutingService implements ChatRouting {
    private readonly db: Db;
    private readonly listeners = new Set<(event: RoutingEvent) => void>();
    /** Chats whose first agent response this node already recorded (`org:chatRowId`). */
    private readonly responded = new Set<string>();

    constructor(private readonly deps: RoutingDeps) {
        this.db = deps.db;
    }

    // ---- events (the per-agent report reads these) ----------------------------------------------------

    /** Every recorded routing event, as it is stored (in-process listeners of the node that recorded it). */
    onEvent(listener: (event: RoutingEvent) => void): () => void {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }

    /** The store's routing events in [from, to] (epoch ms), oldest first, at most 10,000. */
    async events(organizationId: number, range: { from: number; to: number }): Promise<RoutingEvent[]> {
        const rows = await RoutingEventModel.query(this.db)
            .select('chat_routing_events.*', 'chat_sessions.session_id')
            .join('chat_sessions', 'chat_sessions.id', 'chat_routing_events.chat_session_id')
            .where('chat_routing_events.organization_id', organizationId)
            .whereBetween('chat_routing_events.at', [range.from, range.to])
            .orderBy('chat_routing_events.at').orderBy('chat_routing_events.id').limit(10_000)
            .castTo<Array<RoutingEventModel & { sessionId: string }>>();
        return rows.map((r) => toEvent(r, r.sessionId));
    }

    private async record(chat: { id: number; organizationId: number; sessionId: string }, type: RoutingEventType,
        fields: { agentId?: number | null; fromAgentId?: number | null; how?: string | null; valueMs?: number | null } = {}): Promise<void> {
        const row = await RoutingEventModel.query(this.db).insertAndFetch({
            organizationId: chat.organizationId, chatSessionId: chat.id, type, agentUserId: fields.agentId ?? null,
            fromUserId: fields.fromAgentId ?? null, how: fields.how ?? null, valueMs: fields.valueMs ?? null, at: Date.now()
        });
        const event = toEvent(row, chat.sessionId);
        for (const listener of [...this.listeners]) {
            try {
                listener(event);
            }
            catch {
                // a listener's failure is its own
            }
        }
    }

    // ---- settings and the team -------------------------------------------------------------------------

    async settings(organizationId: number): Promise<RoutingSettings> {
        const row = await RoutingSettingsModel.query(this.db).findById(organizationId);
        return { autoAssign: row?.autoAssign ?? false, offerSeconds: this.deps.offerMs / 1000 };
    }

    async setSettings(organizationId: number, input: { autoAssign: boolean }): Promise<RoutingSettings> {
        await RoutingSettingsModel.query(this.db).insert({ organizationId, autoAssign: input.autoAssign })
            .onConflict('organization_id').merge(['auto_assign', 'updated_at']);
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'routing_settings', autoAssign: input.autoAssign });
        if (input.autoAssign) {
            await this.routeWaiting(organizationId);
        }
        else {
            // Off: the chats on offer go back to the queue for anyone's Accept.
            await ChatOfferModel.query(this.db).where({ organization_id: organizationId, state: 'offered' })
                .patch({ state: 'cancelled', settledAt: Date.now() });
        }
        return this.settings(organizationId);
    }

    /** The store's active staff (admins answer chats; organization users are listed without chats). */
    private async staff(organizationId: number): Promise<User[]> {
        return (await this.deps.users.list({ organizationId })).filter((u) => u.isActive && u.organizationId === organizationId);
    }

    /** The user ids of the store's agents who are Available with a socket open on some node. */
    private async availableIds(organizationId: number): Promise<Set<number>> {
        const rows = await AgentPresenceModel.query(this.db).select('user_id')
            .where({ organization_id: organizationId, available: true })
            .whereExists(AgentConnectionModel.query(this.db).select('agent_connections.id')
                .whereColumn('agent_connections.user_id', 'agent_presence.user_id')
                .where('agent_connections.last_seen_at', '>', Date.now() - PRESENCE_TTL_MS));
        return new Set(rows.map((r) => r.userId));
    }

    /** Open chats (connected) and pending offers per agent of the store. */
    private async loads(organizationId: number): Promise<{ chats: Map<number, number>; offers: Map<number, number> }> {
        const chats = await ChatSessionModel.query(this.db).select('agent_user_id').count({ n: '*' })
            .where({ organization_id: organizationId, status: 'agent_connected' }).whereNotNull('agent_user_id').groupBy('agent_user_id')
            .castTo<Array<{ agentUserId: number; n: number | string }>>();
        const offers = await ChatOfferModel.query(this.db).select('user_id').count({ n: '*' })
            .where({ organization_id: organizationId, state: 'offered' }).groupBy('user_id')
            .castTo<Array<{ userId: number; n: number | string }>>();
        return {
            chats: new Map(chats.map((r) => [Number(r.agentUserId), Number(r.n)])),
            offers: new Map(offers.map((r) => [Number(r.userId), Number(r.n)]))
        };
    }

    /** GET /api/chat/team: the store's staff with presence, open chats and capacity. */
    async team(organizationId: number): Promise<TeamMember[]> {
        const [staff, available, loads, caps, presence] = await Promise.all([
            this.staff(organizationId),
            this.availableIds(organizationId),
            this.loads(organizationId),
            AgentCapacityModel.query(this.db).where('organization_id', organizationId),
            AgentConnectionModel.query(this.db).select('user_id').where('organization_id', organizationId)
                .where('last_seen_at', '>', Date.now() - PRESENCE_TTL_MS)
        ]);
        const capacity = new Map(caps.map((c) => [c.userId, c.capacity]));
        const connected = new Set(presence.map((p) => p.userId));
        const order = (u: User) => (u.role === 'admin' ? 0 : 1);
        return staff.sort((a, b) => order(a) - order(b) || agentName(a).localeCompare(agentName(b)) || a.id - b.id).map((u) => {
            const state: TeamPresence = available.has(u.id) ? 'available' : connected.has(u.id) ? 'away' : 'offline';
            return {
                id: u.id, name: u.name, agentName: agentName(u), email: u.email, role: u.role === 'admin' ? 'admin' : 'org_user',
                isAgent: u.role === 'admin', presence: state, openChats: loads.chats.get(u.id) ?? 0,
                pendingOffers: loads.offers.get(u.id) ?? 0, capacity: capacity.get(u.id) ?? DEFAULT_CAPACITY
            };
        });
    }

    /** An agent of this store (active admin), or a 404 (another store's user, or none). */
    private async agentOf(organizationId: number, userId: number): Promise<User> {
        const user = (await this.staff(organizationId)).find((u) => u.id === userId && u.role === 'admin');
        if (!user) {
            throw coded(Boom.notFound(ROUTING_ERRORS.agentNotFound.message), ROUTING_ERRORS.agentNotFound.code);
        }
        return user;
    }

    /** PUT /api/chat/team/{userId}: the agent's capacity (concurrent chats). */
    async setCapacity(organizationId: number, userId: number, capacity: number): Promise<TeamMember> {
        await this.agentOf(organizationId, userId);
        await AgentCapacityModel.query(this.db).insert({ userId, organizationId, capacity, lastAssignedAt: null })
            .onConflict('user_id').merge(['capacity', 'organization_id', 'updated_at']);
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'team_changed', agentId: userId, capacity });
        await this.routeWaiting(organizationId);
        return (await this.team(organizationId)).find((m) => m.id === userId)!;
    }

    // ---- offers --------------------------------------------------------------------------------------

    /** Who may be offered this chat now, best first. */
    private async candidates(organizationId: number, chatRowId: number): Promise<Candidate[]> {
        const available = await this.availableIds(organizationId);
        if (!available.size) {
            return [];
        }
        const agents = new Set((await this.staff(organizationId)).filter((u) => u.role === 'admin').map((u) => u.id));
        const tried = new Set((await ChatOfferModel.query(this.db).select('user_id').where('chat_session_id', chatRowId)
            .whereIn('state', ['offered', 'lapsed'])).map((o) => o.userId));
        const { chats, offers } = await this.loads(organizationId);
        const caps = new Map((await AgentCapacityModel.query(this.db).where('organization_id', organizationId)).map((c) => [c.userId, c]));
        const out: Candidate[] = [];
        for (const userId of available) {
            if (!agents.has(userId) || tried.has(userId)) {
                continue;
            }
            const capacity = caps.get(userId)?.capacity ?? DEFAULT_CAPACITY;
            const load = (chats.get(userId) ?? 0) + (offers.get(userId) ?? 0);
            if (load < capacity) {
                out.push({ userId, capacity, load, lastAssignedAt: caps.get(userId)?.lastAssignedAt ?? null });
            }
        }
        return out.sort((a, b) => a.load - b.load || (a.lastAssignedAt ?? 0) - (b.lastAssignedAt ?? 0) || a.userId - b.userId);
    }

    /**
     * Offers a waiting chat to the best candidate (auto-assign on). The agent's row is locked while their load is
     * counted (PostgreSQL; SQLite writes one at a time), so two nodes cannot fill one agent past capacity; one open
     * offer per chat (a unique index) keeps two nodes from offering one chat twice.
     */
    private async offer(chat: ChatSessionModel): Promise<ChatOfferModel | null> {
        if (chat.status !== 'waiting' || chat.kind === 'left_message' || !(await this.settings(chat.organizationId)).autoAssign) {
            return null;
        }
        for (const candidate of await this.candidates(chat.organizationId, chat.id)) {
            await AgentCapacityModel.query(this.db)
                .insert({ userId: candidate.userId, organizationId: chat.organizationId, capacity: DEFAULT_CAPACITY, lastAssignedAt: null })
                .onConflict('user_id').ignore();
            let made: ChatOfferModel | null | 'taken' = null;
            try {
                made = await this.db.transaction(async (trx) => {
                    const lock = AgentCapacityModel.query(trx).findById(candidate.userId);
                    const cap = this.deps.dbClient === 'postgres' ? await lock.forUpdate() : await lock;
                    const [{ n: open }] = await ChatSessionModel.query(trx).count({ n: '*' })
                        .where({ agent_user_id: candidate.userId, status: 'agent_connected' }).castTo<Array<{ n: number | string }>>();
                    const [{ n: offered }] = await ChatOfferModel.query(trx).count({ n: '*' })
                        .where({ user_id: candidate.userId, state: 'offered' }).castTo<Array<{ n: number | string }>>();
                    if (Number(open) + Number(offered) >= (cap?.capacity ?? DEFAULT_CAPACITY)) {
                        return null;
                    }
                    const still = await ChatSessionModel.query(trx).select('status').findById(chat.id);
                    if (still?.status !== 'waiting') {
                        return 'taken' as const;
                    }
                    const t = Date.now();
                    return ChatOfferModel.query(trx).insertAndFetch({
                        organizationId: chat.organizationId, chatSessionId: chat.id, userId: candidate.userId, state: 'offered',
                        offeredAt: t, expiresAt: t + this.deps.offerMs, settledAt: null
                    });
                });
            }
            catch (err) {
                if (isUniqueViolation(err)) {
                    return null;    // another node offered this chat meanwhile (one open offer per chat)
                }
                throw err;
            }
            if (made === 'taken') {
                return null;
            }
            if (made) {
                await this.announceOffer(chat, made);
                return made;
            }
        }
        return null;
    }

    private async announceOffer(chat: ChatSessionModel, offer: ChatOfferModel): Promise<void> {
        const session = toSession(chat);
        await this.deps.realtime.publish(paths.agents(chat.organizationId), {
            type: 'chat_offered', sessionId: chat.sessionId, agentId: offer.userId,
            agentName: await this.deps.names.agentFirstName(chat.organizationId, offer.userId) ?? null,
            expiresAt: iso(offer.expiresAt), offerSeconds: this.deps.offerMs / 1000,
            phoneNumber: session.phoneNumber, visitorLabel: session.visitorLabel, message: chat.customerMessage
        });
        await this.deps.jobs.add(OFFER_JOB, { offerId: offer.id }, { delay: this.deps.offerMs + 50, jobId: `offer-${offer.id}` })
            .catch(() => undefined);        // every node's interval sweeps as well
    }

    /** Offers the store's waiting chats that have no open offer (an agent became available, or freed a place). */
    async routeWaiting(organizationId: number): Promise<number> {
        if (!(await this.settings(organizationId)).autoAssign) {
            return 0;
        }
        const waiting = await ChatSessionModel.query(this.db).where({ organization_id: organizationId, status: 'waiting' })
            .whereNot('kind', 'left_message')
            .whereNotExists(ChatOfferModel.query(this.db).select('chat_offers.id')
                .whereColumn('chat_offers.chat_session_id', 'chat_sessions.id').where('chat_offers.state', 'offered'))
            .orderBy('created_at', 'asc').limit(50);
        let made = 0;
        for (const chat of waiting) {
            if (await this.offer(chat)) {
                made += 1;
            }
        }
        return made;
    }

    /**
     * Every node, on its interval and on each offer's delayed job: offers past their deadline lapse (a conditional
     * update decides which node handles each), the chat goes to the next candidate, and when nobody is left it stays
     * in the queue and every agent is told.
     */
    async sweep(): Promise<{ lapsed: number; returned: number }> {
        const now = Date.now();
        const due = await ChatOfferModel.query(this.db).where('state', 'offered').where('expires_at', '<=', now).orderBy('expires_at').limit(100);
        let lapsed = 0;
        let returned = 0;
        for (const offer of due) {
            const updated = await ChatOfferModel.query(this.db).where({ id: offer.id, state: 'offered' }).patch({ state: 'lapsed', settledAt: now });
            if (!updated) {
                continue;
            }
            lapsed += 1;
            const chat = await ChatSessionModel.query(this.db).findById(offer.chatSessionId);
            if (!chat) {
                continue;
            }
            await this.record(chat, 'offer_lapsed', { agentId: offer.userId });
            await this.deps.realtime.publish(paths.agents(chat.organizationId), { type: 'chat_offer_lapsed', sessionId: chat.sessionId, agentId: offer.userId });
            if (chat.status !== 'waiting') {
                continue;
            }
            if (!await this.offer(chat)) {
                const open = await ChatOfferModel.query(this.db).where({ chat_session_id: chat.id, state: 'offered' }).first();
                if (open) {
                    continue;       // another node offered it meanwhile
                }
                returned += 1;
                const session = toSession(chat);
                await this.record(chat, 'returned_to_queue');
                await this.deps.realtime.publish(paths.agents(chat.organizationId), {
                    type: 'chat_returned', sessionId: chat.sessionId, phoneNumber: session.phoneNumber, visitorLabel: session.visitorLabel,
                    message: chat.customerMessage, timestamp: iso(now)
                });
            }
        }
        // Waiting chats of auto-assigning stores with no open offer (an agent came back meanwhile, or a node missed an
        // event): offered again to whoever has not let them lapse yet.
        const stores = await ChatSessionModel.query(this.db).distinct('organization_id').where('status', 'waiting')
            .whereNot('kind', 'left_message')
            .whereNotExists(ChatOfferModel.query(this.db).select('chat_offers.id')
                .whereColumn('chat_offers.chat_session_id', 'chat_sessions.id').where('chat_offers.state', 'offered'))
            .whereExists(RoutingSettingsModel.query(this.db).select('chat_routing_settings.organization_id')
                .whereColumn('chat_routing_settings.organization_id', 'chat_sessions.organization_id').where('chat_routing_settings.auto_assign', true))
            .limit(50);
        for (const store of stores) {
            await this.routeWaiting(store.organizationId);
        }
        return { lapsed, returned };
    }

    /** The agent went Away (the switch, or signing out): the chats on offer to them move on now, not at the deadline. */
    async agentAway(userId: number): Promise<void> {
        const due = await ChatOfferModel.query(this.db).where({ user_id: userId, state: 'offered' }).patch({ expiresAt: Date.now() });
        if (due) {
            await this.sweep();
        }
    }

    /** The waiting list with each chat's open offer (who has it, until when). */
    async withOffers<T extends ChatSession>(organizationId: number, sessions: T[]): Promise<Array<T & { offer: ChatOffer | null }>> {
        if (!sessions.length) {
            return [];
        }
        const rows = await ChatOfferModel.query(this.db).select('chat_offers.*', 'chat_sessions.session_id')
            .join('chat_sessions', 'chat_sessions.id', 'chat_offers.chat_session_id')
            .where({ 'chat_offers.organization_id': organizationId, 'chat_offers.state': 'offered' })
            .whereIn('chat_sessions.session_id', sessions.map((s) => s.sessionId))
            .castTo<Array<ChatOfferModel & { sessionId: string }>>();
        const bySession = new Map<string, ChatOffer>();
        for (const r of rows) {
            bySession.set(r.sessionId, {
                agentId: r.userId, agentName: await this.deps.names.agentFirstName(organizationId, r.userId) ?? '', expiresAt: iso(r.expiresAt)!
            });
        }
        return sessions.map((s) => ({ ...s, offer: bySession.get(s.sessionId) ?? null }));
    }

    // ---- the chat service's hooks (ChatRouting) --------------------------------------------------------

    /** A chat was created: offered at once when the store auto-assigns. */
    async created(chat: ChatSessionModel): Promise<{ offeredTo: number | null; expiresAt: string | null }> {
        const offer = await this.offer(chat);
        return { offeredTo: offer?.userId ?? null, expiresAt: offer ? iso(offer.expiresAt) : null };
    }

    /** An agent accepted a chat (their offer, or Accept in the queue): open offers settle, the assignment is recorded. */
    async accepted(chat: ChatSessionModel, agentId: number): Promise<void> {
        const t = Date.now();
        const mine = await ChatOfferModel.query(this.db).where({ chat_session_id: chat.id, state: 'offered', user_id: agentId }).patch({ state: 'accepted', settledAt: t });
        await ChatOfferModel.query(this.db).where({ chat_session_id: chat.id, state: 'offered' }).patch({ state: 'cancelled', settledAt: t });
        await this.assigned(chat.organizationId, agentId, t);
        await this.record(chat, 'assigned', { agentId, how: mine ? 'offer' : 'manual' });
    }

    /** A chat ended: its offers are void, and its agent may have room for a waiting chat. */
    async ended(chat: ChatSessionModel): Promise<void> {
        try {
            await ChatOfferModel.query(this.db).where({ chat_session_id: chat.id, state: 'offered' }).patch({ state: 'cancelled', settledAt: Date.now() });
            await this.routeWaiting(chat.organizationId);
        }
        catch (err) {
            // The chat has ended all the same; the next sweep offers the waiting chats.
            this.deps.log.warn({ err }, 'routing after a chat ended failed');
        }
    }

    private async assigned(organizationId: number, userId: number, t: number): Promise<void> {
        await AgentCapacityModel.query(this.db).insert({ userId, organizationId, capacity: DEFAULT_CAPACITY, lastAssignedAt: t })
            .onConflict('user_id').merge(['last_assigned_at', 'updated_at']);
    }

    /** An agent's message was stored: the chat's first one is its first response (recorded once). */
    async agentMessage(organizationId: number, sessionId: string, userId: number): Promise<void> {
        const key = `${organizationId}:${sessionId}`;
        if (this.responded.has(key)) {
            return;
        }
        const chat = await ChatSessionModel.query(this.db).findOne({ organization_id: organizationId, session_id: sessionId });
        if (!chat) {
            return;
        }
        if (this.responded.size > 10_000) {
            this.responded.clear();
        }
        this.responded.add(key);
        const earlier = await RoutingEventModel.query(this.db).where({ chat_session_id: chat.id, type: 'first_response' }).first();
        if (!earlier) {
            await this.record(chat, 'first_response', { agentId: userId, valueMs: Date.now() - chat.createdAt });
        }
    }

    // ---- hand-over ---------------------------------------------------------------------------------------

    private async chatOf(organizationId: number, sessionId: string): Promise<ChatSessionModel> {
        const chat = await ChatSessionModel.query(this.db).findOne({ organization_id: organizationId, session_id: sessionId });
        if (!chat) {
            throw coded(Boom.notFound(ROUTING_ERRORS.chatNotFound.message), ROUTING_ERRORS.chatNotFound.code);
        }
        return chat;
    }

    /**
     * Hands a chat in progress to another Available agent of the store, with a note (staff only). The customer is
     * told who they are chatting with now (`agent_changed`); the store's agents get `chat_transferred` (the receiving
     * one is alerted) and the note.
     */
    async transfer(organizationId: number, sessionId: string, byUserId: number,
        input: { toAgentId: number; note?: string | null; clientNoteId?: string | null }): Promise<{ session: ChatSession; note: ChatNote }> {
        const chat = await this.chatOf(organizationId, sessionId);
        await this.agentOf(organizationId, input.toAgentId);
        if (chat.status !== 'agent_connected' || chat.kind === 'left_message') {
            throw coded(Boom.conflict(ROUTING_ERRORS.notInProgress.message), ROUTING_ERRORS.notInProgress.code);
        }
        if (chat.agentUserId === input.toAgentId) {
            throw coded(Boom.conflict(ROUTING_ERRORS.sameAgent.message), ROUTING_ERRORS.sameAgent.code);
        }
        if (!(await this.availableIds(organizationId)).has(input.toAgentId)) {
            throw coded(Boom.conflict(ROUTING_ERRORS.agentUnavailable.message), ROUTING_ERRORS.agentUnavailable.code);
        }
        const from = chat.agentUserId;
        const t = Date.now();
        const noteRow = await this.db.transaction(async (trx) => {
            const query = ChatSessionModel.query(trx).where({ id: chat.id, status: 'agent_connected' });
            if (from === null) {
                query.whereNull('agent_user_id');
            }
            else {
                query.where('agent_user_id', from);
            }
            const moved = await query.patch({ agentUserId: input.toAgentId });
            if (!moved) {
                throw Boom.conflict('The chat changed meanwhile: look again');
            }
            return ChatNoteModel.query(trx).insertAndFetch({
                organizationId, chatSessionId: chat.id, userId: byUserId, kind: 'transfer', text: input.note?.trim() ?? '',
                toUserId: input.toAgentId, clientNoteId: input.clientNoteId ?? Crypto.randomUUID(), createdAt: t
            });
        });
        await this.assigned(organizationId, input.toAgentId, t);
        await this.record(chat, 'transferred', { agentId: input.toAgentId, fromAgentId: from, how: byUserId === from ? 'own' : 'other' });
        await this.record(chat, 'assigned', { agentId: input.toAgentId, fromAgentId: from, how: 'transfer' });
        const note = await this.toNote(organizationId, noteRow, sessionId);
        const fresh = toSession(await chat.$query(this.db));
        await this.deps.realtime.publishAll([
            { path: paths.agents(organizationId), message: {
                type: 'chat_transferred', sessionId, fromAgentId: from, toAgentId: input.toAgentId, byAgentId: byUserId,
                fromName: from === null ? null : await this.deps.names.agentFirstName(organizationId, from) ?? null,
                toName: note.toAgentName, note, phoneNumber: fresh.phoneNumber, visitorLabel: fresh.visitorLabel, timestamp: note.timestamp
            } },
            { route: SESSION_ROUTE, path: paths.session(sessionId), message: {
                organizationId, type: 'agent_changed', sessionId, timestamp: note.timestamp,
                agentName: await this.deps.names.agentJoinName(organizationId, input.toAgentId) ?? null
            } }
        ]);
        return { session: fresh, note };
    }

    /** The store's Available agents other than the caller (whom a chat may be transferred to). */
    async transferTargets(organizationId: number, userId: number): Promise<TeamMember[]> {
        return (await this.team(organizationId)).filter((m) => m.isAgent && m.presence === 'available' && m.id !== userId);
    }

    // ---- internal notes ------------------------------------------------------------------------------------

    private async toNote(organizationId: number, row: ChatNoteModel, sessionId: string): Promise<ChatNote> {
        return {
            id: row.id, sessionId, kind: row.kind, text: row.text, authorId: row.userId,
            authorName: row.userId === null ? null : await this.deps.names.agentFirstName(organizationId, row.userId) ?? null,
            toAgentId: row.toUserId,
            toAgentName: row.toUserId === null ? null : await this.deps.names.agentFirstName(organizationId, row.toUserId) ?? null,
            clientNoteId: row.clientNoteId, timestamp: iso(row.createdAt)!
        };
    }

    /** A chat's notes (staff only), oldest first. */
    async notes(organizationId: number, sessionId: string): Promise<ChatNote[]> {
        const chat = await this.chatOf(organizationId, sessionId);
        const rows = await ChatNoteModel.query(this.db).where('chat_session_id', chat.id).orderBy('created_at').orderBy('id').limit(500);
        const out: ChatNote[] = [];
        for (const r of rows) {
            out.push(await this.toNote(organizationId, r, sessionId));
        }
        return out;
    }

    /**
     * Adds a staff-only note to a conversation (open or ended), pushed on the store's agent feed only — never on the
     * chat's own path, which its customer subscribes to. A retried client note id answers the stored note.
     */
    async addNote(organizationId: number, sessionId: string, userId: number, input: { text: string; clientNoteId?: string | null }): Promise<{ note: ChatNote; duplicate: boolean }> {
        const chat = await this.chatOf(organizationId, sessionId);
        const clientNoteId = input.clientNoteId ?? Crypto.randomUUID();
        const earlier = await ChatNoteModel.query(this.db).findOne({ chat_session_id: chat.id, client_note_id: clientNoteId });
        if (earlier) {
            return { note: await this.toNote(organizationId, earlier, sessionId), duplicate: true };
        }
        let row: ChatNoteModel;
        try {
            row = await ChatNoteModel.query(this.db).insertAndFetch({
                organizationId, chatSessionId: chat.id, userId, kind: 'note', text: input.text.trim(), toUserId: null, clientNoteId
            });
        }
        catch (err) {
            const first = await ChatNoteModel.query(this.db).findOne({ chat_session_id: chat.id, client_note_id: clientNoteId });
            if (!first) {
                throw err;
            }
            return { note: await this.toNote(organizationId, first, sessionId), duplicate: true };
        }
        const note = await this.toNote(organizationId, row, sessionId);
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'chat_note', ...note });
        return { note, duplicate: false };
    }
}

/** A unique index refused the row (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
function isUniqueViolation(err: unknown): boolean {
    const e = err as { name?: string; code?: string; nativeError?: { code?: string } } | null;
    const code = e?.nativeError?.code ?? e?.code;
    return e?.name === 'UniqueViolationError' || code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function toEvent(row: RoutingEventModel, sessionId: string): RoutingEvent {
    return {
        type: row.type, organizationId: row.organizationId, sessionId, agentId: row.agentUserId, fromAgentId: row.fromUserId,
        how: row.how, valueMs: row.valueMs === null ? null : Number(row.valueMs), at: iso(row.at)!
    };
}
