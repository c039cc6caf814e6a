import type { MessageDecision } from '../../core/types/api';
import type { FlowState } from './flow';

/**
 * What the widget does with the server's decision about a typed message (issue 23; the decision: POST
 * /api/widget/message, plugins/conversation). Pure, like the reducer: the panel carries the move out (conversation.ts).
 * No step swallows a message that is not its input: a question asked in the phone or code step is answered and the
 * step offered again, a change of mind leaves it, anything else gets one error line and the step stays.
 */
export type Move =
    /** Send a code to this phone (POST /api/loyalty/verify): the code step. */
    | { type: 'send_code'; phone: string }
    /** Check the code (POST /api/loyalty/view). */
    | { type: 'check_code'; code: string }
    /** "I didn't get a code": offer to send another to the phone of this step (the Send a new code chip). */
    | { type: 'offer_resend' }
    /** A person (availability, then live chat or the leave-a-message form). */
    | { type: 'live'; message: string }
    /** Ask the AI agent; `stay`: the customer is in the phone or code step, which is offered again after the answer. */
    | { type: 'ask_ai'; question: string; stay: boolean }
    /** Show a quick question's answer; `stay` as above. */
    | { type: 'answer'; questionId: number; stay: boolean }
    /** Ask for the phone: the identifier step. */
    | { type: 'ask_phone' }
    /** Offer the step the customer is in again ("Would you still like to check your points? …"), after `fallback`
     * ("I'm not sure about that one…") for a question nobody can answer (no AI agent). */
    | { type: 'again'; fallback?: boolean }
    /** Say this and go back to the questions. */
    | { type: 'reply'; text: 'moreHelp' | 'greetingReply' | 'fallback' }
    /** One error line for what the step expected; the step stays. */
    | { type: 'not_input'; expected: 'phone' | 'code' };

export interface MoveContext {
    /** The store has the AI agent on. */
    aiEnabled: boolean;
    /** The quick questions (their kind decides, never their text). */
    questions: ReadonlyArray<{ id: number; kind: string }>;
}

export function moveFor(state: Pick<FlowState, 'step' | 'phone' | 'verifiedPhone'>, decision: MessageDecision, text: string, ctx: MoveContext): Move {
    const inStep = state.step === 'identifier' || state.step === 'code';
    const stay = inStep && !decision.leave;
    switch (decision.kind) {
        case 'phone':
            return state.step === 'code' && decision.phone === state.phone ? { type: 'offer_resend' } : { type: 'send_code', phone: decision.phone ?? text };
        case 'code':
            return state.step === 'code' && decision.code ? { type: 'check_code', code: decision.code } : { type: 'again' };
        case 'resend':
            return state.step === 'code' && state.phone ? { type: 'offer_resend' } : { type: 'ask_phone' };
        case 'human':
            return { type: 'live', message: text };
        case 'points':
            if (state.step === 'code' && decision.leave) {
                return { type: 'ask_phone' };
            }
            if (inStep) {
                return { type: 'again' };
            }
            // Verified in this conversation: the AI agent reads the points with the customer's token.
            return state.verifiedPhone && ctx.aiEnabled ? { type: 'ask_ai', question: text, stay: false } : { type: 'ask_phone' };
        case 'question': {
            const quick = ctx.questions.find((q) => q.id === decision.questionId);
            if (quick && quick.kind === 'answer') {
                return { type: 'answer', questionId: quick.id, stay };
            }
            if (ctx.aiEnabled) {
                return { type: 'ask_ai', question: decision.question || text, stay };
            }
            return stay ? { type: 'again', fallback: true } : { type: 'reply', text: 'fallback' };
        }
        case 'cancel':
            return { type: 'reply', text: 'moreHelp' };
        case 'greeting':
            return inStep ? { type: 'again' } : { type: 'reply', text: 'greetingReply' };
        case 'thanks':
            return inStep ? { type: 'again' } : { type: 'reply', text: 'moreHelp' };
        default:
            return decision.expected && inStep ? { type: 'not_input', expected: decision.expected } : { type: 'reply', text: 'fallback' };
    }
}
