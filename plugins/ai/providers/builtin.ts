import { e164 } from '../../../core/http/fields';
import { ABSTAIN_BELOW } from '../services/retrieval';
import { intentOf } from '../services/intents';
import type { AgentInput, AgentReply, AiProvider } from './types';
import type { AiSource } from '../../../core/types/api';

export const ABSTAIN_TEXT = 'I\'m not sure about that one. I can connect you with a member of our team, or you can pick one of the questions below.';
export const ABSTAIN_TEXT_NO_AGENTS = 'I\'m not sure about that one. Please pick one of the questions below, or try again later when our team is available.';
export const OTHER_PHONE_TEXT = 'For your privacy I can only look up the loyalty account of the phone number verified in this chat.';

const ACCOUNT_SOURCE: AiSource = { id: 0, title: 'Your loyalty account', kind: 'tool' };

/** Phone numbers a question mentions (E.164), to refuse looking up someone else's account. */
export function phonesIn(text: string): string[] {
    const found = text.match(/\+?\d[\d ().-]{6,18}\d/g) ?? [];
    return found.map((p) => e164(p)).filter((p): p is string => !!p);
}

/**
 * The built-in, offline agent (DESIGN §7): a tier-2 question goes to its tool (which needs the phone this
 * widget session verified), a request for a human to the hand-off, anything else to retrieval, answered from
 * the best source when confident and abstained on otherwise.
 */
export class BuiltinProvider implements AiProvider {
    readonly name = 'builtin' as const;

    async answer(input: AgentInput): Promise<AgentReply> {
        const reply = (answer: string, fallbackAction: AgentReply['fallbackAction'], sources: AiSource[] = [], confidence = 1): AgentReply =>
            ({ answer, fallbackAction, sources, confidence, provider: this.name });
        const mentioned = phonesIn(input.question);
        const intent = mentioned.length && /\b(points?|balance|orders?|purchases?|bought)\b/i.test(input.question)
            ? 'points' : intentOf(input.question);
        if (intent === 'human') {
            const result = await input.tools.transfer();
            return result.ok ? reply(result.text, 'live_chat') : reply(result.text, 'questions');
        }
        if (intent === 'points' || intent === 'orders' || intent === 'recommendations') {
            const verified = await input.tools.verifiedPhone();
            if (mentioned.some((phone) => phone !== verified)) {
                return reply(verified ? OTHER_PHONE_TEXT : `${OTHER_PHONE_TEXT} ${input.tools.verifyText}`, verified ? null : 'verify_phone');
            }
            const result = await input.tools.run(intent);
            if (!result.ok) {
                return reply(result.text, result.needs === 'verify_phone' ? 'verify_phone' : 'questions');
            }
            return reply(result.text, null, [ACCOUNT_SOURCE]);
        }
        const top = input.retrieval.hits[0];
        if (top && input.retrieval.confidence >= ABSTAIN_BELOW) {
            return reply(top.source.answer, null, [{ id: top.source.id, title: top.source.title, kind: top.source.kind }], input.retrieval.confidence);
        }
        const abstain = await input.agentsAvailable()
            ? reply(ABSTAIN_TEXT, 'live_chat', [], input.retrieval.confidence)
            : reply(ABSTAIN_TEXT_NO_AGENTS, 'questions', [], input.retrieval.confidence);
        return { ...abstain, abstained: true };
    }
}
