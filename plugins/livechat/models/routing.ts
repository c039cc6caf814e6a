import { Model } from '../../../core/db/model';

/** A store's routing setting (issue 26): auto-assign new chats to the available agents, or leave them in the queue. */
export class RoutingSettingsModel extends Model {
    static override tableName = 'chat_routing_settings';
    static override idColumn = 'organization_id';
    static override booleanAttributes = ['autoAssign'];
    static override timestamps = { updated: true };
    organizationId!: number;
    autoAssign!: boolean;
    updatedAt!: number;
}

/** An agent's capacity (concurrent chats) and when they last got a chat. */
export class AgentCapacityModel extends Model {
    static override tableName = 'agent_capacity';
    static override idColumn = 'user_id';
    static override timestamps = { updated: true };
    userId!: number;
    organizationId!: number;
    capacity!: number;
    lastAssignedAt!: number | null;
    updatedAt!: number;
}

export type OfferState = 'offered' | 'accepted' | 'lapsed' | 'cancelled';

/** A chat offered to one agent until expiresAt (every node's sweep lapses it after). */
export class ChatOfferModel extends Model {
    static override tableName = 'chat_offers';
    id!: number;
    organizationId!: number;
    chatSessionId!: number;
    userId!: number;
    state!: OfferState;
    offeredAt!: number;
    expiresAt!: number;
    settledAt!: number | null;
}

/** A staff-only note of a conversation, or the note of a transfer. */
export class ChatNoteModel extends Model {
    static override tableName = 'chat_notes';
    static override timestamps = { created: true };
    id!: number;
    organizationId!: number;
    chatSessionId!: number;
    userId!: number | null;
    kind!: 'note' | 'transfer';
    text!: string;
    toUserId!: number | null;
    clientNoteId!: string;
    createdAt!: number;
}

export type RoutingEventType = 'assigned' | 'offer_lapsed' | 'returned_to_queue' | 'transferred' | 'first_response';

/** What routing recorded about a chat, for the per-agent report (read through livechat's service). */
export class RoutingEventModel extends Model {
    static override tableName = 'chat_routing_events';
    id!: number;
    organizationId!: number;
    chatSessionId!: number;
    type!: RoutingEventType;
    agentUserId!: number | null;
    fromUserId!: number | null;
    how!: string | null;
    valueMs!: number | null;
    at!: number;
}
