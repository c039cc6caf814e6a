/** The API shapes of routing, hand-over and internal notes (issue 26), shared with the admin app. */

/** GET|PUT /api/chat/routing-settings. */
export interface RoutingSettings {
    /** New chats are offered to the available agents one at a time (off: they wait in the queue for an Accept). */
    autoAssign: boolean;
    /** How long an agent has to accept an offered chat (CHAT_OFFER_SECONDS). */
    offerSeconds: number;
}

export type TeamPresence = 'available' | 'away' | 'offline';

/** One of the store's staff on the team page (GET /api/chat/team). */
export interface TeamMember {
    id: number;
    name: string | null;
    /** What customers read (the profile's display name, else the first name). */
    agentName: string;
    email: string;
    role: 'admin' | 'org_user';
    /** Only admins answer chats. */
    isAgent: boolean;
    presence: TeamPresence;
    openChats: number;
    /** Chats offered to them that they have not accepted yet. */
    pendingOffers: number;
    capacity: number;
}

/** A chat offered to one agent until expiresAt (waiting list entries carry it). */
export interface ChatOffer {
    agentId: number;
    agentName: string;
    expiresAt: string;
}

/** A staff-only note of a conversation, or the note a transfer carried. */
export interface ChatNote {
    id: number;
    sessionId: string;
    kind: 'note' | 'transfer';
    text: string;
    authorId: number | null;
    authorName: string | null;
    /** A transfer's receiving agent. */
    toAgentId: number | null;
    toAgentName: string | null;
    clientNoteId: string;
    timestamp: string;
}

export type RoutingEventType = 'assigned' | 'offer_lapsed' | 'returned_to_queue' | 'transferred' | 'first_response';

/** What routing recorded (for the per-agent report of the ratings-and-reports work). */
export interface RoutingEvent {
    type: RoutingEventType;
    organizationId: number;
    sessionId: string;
    agentId: number | null;
    fromAgentId: number | null;
    /** assigned: 'offer' (accepted an offer), 'manual' (Accept in the queue) or 'transfer'. */
    how: string | null;
    /** first_response: ms from the customer's request to the first agent message. */
    valueMs: number | null;
    at: string;
}
