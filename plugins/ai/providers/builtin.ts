import { e164 } from '../../../core/http/fields';
import { ABSTAIN_BELOW } from '../services/retrieval';
import { intentOf } from '../services/intents';
import type { AgentInput, AgentReply, AiProvider } from './types';
import type { AiSource } from '../../../core/types/api';
import { aiText } from '../texts';

/**
 * The agent did not know and a person is available: it asks before handing over (issue 30); the widget offers "Talk to
 * a person". These are the English texts; the customer reads them in their language (plugins/ai/locales, issue 27).
 */
export const ABSTAIN_TEXT = aiText('en', 'offerPerson');
/** The agent did not know and nobody is available: the widget opens the leave-a-message form. */
export const ABSTAIN_TEXT_NO_AGENTS = aiText('en', 'offerMessage');
export const OTHER_PHONE_TEXT = aiText('en', 'otherPhone');

/** Not knowing, in the customer's language: offering a person when one is available (asking first), else a message. */
export async function abstainReply(input: AgentInput, provider: AgentReply['provider']): Promise<AgentReply> {
    const confidence = input.retrieval.confidence;
    return await input.agentsAvailable()
        ? { answer: aiText(input.lang, 'offerPerson'), fallbackAction: 'offer_live_chat', sources: [], confidence, provider, code: 'ai.offer_person', abstained: true }
        : { answer: aiText(input.lang, 'offerMessage'), fallbackAction: 'leave_message', sources: [], confidence, provider, code: 'ai.offer_message', abstained: true };
}

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
                const other = aiText(input.lang, 'otherPhone');
                return reply(verified ? other : `${other} ${input.tools.verifyText}`, verified ? null : 'verify_phone');
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
        // Nothing handed over here: the customer chooses (the widget's "Talk to a person", or the form to leave a message).
        return abstainReply(input, this.name);
    }
}
