import { iso } from '../../../core/db/model';
import { visitorLabel, visitorNumber } from '../../../core/shared/visitor';
import type { ChatMessageModel, ChatSessionModel, ChatStatus } from '../models';
import type { ChatMessage, ChatSession } from '../../../core/types/api';

/** The statuses of a chat still going on: waiting for an agent, or with one. */
export const OPEN_STATUSES: ChatStatus[] = ['waiting', 'agent_connected'];

export const SESSION_ROUTE = '/chat/sessions/{sessionId}';

/** Paths of the nes subscriptions (DESIGN §6). */
export const paths = {
    session: (sessionId: string) => `/chat/sessions/${sessionId}`,
    agents: (organizationId: number) => `/agents/${organizationId}`
};

// ---- the API shapes of core/types/api.ts ----------------------------------------------------------

export function toSession(row: ChatSessionModel): ChatSession {
    return {
        sessionId: row.sessionId,
        phoneNumber: row.phoneNumber,
        status: row.status,
        firstMessage: row.customerMessage,
        domain: row.domain,
        agentId: row.agentUserId,
        createdAt: iso(row.createdAt)!,
        startedAt: iso(row.createdAt)!,
        acceptedAt: iso(row.acceptedAt),
        endedAt: iso(row.endedAt),
        endedBy: row.endedBy,
        endReason: row.endReason,
        isStarred: row.isStarred,
        isArchived: row.isArchived,
        lastSeq: row.lastSeq,
        kind: row.kind ?? 'chat',
        visitorNumber: visitorNumber(row.widgetSessionId ?? row.sessionId),
        visitorLabel: visitorLabel(row.widgetSessionId ?? row.sessionId),
        pageUrl: row.pageUrl ?? null,
        lang: row.lang ?? null,
        customerEmail: row.customerEmail ?? null,
        customerName: row.customerName ?? null,
        inboxState: row.inboxState ?? null
    };
}

export function toMessage(row: ChatMessageModel, sessionId: string): ChatMessage {
    return {
        id: Number(row.id),
        sessionId,
        seq: row.seq,
        sender: row.sender,
        message: row.message,
        clientMessageId: row.clientMessageId,
        timestamp: iso(row.createdAt)!
    };
}
