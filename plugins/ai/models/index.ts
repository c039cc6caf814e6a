import { Model } from '../../../core/db/model';

/** A knowledge base entry of one organization (SPEC §3 'Knowledge entry'), what the AI agent answers from. */
export class KnowledgeEntryModel extends Model {
    static override tableName = 'knowledge_entries';
    static override booleanAttributes = ['isActive'];
    static override timestamps = { created: true, updated: true };
    id!: number;
    organizationId!: number;
    title!: string;
    content!: string;
    isActive!: boolean;
    createdAt!: number;
    updatedAt!: number;
}
