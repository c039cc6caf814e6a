import { BaseModel } from '../../../core/db/base-model';

export class PremadeQuestionModel extends BaseModel {
    static override tableName = 'premade_questions';
    static override booleanColumns = ['is_active'];
    id!: number;
    organization_id!: number;
    question!: string;
    answer!: string;
    is_active!: boolean;
    sort_order!: number;
    created_at!: number;
    updated_at!: number;
}
