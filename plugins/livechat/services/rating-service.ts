import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import { coded } from '../../../core/http/errors';
import type { Realtime } from '../../../core/realtime/socket-server';
import type { ChatRating } from '../../../core/types/api';
import { LIVECHAT_ERRORS } from '../errors';
import { OPEN_STATUSES, paths } from './chat-service';

/** Most rows one quality read returns per kind (a store's month of chats is far below it). */
export const MAX_QUALITY_ROWS = 50_000;

/**
 * What the per-agent report (analytics' CSAT, issue 28) reads from live chat, through this declared service (analytics
 * never queries livechat's tables): the ratings given in a range, the chats an agent handled, and their first
 * responses (routing's events) — raw facts, which analytics buckets in the store's zone.
 */
export interface QualityFacts {
    ratings: Array<{ score: number; agentId: number | null; at: number }>;
    /** Chats created in the range that an agent accepted: who has it, and the handling time once it ended. */
    handled: Array<{ agentId: number; handlingMs: number | null }>;
    /** First responses of the range's chats (ms from the chat's request to the agent's first message). */
    firstResponses: Array<{ agentId: number; valueMs: number }>;
}

interface RatingRow { score: number; comment: string | null; created_at: number | string; source: string }

function toRating(row: RatingRow): ChatRating {
    return { score: Number(row.score), comment: row.comment ?? null, createdAt: iso(Number(row.created_at))!, source: row.source === 'mail' ? 'mail' : 'widget' };
}

/**
 * Ratings after a chat (issue 28): once per chat, after it ended, by its customer (their token, or the mailed link);
 * the agents of the store are told at once (the agent feed: `chat_rated`).
 */
export class RatingService {
    constructor(private readonly deps: { db: Db; realtime: Realtime }) {}

    private async chatOf(organizationId: number, sessionId: string): Promise<{ id: number; status: string; agent_user_id: number | null; end_reason: string | null }> {
        const chat = await this.deps.db('chat_sessions').where({ organization_id: organizationId, session_id: sessionId })
            .first('id', 'status', 'agent_user_id', 'end_reason');
        // A left message is not a chat anybody had: nothing to rate.
        if (!chat || chat.end_reason === 'offline_message') {
            throw Boom.notFound('Chat session not found');
        }
        return chat;
    }

    async rate(organizationId: number, sessionId: string, input: { score: number; comment?: string | null }, source: 'widget' | 'mail'): Promise<ChatRating> {
        const chat = await this.chatOf(organizationId, sessionId);
        if ((OPEN_STATUSES as string[]).includes(chat.status)) {
            throw coded(Boom.conflict(LIVECHAT_ERRORS.notEnded.message), LIVECHAT_ERRORS.notEnded.code);
        }
        const row = {
            organization_id: organizationId,
            chat_session_id: chat.id,
            agent_user_id: chat.agent_user_id ?? null,
            score: input.score,
            comment: input.comment?.trim() || null,
            source,
            created_at: Date.now()
        };
        // One per chat, whichever node answers: the unique chat_session_id decides (no read-then-write race).
        const inserted = await this.deps.db('chat_ratings').insert(row).onConflict('chat_session_id').ignore().returning('id');
        if (!inserted.length) {
            throw coded(Boom.conflict(LIVECHAT_ERRORS.alreadyRated.message), LIVECHAT_ERRORS.alreadyRated.code);
        }
        const rating = toRating(row);
        await this.deps.realtime.publish(paths.agents(organizationId), { type: 'chat_rated', sessionId, agentId: row.agent_user_id, ...rating });
        return rating;
    }

    /** The chat's rating, or null (the console's conversation and History). */
    async ratingOf(organizationId: number, sessionId: string): Promise<ChatRating | null> {
        const row = await this.deps.db('chat_ratings as r').join('chat_sessions as s', 's.id', 'r.chat_session_id')
            .where({ 's.organization_id': organizationId, 's.session_id': sessionId })
            .first('r.score', 'r.comment', 'r.created_at', 'r.source') as RatingRow | undefined;
        return row ? toRating(row) : null;
    }

    /** Whether the chat may still be rated (ended, not rated yet): the mailed link's page asks before it shows the form. */
    async rateable(organizationId: number, sessionId: string): Promise<boolean> {
        const chat = await this.chatOf(organizationId, sessionId).catch(() => null);
        if (!chat || (OPEN_STATUSES as string[]).includes(chat.status)) {
            return false;
        }
        return !await this.deps.db('chat_ratings').where('chat_session_id', chat.id).first('id');
    }

    /** The facts of the per-agent report over [from, to] (epoch ms, inclusive). */
    async qualityFacts(organizationId: number, range: { from: number; to: number }): Promise<QualityFacts> {
        const { db } = this.deps;
        const ratings = await db('chat_ratings').where('organization_id', organizationId).whereBetween('created_at', [range.from, range.to])
            .orderBy('id').limit(MAX_QUALITY_ROWS).select('score', 'agent_user_id', 'created_at');
        const handled = await db('chat_sessions').where('organization_id', organizationId).whereBetween('created_at', [range.from, range.to])
            .whereNotNull('agent_user_id').whereNotNull('accepted_at')
            .orderBy('id').limit(MAX_QUALITY_ROWS).select('agent_user_id', 'accepted_at', 'ended_at');
        const first = await db('chat_routing_events as e').join('chat_sessions as s', 's.id', 'e.chat_session_id')
            .where('e.organization_id', organizationId).where('e.type', 'first_response').whereNotNull('e.agent_user_id')
            .whereBetween('s.created_at', [range.from, range.to])
            .orderBy('e.id').limit(MAX_QUALITY_ROWS).select('e.agent_user_id', 'e.value_ms');
        return {
            ratings: ratings.map((r: { score: number; agent_user_id: number | null; created_at: number | string }) =>
                ({ score: Number(r.score), agentId: r.agent_user_id === null ? null : Number(r.agent_user_id), at: Number(r.created_at) })),
            handled: handled.map((r: { agent_user_id: number; accepted_at: number | string; ended_at: number | string | null }) => ({
                agentId: Number(r.agent_user_id),
                handlingMs: r.ended_at === null ? null : Math.max(0, Number(r.ended_at) - Number(r.accepted_at))
            })),
            firstResponses: first.map((r: { agent_user_id: number; value_ms: number | string }) => ({ agentId: Number(r.agent_user_id), valueMs: Number(r.value_ms) }))
        };
    }
}
