import type { RelationMappings } from 'objection';
import { Model } from '../../../core/db/model';
import type { HoursException, WeeklyRange, WhenClosed } from '../../../core/shared/support-hours';
import type { AwayReason, ChatKind, ChatStatus, LeftMessageState, Sender } from '../../../core/types/api';

export type { ChatKind, ChatStatus, LeftMessageState, Sender };

/** A live chat (chat_sessions): its messages are the `messages` relation, in sequence order. */
export class ChatSessionModel extends Model {
    static override tableName = 'chat_sessions';
    static override booleanAttributes = ['isStarred', 'isArchived', 'customerGoneNotified'];
    static override timestamps = { created: true, updated: true };

    static override get relationMappings(): RelationMappings {
        return {
            messages: {
                relation: Model.HasManyRelation,
                modelClass: ChatMessageModel,
                join: { from: 'chat_sessions.id', to: 'chat_messages.chat_session_id' }
            }
        };
    }

    id!: number;
    organizationId!: number;
    botInstanceId!: number | null;
    sessionId!: string;
    widgetSessionId!: string | null;
    phoneNumber!: string;
    status!: ChatStatus;
    /** The first message (the API's firstMessage). */
    customerMessage!: string | null;
    domain!: string | null;
    agentUserId!: number | null;
    lastSeq!: number;
    /** The last message an agent of the store has read (unread = customer messages after it). */
    agentReadSeq!: number;
    isStarred!: boolean;
    isArchived!: boolean;
    endedBy!: string | null;
    endReason!: string | null;
    createdAt!: number;
    acceptedAt!: number | null;
    endedAt!: number | null;
    updatedAt!: number;
    /** When the customer's last socket of this open chat closed (null while connected, or never connected). */
    customerGoneAt!: number | null;
    /** The agents were told 'Customer Disconnected' for the current absence. */
    customerGoneNotified!: boolean;
    /** 'chat' (a live chat) or 'left_message' (the widget's leave-a-message form: a conversation answered by email). */
    kind!: ChatKind;
    /** A left message's reply address, and the name the customer gave (if any). */
    customerEmail!: string | null;
    customerName!: string | null;
    /** The page the customer wrote from (origin and path; no query or fragment). */
    pageUrl!: string | null;
    /** A left message: the customer's language (a BCP 47 tag from the widget), for the replies' mails. */
    lang!: string | null;
    /** A left message: 'open' until an agent marks it done; null for live chats. */
    inboxState!: LeftMessageState | null;

    messages?: ChatMessageModel[];
    /** Selected with `relatedQuery('messages').count().as('message_count')` where a list shows it. */
    messageCount?: number;
}

export class ChatMessageModel extends Model {
    static override tableName = 'chat_messages';
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number;
    chatSessionId!: number;
    seq!: number;
    sender!: Sender;
    senderUserId!: number | null;
    message!: string;
    clientMessageId!: string | null;
    createdAt!: number;
}

/** One row per agent (user), shared by every node: connected sockets, Available, last seen. */
export class AgentPresenceModel extends Model {
    static override tableName = 'agent_presence';
    static override idColumn = 'user_id';
    static override booleanAttributes = ['available'];
    userId!: number;
    organizationId!: number;
    available!: boolean;
    /** No longer written (agent_connections counts the sockets); kept for older nodes during an upgrade. */
    connections!: number;
    lastSeenAt!: number;
    /** The UI's last reported activity (mouse or keyboard in any tab), epoch ms. */
    lastActiveAt!: number | null;
    /** When the agent's last socket closed; null while one is open. */
    disconnectedAt!: number | null;
    /** Why the server last set the agent Away (idle, closed, logout), and when; cleared when they set Available. */
    awayReason!: AwayReason | null;
    awayAt!: number | null;
}


/** One open agent socket on one node (issue 23), refreshed by that node; rows of a stopped node expire. */
export class AgentConnectionModel extends Model {
    static override tableName = 'agent_connections';
    id!: string;
    userId!: number;
    organizationId!: number;
    nodeId!: string;
    connectedAt!: number;
    lastSeenAt!: number;
}

export class EmailSettingsModel extends Model {
    static override tableName = 'email_settings';
    static override idColumn = 'organization_id';
    static override booleanAttributes = ['emailNotificationsEnabled'];
    static override timestamps = { updated: true };
    organizationId!: number;
    emailNotificationsEnabled!: boolean;
    emailRecipient!: string | null;
    updatedAt!: number;
}

export class EmailOutboxModel extends Model {
    static override tableName = 'email_outbox';
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number | null;
    toAddress!: string;
    subject!: string;
    bodyText!: string;
    bodyHtml!: string | null;
    /** Reply-To (e.g. a reply to a left message answers to the store's address). */
    replyTo!: string | null;
    transport!: string;
    status!: string;
    error!: string | null;
    createdAt!: number;
}

/** A store's support hours (issue 26): no row = always open. weekly / exceptions are JSON (core/shared/support-hours.ts). */
export class SupportHoursModel extends Model {
    static override tableName = 'support_hours';
    static override idColumn = 'organization_id';
    static override jsonAttributes = ['weekly', 'exceptions'];
    static override timestamps = { updated: true };
    organizationId!: number;
    weekly!: WeeklyRange[];
    exceptions!: HoursException[];
    whenClosed!: WhenClosed;
    updatedAt!: number;
}
