import Boom from '@hapi/boom';
import Joi from 'joi';
import { fields } from '../../../core/http/fields';
import type { Db } from '../../../core/db';
import { iso, now } from '../../../core/db/base-model';
import { validate } from '../../../core/http/validate';
import { PremadeQuestionModel } from '../models';
import { DEFAULT_QUESTIONS } from '../../../core/shared/default-questions';
import type { Question } from '../../../core/types/api';

export type { Question };

export const questionFields = {
    question: Joi.string().trim().min(1).max(500),
    answer: Joi.string().trim().min(1).max(5000),
    isActive: Joi.boolean(),
    sortOrder: Joi.number().integer().min(0).max(100000)
};

export const createSchema = Joi.object({
    question: questionFields.question.required(),
    answer: questionFields.answer.required(),
    isActive: questionFields.isActive.default(true),
    sortOrder: questionFields.sortOrder.optional()
});

export const updateSchema = Joi.object({
    question: questionFields.question,
    answer: questionFields.answer,
    isActive: questionFields.isActive,
    sortOrder: questionFields.sortOrder
}).min(1);

export const orderSchema = Joi.object({
    ids: Joi.array().items(fields.id).unique().min(1).max(1000).required()
});

function toQuestion(row: PremadeQuestionModel): Question {
    return {
        id: row.id,
        question: row.question,
        answer: row.answer,
        isActive: row.is_active,
        sortOrder: Number(row.sort_order),
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at)
    };
}

/** The pre-made questions of one organization (SPEC §2 '/admin-questions', §7 'Questions'). */
export class QuestionService {
    constructor(private readonly db: Db) {}

    async list(organizationId: number, options: { activeOnly?: boolean } = {}): Promise<Question[]> {
        const query = PremadeQuestionModel.query(this.db).where('organization_id', organizationId).orderBy('sort_order').orderBy('id');
        if (options.activeOnly) {
            query.where('is_active', true);
        }
        return (await query).map(toQuestion);
    }

    private async find(organizationId: number, id: number): Promise<PremadeQuestionModel> {
        const row = await PremadeQuestionModel.query(this.db).findOne({ id, organization_id: organizationId });
        if (!row) {
            throw Boom.notFound('Question not found');
        }
        return row;
    }

    /** A new question is active and goes last: sortOrder = count + 1 (SPEC §9) unless given. */
    async create(organizationId: number, input: unknown): Promise<Question> {
        const v = validate<{ question: string; answer: string; isActive: boolean; sortOrder?: number }>(createSchema, input);
        return this.db.transaction(async (trx) => {
            const countRow = await PremadeQuestionModel.query(trx).where('organization_id', organizationId).count({ n: '*' }).first() as unknown as { n: number | string };
            const t = now();
            const row = await PremadeQuestionModel.query(trx).insertAndFetch({
                organization_id: organizationId,
                question: v.question,
                answer: v.answer,
                is_active: v.isActive,
                sort_order: v.sortOrder ?? Number(countRow?.n ?? 0) + 1,
                created_at: t,
                updated_at: t
            });
            return toQuestion(row);
        });
    }

    async update(organizationId: number, id: number, input: unknown): Promise<Question> {
        const v = validate<Partial<{ question: string; answer: string; isActive: boolean; sortOrder: number }>>(updateSchema, input);
        await this.find(organizationId, id);
        const patch: Partial<PremadeQuestionModel> = { updated_at: now() };
        if (v.question !== undefined) patch.question = v.question;
        if (v.answer !== undefined) patch.answer = v.answer;
        if (v.isActive !== undefined) patch.is_active = v.isActive;
        if (v.sortOrder !== undefined) patch.sort_order = v.sortOrder;
        await PremadeQuestionModel.query(this.db).patch(patch).where({ id, organization_id: organizationId });
        return toQuestion(await this.find(organizationId, id));
    }

    async remove(organizationId: number, id: number): Promise<void> {
        await this.find(organizationId, id);
        await PremadeQuestionModel.query(this.db).delete().where({ id, organization_id: organizationId });
    }

    /** Gives a store without questions the five defaults of SPEC §9. Returns the lines to print. */
    async addDefaults(organizationId: number): Promise<string[]> {
        if (await PremadeQuestionModel.query(this.db).where('organization_id', organizationId).first()) {
            return [];
        }
        const t = now();
        await this.db.transaction(async (trx) => {
            for (const [i, q] of DEFAULT_QUESTIONS.entries()) {
                await PremadeQuestionModel.query(trx).insert({
                    organization_id: organizationId, question: q.question, answer: q.answer, is_active: true, sort_order: i + 1, created_at: t, updated_at: t
                });
            }
        });
        return [`Created the ${DEFAULT_QUESTIONS.length} default questions`];
    }

    /** Saves a new order: ids must be exactly this organization's questions; sortOrder becomes 1..n. */
    async reorder(organizationId: number, input: unknown): Promise<Question[]> {
        const { ids } = validate<{ ids: number[] }>(orderSchema, input);
        await this.db.transaction(async (trx) => {
            const rows = await PremadeQuestionModel.query(trx).where('organization_id', organizationId).select('id');
            const own = new Set(rows.map((r) => r.id));
            if (ids.length !== own.size || ids.some((id) => !own.has(id))) {
                throw Boom.badRequest('"ids" must list every question of this store exactly once');
            }
            const t = now();
            for (const [index, id] of ids.entries()) {
                await PremadeQuestionModel.query(trx).patch({ sort_order: index + 1, updated_at: t }).where({ id, organization_id: organizationId });
            }
        });
        return this.list(organizationId);
    }
}
