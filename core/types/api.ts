/**
 * The JSON shapes of the HTTP and socket API, written once: the server's services build them and the admin
 * app (ui/src/api) reads them, both with `import type`, so this file must stay free of imports and values.
 */

export type Role = 'super_admin' | 'admin' | 'org_user';

// ---- tenants ------------------------------------------------------------------------------------

export interface Organization {
    id: number;
    name: string;
    domain: string;
    subdomain: string;
    subscriptionPlan: string;
    isActive: boolean;
    extraDomains: string[];
    storeName: string;
    createdAt: string | null;
}

export interface BotInstance {
    id: number;
    name: string;
    description: string | null;
    organizationId: number;
    organizationName?: string;
    subdomain?: string;
    isActive: boolean;
    publicKey: string;
    embedSnippet: string;
    createdAt: string | null;
}

export interface User {
    id: number;
    email: string;
    name: string | null;
    role: Role;
    organizationId: number | null;
    isActive: boolean;
    lastLoginAt: string | null;
    createdAt: string | null;
}

// ---- organization analytics (SPEC §2 'Organization', §7 GET /api/org/analytics) ----------------------

/** The totals the organization dashboard's Overview shows, over a date range. */
export interface OrganizationTotals {
    totalInteractions: number;
    loyaltyChecks: number;
    liveChatSessions: number;
    /** Percent with one decimal: codes that showed points out of all verification outcomes; 0 without any. */
    successRate: number;
}

/** GET /api/org/analytics: the caller's organization, its totals, and the range they cover (ISO strings). */
export interface OrganizationAnalytics extends OrganizationTotals {
    organizationId: number;
    name: string;
    domain: string;
    subdomain: string;
    from: string;
    to: string;
}

// ---- pre-made questions (SPEC §3 'Pre-made question') --------------------------------------------

/**
 * What the widget does when a question is chosen: show its answer, run the loyalty check (phone + code), or
 * reach live support. The behaviour follows the kind, never the question's text (issue 11).
 */
export type QuestionKind = 'answer' | 'loyalty_check' | 'live_support';
export const QUESTION_KINDS: readonly QuestionKind[] = ['answer', 'loyalty_check', 'live_support'];

export interface Question {
    id: number;
    question: string;
    answer: string;
    kind: QuestionKind;
    isActive: boolean;
    sortOrder: number;
    createdAt: string | null;
    updatedAt: string | null;
}

// ---- live chat (SPEC §3 'Chat session (live chat screen)', 'Chat message (admin)', 'Email settings') --

export type ChatStatus = 'waiting' | 'agent_connected' | 'completed' | 'failed_to_respond' | 'no_interaction';
export type Sender = 'customer' | 'agent' | 'system';

/** A stored chat message with its per-session sequence number and the sender's client message id. */
export interface ChatMessage {
    id: number;
    sessionId: string;
    seq: number;
    sender: Sender;
    message: string;
    clientMessageId: string | null;
    timestamp: string;
}

/** A live chat session, plus what the console shows (message count, agent, who ended it and why). */
export interface ChatSession {
    sessionId: string;
    phoneNumber: string;
    status: ChatStatus;
    firstMessage: string | null;
    domain: string | null;
    agentId: number | null;
    createdAt: string;
    startedAt: string;
    acceptedAt: string | null;
    endedAt: string | null;
    endedBy: string | null;
    endReason: string | null;
    isStarred: boolean;
    isArchived: boolean;
    lastSeq: number;
    messageCount?: number;
    waitSeconds?: number;
    messages?: ChatMessage[];
}

export interface EmailSettings {
    emailNotificationsEnabled: boolean;
    emailRecipient: string;
}
