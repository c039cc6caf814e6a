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

export interface Question {
    id: number;
    question: string;
    answer: string;
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

// ---- AI agent (SPEC §3 'Knowledge entry', 'AI chat history record', 'AI status and sessions summary') ----

export interface KnowledgeEntry {
    id: number;
    title: string;
    content: string;
    isActive: boolean;
    createdAt: string | null;
    updatedAt: string | null;
}

/** What the agent offered instead of an answer from the store's knowledge (null: it answered). */
export type AiFallbackAction = 'live_chat' | 'questions' | 'verify_phone' | 'live_chat_unavailable';

export interface AiChatRecord {
    id: number;
    userQuestion: string;
    aiResponse: string;
    sessionId: string | null;
    phoneNumber: string | null;
    domain: string | null;
    createdAt: string | null;
    isResolved: boolean;
    fallbackAction: string | null;
}

export interface AiSource {
    id: number;
    title: string;
    /** knowledge entry, pre-made question, the store's information, or a tier-2 tool's result */
    kind?: 'knowledge' | 'question' | 'store' | 'tool';
}

/** POST /api/ai/chat */
export interface AiChatAnswer {
    answer: string;
    historyId: number;
    fallbackAction: AiFallbackAction | null;
    sources: AiSource[];
}

/** POST /api/ai/test: the answer plus what it was made from. */
export interface AiTestAnswer {
    answer: string;
    fallbackAction: AiFallbackAction | null;
    sources: AiSource[];
    confidence: number;
    provider: 'builtin' | 'openai';
    entries: Array<{ id: number; title: string; kind: 'knowledge' | 'question' | 'store'; score: number; confidence: number }>;
    tools: string[];
}

/** One exchange of a widget session with the agent (what a human agent sees on hand-off). */
export interface AiTurn {
    question: string;
    answer: string;
    fallbackAction: string | null;
    createdAt: string | null;
}

export interface AiStatus {
    enabled: boolean;
}

/** GET /api/ai-agent/sessions: SPEC §3 plus the answer and resolution rates (percent, one decimal). */
export interface AiSessionsSummary {
    activeSessions: number;
    todayFunctionCalls: number;
    verificationsToday: number;
    successRate: number;
    questions: number;
    answered: number;
    answerRate: number;
    resolved: number;
    resolutionRate: number;
    handoffs: number;
}
