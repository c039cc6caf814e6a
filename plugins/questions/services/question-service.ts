import Boom from '@hapi/boom';
import Joi from 'joi';
import { fields } from '../../../core/http/fields';
import { coded, withCodes } from '../../../core/http/errors';
import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import { PremadeQuestionModel } from '../models';
import { DEFAULT_QUESTIONS } from '../../../core/shared/default-questions';
import { QUESTION_KINDS } from '../../../core/types/api';
import { SHIPPED_LANGUAGES } from '../../../core/shared/languages';
import type { Question, QuestionKind } from '../../../core/types/api';

export type { Question };

/** A new question; it is active unless said otherwise, and goes last unless given a sortOrder. */
export interface QuestionCreate {
    question: string;
    answer: string;
    /** What the widget does with it; 'answer' unless given. */
    kind?: QuestionKind;
    isActive?: boolean;
    sortOrder?: number;
    /** The language it is written in (issue 27); null or absent: the store's default language. */
    lang?: string | null;
}

export type QuestionUpdate = Partial<QuestionCreate>;

export interface QuestionOrder {
    ids: number[];
}

export const questionFields = {
    question: Joi.string().trim().min(1).max(500),
    answer: Joi.string().trim().min(1).max(5000),
    kind: Joi.string().valid(...QUESTION_KINDS).messages({ 'any.only': '"kind" must be one of answer, loyalty_check, live_support' }),
    isActive: Joi.boolean(),
    sortOrder: Joi.number().integer().min(0).max(100000),
    lang: Joi.string().valid(...SHIPPED_LANGUAGES).allow(null)
        .messages({ 'any.only': `"lang" must be one of ${SHIPPED_LANGUAGES.join(', ')}, or null for the store's default language` })
};

/** The kinds whose answer the widget never shows (it runs the points check or opens live support): answer optional. */
export const KINDS_WITHOUT_ANSWER: readonly QuestionKind[] = ['loyalty_check', 'live_support'];

export const QUESTION_ERRORS = {
    answerRequired: { code: 'questions.answer_required', message: '"answer" is required' }
};

export const createSchema = Joi.object<QuestionCreate>({
    question: questionFields.question.required(),
    answer: Joi.when('kind', {
        is: Joi.valid(...KINDS_WITHOUT_ANSWER),
        then: Joi.string().trim().max(5000).allow('').default(''),
        otherwise: withCodes(questionFields.answer.required().messages({ 'any.required': QUESTION_ERRORS.answerRequired.message }),
            { 'any.required': QUESTION_ERRORS.answerRequired.code, 'string.empty': QUESTION_ERRORS.answerRequired.code })
    }),
    kind: questionFields.kind.default('answer'),
    isActive: questionFields.isActive.default(true),
    sortOrder: questionFields.sortOrder.optional(),
    lang: questionFields.lang.default(null)
});

export const updateSchema = Joi.object<QuestionUpdate>({
    question: questionFields.question,
    // Empty only for a kind without an answer: checked against the stored kind too (QuestionService.update).
    answer: Joi.string().trim().max(5000).allow(''),
    kind: questionFields.kind,
    isActive: questionFields.isActive,
    sortOrder: questionFields.sortOrder,
    lang: questionFields.lang
}).min(1);

export const orderSchema = Joi.object<QuestionOrder>({
    ids: Joi.array().items(fields.id).unique().min(1).max(1000).required()
});

function toQuestion(row: PremadeQuestionModel): Question {
    return {
        id: row.id,
        question: row.question,
        answer: row.answer,
        kind: row.kind,
        isActive: row.isActive,
        sortOrder: row.sortOrder,
        lang: row.lang ?? null,
        createdAt: iso(row.createdAt),
        updatedAt: iso(row.updatedAt)
    };
}

/**
 * The pre-made questions of one organization (SPEC §2 '/admin-questions', §7 'Questions'). Input is typed:
 * the routes validate it with the schemas above.
 */
export class QuestionService {
    constructor(private readonly db: Db) {}

    private query(organizationId: number, db: Db = this.db) {
        return PremadeQuestionModel.query(db).where('organization_id', organizationId);
    }

    async list(organizationId: number, options: { activeOnly?: boolean } = {}): Promise<Question[]> {
        const query = this.query(organizationId).orderBy('sort_order').orderBy('id');
        if (options.activeOnly) {
            query.where('is_active', true);
        }
        return (await query).map(toQuestion);
    }

    /**
     * The active questions a customer in `lang` sees (issue 27): those written in their language (a question without
     * a language is in the store's default), else, while the store has none in it, the default language's.
     */
    async listForLanguage(organizationId: number, lang: string, storeDefault: string): Promise<Question[]> {
        const active = await this.list(organizationId, { activeOnly: true });
        const inLanguage = (l: string) => active.filter((q) => (q.lang ?? storeDefault) === l);
        const own = inLanguage(lang);
        return own.length ? own : inLanguage(storeDefault);
    }

    /** A new question is active and goes last: sortOrder = count + 1 (SPEC §9) unless given. */
    async create(organizationId: number, input: QuestionCreate): Promise<Question> {
        return this.db.transaction(async (trx) => {
            const sortOrder = input.sortOrder ?? await this.query(organizationId, trx).resultSize() + 1;
            const row = await PremadeQuestionModel.query(trx).insertAndFetch({
                organizationId,
                question: input.question,
                answer: input.answer,
                kind: input.kind ?? 'answer',
                isActive: input.isActive ?? true,
                sortOrder,
                lang: input.lang ?? null
            });
            return toQuestion(row);
        });
    }

    async update(organizationId: number, id: number, input: QuestionUpdate): Promise<Question> {
        const row = await this.query(organizationId).findById(id).throwIfNotFound({ message: 'Question not found' });
        const kind = input.kind ?? row.kind;
        const answer = input.answer ?? row.answer;
        if (!KINDS_WITHOUT_ANSWER.includes(kind) && !answer.trim()) {
            throw coded(Boom.badRequest(QUESTION_ERRORS.answerRequired.message), QUESTION_ERRORS.answerRequired.code);
        }
        return toQuestion(await row.$query(this.db).patchAndFetch(input));
    }

    async remove(organizationId: number, id: number): Promise<void> {
        await this.query(organizationId).deleteById(id).throwIfNotFound({ message: 'Question not found' });
    }

    /**
     * Gives a store without questions the five defaults of SPEC §9. Returns the lines to print. With `trx` it runs
     * inside that transaction (a new organization's, tenants' onOrganizationCreated hook), else in its own.
     */
    async addDefaults(organizationId: number, trx?: Db): Promise<string[]> {
        const run = async (db: Db): Promise<string[]> => {
            if (await this.query(organizationId, db).first()) {
                return [];
            }
            for (const [i, q] of DEFAULT_QUESTIONS.entries()) {
                await PremadeQuestionModel.query(db).insert({
                    organizationId, question: q.question, answer: q.answer, kind: q.kind, isActive: true, sortOrder: i + 1
                });
            }
            return [`Created the ${DEFAULT_QUESTIONS.length} default questions`];
        };
        return trx ? run(trx) : this.db.transaction((t) => run(t));
    }

    /** Saves a new order: ids must be exactly this organization's questions; sortOrder becomes 1..n. */
    async reorder(organizationId: number, { ids }: QuestionOrder): Promise<Question[]> {
        await this.db.transaction(async (trx) => {
            const rows = await this.query(organizationId, trx).select('id');
            const own = new Set(rows.map((r) => r.id));
            if (ids.length !== own.size || ids.some((id) => !own.has(id))) {
                throw Boom.badRequest('"ids" must list every question of this store exactly once');
            }
            for (const [index, id] of ids.entries()) {
                await this.query(organizationId, trx).patch({ sortOrder: index + 1 }).where('id', id);
            }
        });
        return this.list(organizationId);
    }
}
