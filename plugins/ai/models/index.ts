import type { AiTriage, AiTriageReason } from '../../../core/types/api';
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
    /** The language it is written in (issue 27); null: the store's default language. */
    lang!: string | null;
    /** Other ways customers ask (issue 30), one per line; null: none. */
    phrasings!: string | null;
    isActive!: boolean;
    createdAt!: number;
    updatedAt!: number;
}

/** One exchange of a customer with the AI agent (SPEC §3 'AI chat history record'). */
export class AiChatHistoryModel extends Model {
    static override tableName = 'ai_chat_history';
    static override booleanAttributes = ['isResolved'];
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number;
    sessionId!: string | null;
    phoneNumber!: string | null;
    domain!: string | null;
    userQuestion!: string;
    aiResponse!: string;
    isResolved!: boolean;
    fallbackAction!: string | null;
    /** services/triage.ts: pending, resolved or unresolved, why, and when it was decided. */
    triage!: AiTriage;
    triageReason!: AiTriageReason | null;
    triagedAt!: number | null;
    /** The source the answer came from (issue 30): 'knowledge', 'question' or 'store', its id and title then; null when none. */
    sourceKind!: 'knowledge' | 'question' | 'store' | null;
    sourceId!: number | null;
    sourceTitle!: string | null;
    /** On an answer picked among the agent's suggestions: the question it did not know just before (issue 30). */
    askedBefore!: string | null;
    createdAt!: number;
}

/** A tier-2 tool the agent called (counted by /api/ai-agent/sessions). */
export class AiFunctionCallModel extends Model {
    static override tableName = 'ai_function_calls';
    static override booleanAttributes = ['success'];
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number;
    sessionId!: string | null;
    functionName!: string;
    success!: boolean;
    createdAt!: number;
}

/** Whether the agent is enabled for an organization (no row: enabled). */
export class AiAgentSettingsModel extends Model {
    static override tableName = 'ai_agent_settings';
    static override idColumn = 'organization_id';
    static override booleanAttributes = ['isEnabled'];
    static override timestamps = { updated: true };
    organizationId!: number;
    isEnabled!: boolean;
    updatedAt!: number;
}
