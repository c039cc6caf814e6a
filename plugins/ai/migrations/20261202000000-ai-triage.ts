import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';
import { timestamp } from '../../../core/db/schema';

/** The built-in agent's abstaining answers as shipped until now (copied: a migration never follows later code). */
const ABSTAIN_TEXTS = [
    'I\'m not sure about that one. I can connect you with a member of our team, or you can pick one of the questions below.',
    'I\'m not sure about that one. Please pick one of the questions below, or try again later when our team is available.'
];
/** AI_RESOLVED_AFTER_MINUTES' default: the sweep applies the configured window from then on. */
const SILENCE_MS = 10 * 60_000;

/**
 * AI triage (issue 23; plugins/ai/services/triage.ts): ai_chat_history.triage ('pending', 'resolved', 'unresolved'),
 * triage_reason and triaged_at, beside is_resolved (kept, = triage 'resolved'). Every existing row is kept and
 * reclassified by the same rule, from what the rows hold:
 * - is_resolved already true (the customer's "Yes, thanks" or staff's Mark Resolved; the two were not told apart):
 *   resolved, reason 'customer_yes' when the row's session belongs to a widget (it has a session id), else 'staff';
 * - an abstaining answer (the built-in agent's texts): unresolved 'abstained';
 * - a hand-off (a live_chat fallback that is not an abstaining text, or any still undecided answer of a session in which
 *   the agent's transfer tool succeeded, from ai_function_calls, this plugin's own table): unresolved 'handoff';
 * - a `questions` fallback left (a transfer with no agent, or a failed tool): unresolved 'abstained';
 * - the rest: resolved by 'silence' when its session asked nothing for 10 minutes since, else pending (the sweep
 *   decides it with the configured window).
 * A customer's "No" was stored as is_resolved false, the same as no feedback: it cannot be recovered.
 */
const migration: MigrationEntry = {
    name: '20261202000000-ai-triage',

    async up(knex: Knex) {
        await knex.schema.alterTable('ai_chat_history', (t) => {
            t.string('triage', 12).notNullable().defaultTo('pending');
            t.string('triage_reason', 20).nullable();
            timestamp(t as unknown as Knex.CreateTableBuilder, 'triaged_at', true);
            t.index(['triage', 'created_at']);
            t.index(['organization_id', 'session_id', 'created_at']);
        });
        const now = Date.now();
        const set = (triage: string, reason: string | null) => ({ triage, triage_reason: reason, is_resolved: triage === 'resolved', triaged_at: triage === 'pending' ? null : now });
        await knex('ai_chat_history').where('is_resolved', true).whereNotNull('session_id').update(set('resolved', 'customer_yes'));
        await knex('ai_chat_history').where('is_resolved', true).whereNull('session_id').update(set('resolved', 'staff'));
        const open = () => knex('ai_chat_history').where('triage', 'pending');
        await open().whereIn('ai_response', ABSTAIN_TEXTS).update(set('unresolved', 'abstained'));
        // Hand-offs: the agent's own transfer (ai_function_calls, this plugin's table) in the answer's session.
        await open().where('fallback_action', 'live_chat').update(set('unresolved', 'handoff'));
        await open().whereIn('session_id', knex('ai_function_calls').select('session_id')
            .where({ function_name: 'transfer', success: true }).whereNotNull('session_id'))
            .update(set('unresolved', 'handoff'));
        // A 'questions' fallback left: a failed transfer (no agent: the customer asked for one) or a failed tool.
        await open().where('fallback_action', 'questions').update(set('unresolved', 'abstained'));
        // Silence: the session asked nothing in the last 10 minutes.
        const cutoff = now - SILENCE_MS;
        const quiet = knex('ai_chat_history as h').select('h.id').where('h.triage', 'pending').where('h.created_at', '<', cutoff)
            .whereNotExists((later) => later.select(knex.raw('1')).from('ai_chat_history as l')
                .whereRaw('l.organization_id = h.organization_id').whereRaw('l.session_id = h.session_id').where('l.created_at', '>=', cutoff));
        await knex('ai_chat_history').whereIn('id', quiet).update(set('resolved', 'silence'));
    },

    async down(knex: Knex) {
        await knex.schema.alterTable('ai_chat_history', (t) => {
            t.dropIndex(['triage', 'created_at']);
            t.dropIndex(['organization_id', 'session_id', 'created_at']);
        });
        for (const column of ['triaged_at', 'triage_reason', 'triage']) {
            await knex.raw(`alter table ai_chat_history drop column ${column}`);
        }
    }
};

export default migration;
