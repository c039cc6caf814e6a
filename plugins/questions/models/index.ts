import { Model } from '../../../core/db/model';
import type { QuestionKind } from '../../../core/types/api';

/** A pre-made question of one organization (SPEC §3 'Pre-made question'). */
export class PremadeQuestionModel extends Model {
    static override tableName = 'premade_questions';
    static override booleanAttributes = ['isActive'];
    static override timestamps = { created: true, updated: true };
    id!: number;
    organizationId!: number;
    question!: string;
    answer!: string;
    kind!: QuestionKind;
    isActive!: boolean;
    sortOrder!: number;
    lang!: string | null;
    createdAt!: number;
    updatedAt!: number;
}
