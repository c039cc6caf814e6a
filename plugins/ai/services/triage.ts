import type { Knex } from 'knex';
import type { AiTriage, AiTriageReason } from '../../../core/types/api';

/**
 * What an AI answer's standing means (issue 23), one rule for new answers, the sweep and the migration that
 * reclassified the old rows:
 *
 * - **resolved** when the customer says so (the widget's "Yes, thanks"), or asks nothing more in that widget
 *   session for `AI_RESOLVED_AFTER_MINUTES` after it without being handed off (`silence`), or staff resolve it;
 * - **unresolved** only when the customer said no, was handed off to live chat (the agent's transfer, or a live chat
 *   the widget opened for that session later), or the agent abstained (it did not know, and offered the team or the
 *   questions instead);
 * - **pending** otherwise, until one of those happens.
 *
 * A follow-up question inside the window keeps the earlier answers pending: the session's last word decides them
 * all (silence resolves them, a hand-off leaves them unresolved). The customer's own yes or no is final for that
 * answer (a later hand-off or silence does not change it); staff may still resolve anything.
 */
export interface Triage {
    triage: AiTriage;
    triageReason: AiTriageReason | null;
}

export const PENDING: Triage = { triage: 'pending', triageReason: null };

/** How a new answer starts: unresolved when the agent handed over or abstained, else pending. */
export function initialTriage(outcome: { handoff: boolean; abstained: boolean }): Triage {
    if (outcome.handoff) {
        return { triage: 'unresolved', triageReason: 'handoff' };
    }
    if (outcome.abstained) {
        return { triage: 'unresolved', triageReason: 'abstained' };
    }
    return PENDING;
}

/** The customer's feedback on one answer. */
export function feedbackTriage(resolved: boolean): Triage {
    return resolved ? { triage: 'resolved', triageReason: 'customer_yes' } : { triage: 'unresolved', triageReason: 'customer_no' };
}

/** The stored columns of a standing (is_resolved kept for SPEC §3's `isResolved`). */
export function triageColumns(t: Triage, at: number): { triage: AiTriage; triage_reason: AiTriageReason | null; is_resolved: boolean; triaged_at: number | null } {
    return { triage: t.triage, triage_reason: t.triageReason, is_resolved: t.triage === 'resolved', triaged_at: t.triage === 'pending' ? null : at };
}

/**
 * The silence rule in one statement: every pending answer (of one organization, or all) whose widget session asked
 * nothing since `cutoff` (and that is itself older than it) becomes resolved by silence. Returns the rows changed.
 */
export async function resolveSilent(knex: Knex, cutoff: number, now: number, organizationId?: number): Promise<number> {
    const query = knex('ai_chat_history as h')
        .where('h.triage', 'pending')
        .where('h.created_at', '<', cutoff)
        .whereNotExists((later) => later.select(knex.raw('1')).from('ai_chat_history as l')
            .whereRaw('l.organization_id = h.organization_id')
            .whereRaw('l.session_id = h.session_id')
            .where('l.created_at', '>=', cutoff));
    if (organizationId !== undefined) {
        query.where('h.organization_id', organizationId);
    }
    // SQLite and PostgreSQL both take an UPDATE … WHERE id IN (subquery on the same table).
    return knex('ai_chat_history')
        .whereIn('id', query.select('h.id'))
        .update(triageColumns({ triage: 'resolved', triageReason: 'silence' }, now));
}
