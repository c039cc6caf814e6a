import type { AiTurn } from '../../../core/types/api';
import { intentOf } from './intents';
import { ABSTAIN_BELOW, KnowledgeIndex, RetrievalResult } from './retrieval';

/** A turn older than this is no longer the conversation a follow-up continues (the widget's active-session window). */
export const FOLLOW_UP_WITHIN_MS = 30 * 60_000;

/** How a question shows it continues the last one: "and …", "what about …", a pronoun, or only a word or two. */
const MARKERS = /^\s*(and|also|plus|or|but|what about|how about|what if|and if|same for|even)\b|\b(it|its|that|this|they|them|those|these|there|one|ones)\b/i;

/** How much surer the question alone must be to win over the question read with the conversation. */
export const FOLLOW_UP_MARGIN = 0.3;

export function looksLikeFollowUp(question: string, terms: readonly string[]): boolean {
    return MARKERS.test(question.replace(/[’‘]/g, '\'')) || terms.length <= 2;
}

export interface ContextualRetrieval {
    retrieval: RetrievalResult;
    /** The earlier question this one was read with, or null when it was read alone. */
    context: string | null;
}

/**
 * Conversation memory of the built-in retrieval (issue 30): the last question of the session (within
 * FOLLOW_UP_WITHIN_MS, not a request for a tool or a human) is read together with a question that looks like its
 * follow-up ("and to Canada?", "what about in store?", "is it free?"). The two read together win when they are
 * confident and at least as sure as the question alone; a follow-up that stands on its own ("and what about
 * returns?" after shipping) keeps its own answer.
 */
export function retrieveInContext(index: KnowledgeIndex, question: string, history: readonly AiTurn[], now = Date.now()): ContextualRetrieval {
    const alone = index.query(question);
    const context = followUpContext(index, question, history, now, alone.terms);
    if (context === null) {
        return { retrieval: alone, context: null };
    }
    const together = index.query(question, 3, context);
    if (together.confidence >= ABSTAIN_BELOW && together.confidence >= alone.confidence - FOLLOW_UP_MARGIN) {
        return { retrieval: together, context };
    }
    return { retrieval: alone, context: null };
}

/**
 * The earlier question(s) a question would be read with when it looks like a follow-up of the session's last one, or
 * null.
 */
export function followUpContext(index: KnowledgeIndex, question: string, history: readonly AiTurn[], now = Date.now(),
    terms: readonly string[] = index.terms(question)): string | null {
    const last = history[history.length - 1];
    if (!last || intentOf(last.question) || !looksLikeFollowUp(question, terms)) {
        return null;
    }
    const at = last.createdAt ? Date.parse(last.createdAt) : NaN;
    if (Number.isFinite(at) && now - at > FOLLOW_UP_WITHIN_MS) {
        return null;
    }
    // The last question may itself have been a follow-up ("and how much is it?"): read it with the one before.
    const before = history[history.length - 2];
    if (before && !intentOf(before.question) && looksLikeFollowUp(last.question, index.terms(last.question))) {
        return `${before.question} ${last.question}`;
    }
    return last.question;
}
