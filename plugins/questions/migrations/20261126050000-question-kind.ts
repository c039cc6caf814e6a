import type { Knex } from 'knex';
import type { MigrationEntry } from '../../../core/db/migration-source';

/** The old widget's text rules: how existing questions get their kind once (issue 11; from then on the kind rules). */
const LOYALTY = /\b(loyalty points|my points|check (my )?points)\b/i;
const LIVE = /\b(live support|live help|live chat|human|agent|representative)\b/i;

/**
 * premade_questions.kind: 'answer', 'loyalty_check' or 'live_support' — what the widget does when the question
 * is chosen, so that renaming a question keeps its behaviour. Existing rows get the kind their text implied.
 */
const migration: MigrationEntry = {
    name: '20261126050000-question-kind',

    async up(knex: Knex) {
        await knex.schema.alterTable('premade_questions', (t) => {
            t.string('kind', 20).notNullable().defaultTo('answer');
        });
        const rows: Array<{ id: number; question: string }> = await knex('premade_questions').select('id', 'question');
        for (const row of rows) {
            const kind = LOYALTY.test(row.question) ? 'loyalty_check' : LIVE.test(row.question) ? 'live_support' : null;
            if (kind) {
                await knex('premade_questions').where('id', row.id).update({ kind });
            }
        }
    },

    async down(knex: Knex) {
        await knex.raw('alter table premade_questions drop column kind');
    }
};

export default migration;
