import type { KnowledgeMatch } from '../../../core/types/knowledge';
import type { MessageDecision, MessageKind, WidgetStep } from '../../../core/types/api';
import { Lexicon, lexiconsFor, WordKind } from '../words';
import { digitCount, findCode, findPhone } from './phones';
import { hasLetter, hasQuestionMark, isGibberish, Token, tokens } from './text';

/**
 * The one decision about a customer's message (DESIGN §9, §10; issue 23): given the step the widget is in, the text,
 * the customer's language and the store, what the message is. Pure: the store's country, its quick questions and what
 * its AI knowledge says about the text are passed in (conversation-service.ts gathers them). The widget acts on the
 * answer (widget/src/moves.ts): no step swallows a message that is not its input, and every step can be left.
 */

/** The widget's steps in which a customer types to the bot (in live_chat every message goes to the agent). */
export const DECISION_STEPS = ['initial', 'questions', 'identifier', 'code', 'success', 'ai'] as const satisfies readonly WidgetStep[];
export type DecisionStep = WidgetStep;
export type DecisionKind = MessageKind;
/** The answer (core/types/api.ts, shared with the widget). */
export type Decision = MessageDecision;

export interface QuickQuestion {
    id: number;
    question: string;
    kind: 'answer' | 'loyalty_check' | 'live_support';
}

export interface DecisionInput {
    step: DecisionStep;
    text: string;
    /** The customer's language (BCP 47): its words and English's are read. */
    lang?: string | null;
    /** The store's country (ISO 3166-1 alpha-2) for numbers typed without a country code. */
    country?: string | null;
    /** The store's active quick questions: a message that is one of them does what choosing it does. */
    questions?: readonly QuickQuestion[];
    /** What the store's AI knowledge says about `topicOf(text)` (null: the agent is off or was not asked). */
    knowledge?: KnowledgeMatch | null;
}

/** Reads one message with the lexicons of a language (and English). */
class Reader {
    readonly lang: string;
    private readonly lexicons: Lexicon[];

    constructor(lang: string | null | undefined) {
        const found = lexiconsFor(lang);
        this.lang = found[0].lang;
        this.lexicons = found.map((f) => f.lexicon);
    }

    /** The longest phrase of these kinds (the first kind wins a tie) that starts at word i. */
    at(words: readonly string[], i: number, kinds: readonly WordKind[]): { kind: WordKind; length: number } | null {
        let best: { kind: WordKind; length: number } | null = null;
        for (const kind of kinds) {
            for (const lexicon of this.lexicons) {
                for (const phrase of lexicon[kind]) {
                    if (best && phrase.length <= best.length) {
                        break;          // longest first: nothing longer follows
                    }
                    if (i + phrase.length <= words.length && phrase.every((w, j) => words[i + j] === w)) {
                        best = { kind, length: phrase.length };
                        break;
                    }
                }
            }
        }
        return best;
    }

    has(words: readonly string[], kind: WordKind): boolean {
        return words.some((_, i) => this.at(words, i, [kind]) !== null);
    }

    /** The kinds that make up the whole message, or null when a word is none of them. */
    covers(words: readonly string[], kinds: readonly WordKind[]): Set<WordKind> | null {
        const used = new Set<WordKind>();
        for (let i = 0; i < words.length;) {
            const match = this.at(words, i, kinds);
            if (!match) {
                return null;
            }
            used.add(match.kind);
            i += match.length;
        }
        return used;
    }

    /** The first word after a run of phrases of these kinds from word i. */
    skip(words: readonly string[], i: number, kinds: readonly WordKind[]): number {
        for (let match = this.at(words, i, kinds); match; match = this.at(words, i, kinds)) {
            i += match.length;
        }
        return i;
    }
}

const OPENERS: WordKind[] = ['greeting', 'thanks', 'filler', 'connective'];

interface Split {
    /** The words after greetings, filler and a change of mind, as typed (with the connectives just before them). */
    topic: string;
    topicTokens: Token[];
    /** A change-of-mind phrase opened the message. */
    leave: boolean;
}

function split(text: string, reader: Reader, all: Token[]): Split {
    const words = all.map((t) => t.norm);
    let i = reader.skip(words, 0, OPENERS);
    const cancel = reader.at(words, i, ['cancel']);
    if (cancel) {
        i = reader.skip(words, i + cancel.length, OPENERS);
    }
    const rest = all.slice(i);
    // The connectives right before it stay in the topic ("um, and to Canada?" → "and to Canada?"): the AI agent reads
    // the message as a follow-up by them, and the customer's words stay theirs where they are shown again.
    let start = i;
    while (start > 0 && reader.at(words, start - 1, ['connective'])?.length === 1) {
        start--;
    }
    // From the end of what was skipped, so that a '¿' before the question stays; not the separators after it.
    const from = start > 0 ? all[start - 1].end : 0;
    return { topic: rest.length ? text.slice(from).replace(/^[\s,.;:!…—–-]+/u, '').trim() : '', topicTokens: rest, leave: !!cancel };
}

/**
 * What the decision asks the store's knowledge about: the message without the greetings, filler and change of mind
 * before it ("never mind, what are your store hours?" → "what are your store hours?").
 */
export function topicOf(text: string, lang?: string | null): string {
    return split(text.trim(), new Reader(lang), tokens(text.trim())).topic;
}

function sameText(a: readonly Token[], b: readonly Token[]): boolean {
    return a.length > 0 && a.length === b.length && a.every((t, i) => t.norm === b[i].norm);
}

export function decide(input: DecisionInput): Decision {
    const text = input.text.trim();
    const reader = new Reader(input.lang);
    const lang = reader.lang;
    const step = input.step;
    const inStep = step === 'identifier' || step === 'code';
    const expected = step === 'identifier' ? 'phone' as const : step === 'code' ? 'code' as const : undefined;
    const answer = (kind: DecisionKind, leave: boolean, extra: Partial<Decision> = {}): Decision => ({ kind, leave, ...extra, lang });
    const garbage = () => answer('garbage', false, expected ? { expected } : {});

    const all = tokens(text);
    const words = all.map((t) => t.norm);
    const { topic, topicTokens, leave } = split(text, reader, all);
    const topicWords = topicTokens.map((t) => t.norm);

    // A quick question typed (whole, or after "never mind"): what choosing it does.
    const quick = (input.questions ?? []).find((q) => {
        const own = tokens(q.question);
        return sameText(all, own) || sameText(topicTokens, own);
    });
    if (quick) {
        return quick.kind === 'live_support' ? answer('human', true, { questionId: quick.id })
            : quick.kind === 'loyalty_check' ? answer('points', false, { questionId: quick.id })
                : answer('question', leave, { question: quick.question, questionId: quick.id });
    }

    // The whole message is politeness, or a change of mind.
    const social = words.length ? reader.covers(words, OPENERS) : null;
    if (social) {
        return social.has('greeting') ? answer('greeting', false) : social.has('thanks') ? answer('thanks', false) : garbage();
    }
    const cancelled = words.length ? reader.covers(words, ['cancel', 'cancelAlone', ...OPENERS]) : null;
    if (cancelled && (cancelled.has('cancel') || cancelled.has('cancelAlone'))) {
        return answer('cancel', true);
    }

    const phone = findPhone(text, input.country);
    const withoutPhone = phone ? `${text.slice(0, phone.start)} ${text.slice(phone.end)}` : text;
    const code = step === 'code' ? findCode(withoutPhone) : null;
    const letters = topicTokens.filter(hasLetter);
    const real = letters.filter((t) => !isGibberish(t.norm) && !reader.covers([t.norm], ['noise', 'filler', 'connective']));
    const confident = !!input.knowledge?.confident;
    const knowledge = confident && input.knowledge
        ? { knowledge: { kind: input.knowledge.kind, id: input.knowledge.id, title: input.knowledge.title, confidence: input.knowledge.confidence } }
        : {};
    const question = () => answer('question', leave, { question: topic, ...knowledge });
    const asks = (hasQuestionMark(topic) && letters.length > 0)
        || reader.at(topicWords, reader.skip(topicWords, 0, ['filler']), ['questionStart']) !== null;
    const points = reader.has(topicWords, 'points') && !reader.has(topicWords, 'notBalance');

    if (reader.has(words, 'human')) {
        return answer('human', true, phone ? { phone: phone.number } : {});
    }
    if (step === 'code') {
        if (code) {
            return answer('code', false, { code });
        }
        if (reader.has(words, 'resend')) {
            return answer('resend', false);
        }
    }
    if (phone && (inStep || points || (!asks && real.length <= 4))) {
        return answer('phone', false, { phone: phone.number });
    }
    if (step === 'code' && reader.has(words, 'otherPhone')) {
        return answer('points', true);
    }
    if (leave && !real.length && !digitCount(topic)) {
        return answer('cancel', true);
    }
    if (reader.has(topicWords, 'humanWeak') && !confident) {
        return answer('human', true);
    }
    if (points && !confident) {
        return answer('points', false);
    }
    if (inStep && digitCount(topic) >= 4 && !asks) {
        return garbage();       // a wrong phone or code, whatever the knowledge says about the words around it
    }
    if (confident) {
        return question();
    }
    if (inStep) {
        // In a step, only what is clearly a question leaves the input expected: the rest is a wrong phone or code.
        if (asks && real.length) {
            return question();
        }
        return leave && real.length ? question() : garbage();
    }
    return real.length ? question() : garbage();
}
