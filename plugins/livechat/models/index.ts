import { BaseModel } from '../../../core/db/base-model';
import type { ChatStatus, Sender } from '../../../core/types/api';

export type { ChatStatus, Sender };

export class ChatSessionModel extends BaseModel {
    static override tableName = 'chat_sessions';
    static override booleanColumns = ['is_starred', 'is_archived'];
    id!: number;
    organization_id!: number;
    bot_instance_id!: number | null;
    session_id!: string;
    widget_session_id!: string | null;
    phone_number!: string;
    status!: ChatStatus;
    customer_message!: string | null;
    domain!: string | null;
    agent_user_id!: number | null;
    last_seq!: number;
    is_starred!: boolean;
    is_archived!: boolean;
    ended_by!: string | null;
    end_reason!: string | null;
    created_at!: number;
    accepted_at!: number | null;
    ended_at!: number | null;
    updated_at!: number;
}

export class ChatMessageModel extends BaseModel {
    static override tableName = 'chat_messages';
    id!: number;
    organization_id!: number;
    chat_session_id!: number;
    seq!: number;
    sender!: Sender;
    sender_user_id!: number | null;
    message!: string;
    client_message_id!: string | null;
    created_at!: number;
}

export class AgentPresenceModel extends BaseModel {
    static override tableName = 'agent_presence';
    static override idColumn = 'user_id';
    static override booleanColumns = ['available'];
    user_id!: number;
    organization_id!: number;
    available!: boolean;
    connections!: number;
    last_seen_at!: number;
}

export class EmailSettingsModel extends BaseModel {
    static override tableName = 'email_settings';
    static override idColumn = 'organization_id';
    static override booleanColumns = ['email_notifications_enabled'];
    organization_id!: number;
    email_notifications_enabled!: boolean;
    email_recipient!: string | null;
    updated_at!: number;
}

export class EmailOutboxModel extends BaseModel {
    static override tableName = 'email_outbox';
    id!: number;
    organization_id!: number | null;
    to_address!: string;
    subject!: string;
    body_text!: string;
    body_html!: string | null;
    transport!: string;
    status!: string;
    error!: string | null;
    created_at!: number;
}
