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
    /** ISO 3166-1 alpha-2 (default US): phone numbers typed without a country code are read in it. */
    country: string;
    /** The languages the store's widget speaks (issue 27): a new store has every shipped one, English the default. */
    languages: StoreLanguages;
    createdAt: string | null;
}

/** A store's languages (PUT /api/widget/languages): BCP 47 tags of shipped languages; the default is one of them. */
export interface StoreLanguages {
    enabled: string[];
    default: string;
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
    /** How the widget looks on the store's pages (PUT /api/widget/bots/{id}/look). */
    look: BotLook;
    createdAt: string | null;
}

/** A bot instance's widget look: null fields mean the defaults (blue #2563eb, "{store} Support", SPEC §8 greeting). */
export interface BotLook {
    /** #rrggbb, dark enough for white text (≥ 4.5:1). */
    color: string | null;
    position: 'left' | 'right';
    title: string | null;
    greeting: string | null;
    /**
     * Per-language texts (issue 27): `texts[lang].title` / `.greeting` replace the catalogue's text in that language.
     * `title` and `greeting` above are the store's default language's; other languages without their own get the
     * catalogue's translation.
     */
    texts?: Record<string, { title: string | null; greeting: string | null; privacy?: string | null }>;
    /**
     * The privacy line shown before the customer's first message is kept (issue 25, consent): the store's own text in
     * its default language (others in texts[lang].privacy; null: the catalogue's), and the link to its privacy policy.
     */
    privacy?: string | null;
    privacyUrl?: string | null;
}

export interface User {
    id: number;
    email: string;
    name: string | null;
    /** What customers call this agent (issue 23); null: the first name of `name`, else of the email. */
    displayName: string | null;
    role: Role;
    organizationId: number | null;
    isActive: boolean;
    lastLoginAt: string | null;
    createdAt: string | null;
}

/** Why the server set an Available agent Away (issue 23): no activity, every tab closed, signed out. */
export type AwayReason = 'idle' | 'closed' | 'logout';

/** GET /api/chat/agent/status (and the activity report's answer): the agent's presence on every node. */
export interface AgentStatus {
    available: boolean;
    /** Open sockets (tabs) of this agent on every node. */
    connections: number;
    /** Why the server last set the agent Away (until they set Available again), and when. */
    awayReason: AwayReason | null;
    awayAt: string | null;
    /** AGENT_IDLE_MINUTES and AGENT_AWAY_GRACE_SECONDS, so the UI can say them and report activity often enough. */
    idleSeconds: number;
    graceSeconds: number;
}

/** The signed-in staff user's own profile (GET/PUT /api/admin/profile). */
export interface StaffProfile {
    id: number;
    email: string;
    name: string | null;
    displayName: string | null;
    /** The name customers see: displayName, else the first name. */
    shownName: string;
    /** The staff app's language for this agent (issue 27); null: the browser's, else English. */
    language: string | null;
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
    /** The organization's time zone, and one row per local day of the range (the dashboard's chart). */
    timeZone: string;
    daily: DailyRow[];
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
    /** The language it is written in (issue 27); null: the store's default language. */
    lang: string | null;
    createdAt: string | null;
    updatedAt: string | null;
}

// ---- live chat (SPEC §3 'Chat session (live chat screen)', 'Chat message (admin)', 'Email settings') --

export type ChatStatus = 'waiting' | 'agent_connected' | 'completed' | 'failed_to_respond' | 'no_interaction';
export type Sender = 'customer' | 'agent' | 'system';
/** A live chat, or a message left with the widget's form when no agent was available (issue 23). */
export type ChatKind = 'chat' | 'left_message';
/** A left message's place in the inbox: 'open' (to answer) until an agent marks it 'done'. */
export type LeftMessageState = 'open' | 'done';

/** A stored chat message with its per-session sequence number and the sender's client message id. */
export interface ChatMessage {
    id: number;
    sessionId: string;
    seq: number;
    sender: Sender;
    message: string;
    clientMessageId: string | null;
    timestamp: string;
    /** An agent message: the agent's first name (their name's first word, else their email before @). */
    agentName?: string;
    /** Photos and files sent with the message (issue 29); a message may be files only (message ''). */
    attachments?: ChatAttachment[];
}

/** A file in a chat (issue 29): its bytes are read through a short-lived signed URL (GET …/files/{id}/link). */
export interface ChatAttachment {
    id: string;
    name: string;
    mime: string;
    size: number;
    width: number | null;
    height: number | null;
}

/** A live chat session, plus what the console shows (message count, agent, who ended it and why). */
/** A customer's rating of a live chat (issue 28): 1 to 5 and an optional comment, once per chat. */
export interface ChatRating {
    score: number;
    comment: string | null;
    createdAt: string;
    source: 'widget' | 'mail';
}

/** GET /api/analytics/csat (issue 28): ratings and the per-agent report of a range, in the store's zone. */
export interface CsatReport {
    responses: number;
    /** Mean score, two decimals; 0 without responses. */
    average: number;
    distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
    byAgent: Array<{
        agentId: number;
        name: string;
        responses: number;
        average: number;
        chats: number;
        medianFirstResponseSeconds: number | null;
        medianHandlingSeconds: number | null;
    }>;
    daily: Array<{ date: string; responses: number; average: number }>;
    range: { startDate: string; endDate: string; timeZone: string };
}

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
    kind: ChatKind;
    /**
     * How staff tell customers without a verified phone apart (issue 23): a number from 1000 to 9999 derived from the
     * widget session id (core/shared/visitor.ts), the same for every chat and left message of that widget session;
     * `visitorLabel` is its English form ('Visitor 4821'), the admin app shows its own catalogue's.
     */
    visitorNumber: number;
    visitorLabel: string;
    /** The page the customer wrote from (origin and path), when the widget said. */
    pageUrl: string | null;
    /** The customer's language (a BCP 47 tag from the widget, issue 27), when the widget said. */
    lang: string | null;
    /** Left messages: the reply address, the name given (if any) and the inbox state; null for live chats. */
    customerEmail: string | null;
    customerName: string | null;
    inboxState: LeftMessageState | null;
    /** The customer's rating of the chat (issue 28), when they gave one (the console's conversation and History). */
    rating?: ChatRating | null;
    messageCount?: number;
    waitSeconds?: number;
    messages?: ChatMessage[];
    /** Console lists: the newest message (a preview) and the customer messages no agent has read yet. */
    lastMessage?: { sender: Sender; message: string; timestamp: string } | null;
    unreadCount?: number;
    agentReadSeq?: number;
}

export interface EmailSettings {
    emailNotificationsEnabled: boolean;
    emailRecipient: string;
}

// ---- analytics (SPEC §3, §7 /api/analytics/*) ------------------------------------------------------

export interface Pagination { page: number; limit: number; total: number; totalPages: number; hasNext: boolean; hasPrev: boolean }
export interface Paged<T> { data: T[]; pagination: Pagination }

/** SPEC §3 'Summary' plus the admin-home variant's fields, and the range it covers (local days). */
export interface AnalyticsSummary {
    totalInteractions: number;
    successfulVerifications: number;
    failedVerifications: number;
    pointsViewed: number;
    totalChatSessions: number;
    topDomains: Array<{ domain: string; count: number }>;
    successRate: number;
    activeDomains: number;
    loyaltyChecks: number;
    liveChatSessions: number;
    range: { startDate: string; endDate: string; timeZone: string };
}

export interface HourlyRow { hour: number; widget_loaded: number; widget_opened: number; verified: number; points_viewed: number }
export interface DailyRow {
    date: string; widget_loaded: number; widget_opened: number; verified: number; loyalty: number;
    points_viewed: number; order_history_viewed: number; live_chat_requested: number;
}

export interface CustomerLookupResult { found: boolean; email: string | null; name: string | null; alpineId: string | null; error?: string }

export interface PhoneRow {
    phoneNumber: string; totalInteractions: number; successfulVerifications: number; failedVerifications: number;
    lastPointsShown: number | null; lastActivity: string; successRate: number;
    /** The cached loyalty customer lookup, when one was made (GET /api/analytics/alpine-customer/{phone}). */
    lookup: CustomerLookupResult | null;
}

export interface PhoneActivityRow { action: string; success: boolean | null; pointsRetrieved: number | null; domain: string | null; timestamp: string }
export interface PhoneDetail {
    phoneNumber: string;
    summary: { totalInteractions: number; pointsViewings: number; latestPoints: number | null; averagePoints: number | null };
    pointsHistory: Array<{ points: number; domain: string | null; timestamp: string }>;
    actionBreakdown: Record<string, number>;
}

export interface DomainRow {
    domain: string; totalInteractions: number; successfulVerifications: number; failedVerifications: number;
    pointsViewed: number; liveChatRequests: number; lastActivity: string | null;
}
export interface DomainActivityRow { action: string; actionDescription: string; success: boolean | null; phoneNumber: string | null; timestamp: string }
export interface DomainDetail extends DomainRow { activity: DomainActivityRow[] }

export type FailureType = 'verify_failed' | 'verification_failed' | 'code_failed' | 'loyalty_verify_attempt' | 'no_success_after_attempt';
export interface FailedVerificationRow {
    phoneNumber: string | null; action: string; failureType: FailureType; domain: string | null; timestamp: string;
    /** False when the number as typed is not a possible phone number (kept as typed, digits only). */
    phoneValid: boolean;
}

export type AnalyticsChatStatus = 'completed' | 'ai_resolved' | 'ai_unresolved' | 'agent_connected' | 'active' | 'waiting' | 'failed_to_respond' | 'no_interaction';
export interface AnalyticsChatSession {
    sessionId: string; phoneNumber: string; status: AnalyticsChatStatus; messageCount: number; customerMessages: number;
    agentMessages: number; duration: number; waitTime: number; startedAt: string; endedAt: string | null;
    isStarred: boolean; isArchived: boolean;
}
export interface ChatDurations {
    totalCompletedSessions: number; averageDuration: number; maxDuration: number; minDuration: number;
    durationRanges: Record<string, number>;
    recentSessions: Array<{ sessionId: string; phoneNumber: string; startedAt: string; duration: number; status: AnalyticsChatStatus }>;
}
export interface ChatAnalytics {
    summary: { totalSessions: number; completedSessions: number; failedToRespondSessions: number };
    dailyTrends: Array<{ date: string; sessions: number; completed: number }>;
}
export interface ChatStatusFigures { activeSessions: number; waitingSessions: number }
export interface QuestionUsageRow { questionId: number; question: string; answer: string; count: number }

export interface OrderDetails {
    found: boolean; customerName: string | null; totalOrders: number;
    orders: Array<{ productName: string; quantity: number; price: number; orderDate: string }>; error?: string;
}
export interface OrderHistoryRow {
    phoneNumber: string | null; timestamp: string; success: boolean | null; errorMessage: string | null;
    domain: string | null; sessionId: string | null; orderDetails: OrderDetails | null;
}
export interface OrderHistoryResponse {
    summary: { totalViews: number; successfulViews: number; uniquePhones: number; uniqueDomains: number };
    orderHistory: OrderHistoryRow[];
    pagination: { page: number; totalPages: number; totalCount: number; limit: number };
}
export interface WebsocketStats { totalActiveChatConnections: number; totalAgentConnections: number; activeSessionIds: string[]; lastConnectionTime: string | null }
// ---- AI agent (SPEC §3 'Knowledge entry', 'AI chat history record', 'AI status and sessions summary') ----

export interface KnowledgeEntry {
    id: number;
    title: string;
    content: string;
    /** The language it is written in (issue 27: a shipped language's tag); null: the store's default language. */
    lang: string | null;
    /** Other ways customers ask for it (issue 30): the agent reads them with the title and content; customers never see them. */
    phrasings: string[];
    isActive: boolean;
    createdAt: string | null;
    updatedAt: string | null;
}

/** What the agent offered instead of an answer from the store's knowledge (null: it answered). */
/**
 * What the widget does after an answer: 'live_chat' hands over (the customer asked for a person), 'offer_live_chat'
 * asks first ("Talk to a person", issue 30: the agent did not know and someone is available), 'leave_message' opens
 * the leave-a-message form (nobody is available), 'questions' the quick questions, 'verify_phone' the phone step.
 */
export type AiFallbackAction = 'live_chat' | 'offer_live_chat' | 'leave_message' | 'questions' | 'verify_phone' | 'live_chat_unavailable';

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
    /** Where the answer stands (issue 23): resolved, unresolved, or pending until the customer's silence decides. */
    triage: AiTriage;
    /** Why: the customer's yes or no, a hand-off, the agent abstaining, the customer's silence, or staff. null while pending. */
    triageReason: AiTriageReason | null;
    /** The source the agent answered from (issue 30), with its title at the time; null when it answered from none. */
    answeredFrom: { kind: 'knowledge' | 'question' | 'store'; id: number; title: string } | null;
}

/**
 * GET /api/ai/knowledge/usage (issue 30): which sources answered customers' questions in the last 30 days, how often,
 * and the latest questions each answered. Most used first.
 */
export interface AiSourceUsage {
    kind: 'knowledge' | 'question' | 'store';
    id: number;
    title: string;
    answers: number;
    lastAnsweredAt: string | null;
    /** The latest distinct questions it answered (at most 5), newest first. */
    questions: string[];
}

/** An AI answer's standing (plugins/ai/services/triage.ts has the rule). */
export type AiTriage = 'pending' | 'resolved' | 'unresolved';
export const AI_TRIAGES: readonly AiTriage[] = ['pending', 'resolved', 'unresolved'];
export type AiTriageReason = 'customer_yes' | 'customer_no' | 'handoff' | 'abstained' | 'silence' | 'staff';

/** POST /api/ai/chat-history/resolve: how many answers were marked resolved (all asked, or none). */
export interface AiBulkResolveAnswer {
    resolved: number;
    records: AiChatRecord[];
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
    /** The stored exchange (for feedback); null when nothing was stored (the store's AI budget was spent). */
    historyId: number | null;
    fallbackAction: AiFallbackAction | null;
    sources: AiSource[];
    /**
     * Set when the widget shows the answer in its own words (widget/locales `error.<code>`): the store's AI budget is
     * spent, or the agent did not know and offers a person ('ai.offer_person') or a message ('ai.offer_message').
     */
    code?: 'ai.budget_reached' | 'ai.offer_person' | 'ai.offer_message';
    /**
     * When the agent did not know (issue 30): the store's entries closest to the question, at most 3, best first. The
     * widget offers them; a pick asks again with `pick` (AiChatPick.key) and is answered from that entry.
     */
    suggestions?: AiSuggestion[];
}

/** An entry the agent suggests when it did not know: `key` is what POST /api/ai/chat takes back as `pick`. */
export interface AiSuggestion {
    key: string;
    title: string;
}

/** The widget's steps in which a customer types to the bot (in live_chat every message goes to the agent). */
export type WidgetStep = 'initial' | 'questions' | 'identifier' | 'code' | 'success' | 'ai';

/** What a customer's message is (POST /api/widget/message; plugins/conversation/services/decide.ts). */
export type MessageKind =
    /** A phone number (E.164 in `phone`): the widget sends it a code. In the identifier step any number found; elsewhere one offered on its own or with a request for points. */
    | 'phone'
    /** In the code step: six digits (in `code`). */
    | 'code'
    /** In the code step: the code did not come ("I didn't get a code"): the widget offers to send another. */
    | 'resend'
    /** A request for a person. */
    | 'human'
    /** Asks for their own points: the phone step (with `leave` in the code step: the number was wrong, ask again). */
    | 'points'
    /** A question for the store's knowledge, the quick questions or the AI agent (`question` is what to ask). */
    | 'question'
    /** A change of mind with nothing else ("never mind", "cancel", "stop"). */
    | 'cancel'
    | 'greeting'
    /** Thanks or an acknowledgement ("ok", "yes"). */
    | 'thanks'
    /** Nothing to act on ("asdfgh", "???", digits that are no phone or code): `expected` names what the step wanted. */
    | 'garbage';

/** POST /api/widget/message: the one decision about a customer's message (DESIGN §10). */
export interface MessageDecision {
    kind: MessageKind;
    /**
     * The customer changed their mind about the step they were in ("never mind, what are your hours?"): leave it,
     * then act on the rest. Always true for 'cancel' and 'human'; false for a step's input (phone, code, resend).
     */
    leave: boolean;
    /** E.164: kind 'phone' (also on 'human' when the message carried one). */
    phone?: string;
    /** Six digits: kind 'code'. */
    code?: string;
    /** Kind 'question': what to ask, without the words before it ("never mind", "hi"). */
    question?: string;
    /** The quick question the message is (its text, typed). */
    questionId?: number;
    /** Kind 'question': the source the store's AI agent is confident about. */
    knowledge?: { kind: 'knowledge' | 'question' | 'store'; id: number; title: string; confidence: number };
    /** Kind 'garbage' in the identifier or code step: what the step expected. */
    expected?: 'phone' | 'code';
    /** Whose words were read: the customer's language when the server has its words, else English. */
    lang: string;
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

// ---- the agent console (GET /api/chat/history, /api/chat/session/{id}/context, /api/chat/canned-replies) ----

export interface HistoryPage {
    sessions: Array<ChatSession & { match?: { seq: number; message: string } | null }>;
    total: number;
    /** A message search counts at most 200 chats (the newest matching ones): true when more match than `total`. */
    totalCapped?: boolean;
    page: number;
    pageSize: number;
}

/** GET /api/chat/left-messages: the store's left messages in one state, and the inbox's counts. */
export interface LeftMessagesPage {
    messages: ChatSession[];
    /** Open left messages, and those of them with a customer message no agent has read. */
    open: number;
    unread: number;
}

/** POST /api/chat/left-messages/{sessionId}/reply: the reply as stored (after it was mailed), and the conversation. */
export interface LeftMessageReply {
    message: ChatMessage;
    session: ChatSession;
    /** Where it was mailed, and the Reply-To it carried (the store's address). */
    to: string;
    replyTo: string;
}

export interface CustomerOrder {
    orderRef?: string | null;
    productName: string;
    quantity: number;
    price: number;
    orderDate: string;
}

/** What the agent sees beside a conversation. */
export interface CustomerContext {
    sessionId: string;
    phoneNumber: string | null;
    /** True when the customer proved the phone with an SMS code in this widget session. */
    phoneVerified: boolean;
    customer: { name: string | null; email: string | null; loyaltyId: string | null; points: number } | null;
    orders: CustomerOrder[];
    /** Why loyalty data is missing: no phone, not found, or the provider's error. */
    loyaltyError: string | null;
    previousChats: ChatSession[];
    /** The AI agent's conversation before the hand-off, when the AI plugin offers it. */
    aiConversation: unknown[] | null;
}

export interface CannedReply {
    id: string;
    kind: 'question' | 'knowledge';
    title: string;
    text: string;
}

// ---- customers' data and the audit trail (issue 25): the privacy plugin's answers, read by the admin app ----

/** Something the store keeps outside the product (its loyalty provider's account): named in exports and erasures. */
export interface ExternalRecord {
    holder: string;
    what: string;
    action: string;
}

/** POST /api/privacy/customers/find */
export interface PersonFound {
    /** The phone in E.164 and the email as the tables keep them. */
    phone: string | null;
    email: string | null;
    /** The keyed hash the audit trail names them by. */
    subject: string | null;
    /** Rows about them, by plugin and table (only tables with at least one). */
    counts: Record<string, number>;
    total: number;
    sessions: number;
    external: ExternalRecord[];
}

/** POST /api/privacy/customers/erase: rows deleted by `plugin.table`, and what must be done outside. */
export interface ErasureResult {
    erased: Record<string, number>;
    total: number;
    external: ExternalRecord[];
}

/** One row of GET /api/privacy/audit. */
export interface AuditRow {
    id: number;
    organizationId: number | null;
    actorUserId: number | null;
    actorRole: string | null;
    /** The staff member's email (null: the CLI, a refused sign-in, or a user deleted since). */
    actorEmail: string | null;
    action: string;
    target: string | null;
    subjectHash: string | null;
    details: Record<string, unknown> | null;
    ip: string | null;
    createdAt: string;
}

/** GET /api/privacy/audit: a page of the trail, newest first, with the zone its times are read in. */
export interface AuditPage {
    rows: AuditRow[];
    total: number;
    timeZone: string;
}
