import { expect } from 'chai';
import type { MessageDecision } from '../../core/types/api';
import { moveFor, Move } from '../../widget/src/moves';
import type { Step } from '../../widget/src/flow';

/**
 * What the widget does with the server's decision (widget/src/moves.ts, issue 23): no step swallows a message that is
 * not its input, every step can be left, a question inside a step is answered and the step offered again.
 */
describe('the widget\'s moves on a decision (widget/src/moves.ts)', function () {
    const questions = [{ id: 1, kind: 'loyalty_check' }, { id: 3, kind: 'live_support' }, { id: 4, kind: 'answer' }];
    const at = (step: Step, phone: string | null = null, verifiedPhone: string | null = null) => ({ step, phone, verifiedPhone });
    const decision = (kind: MessageDecision['kind'], extra: Partial<MessageDecision> = {}): MessageDecision => ({ kind, leave: false, lang: 'en', ...extra });
    const move = (state: ReturnType<typeof at>, d: MessageDecision, aiEnabled = true, text = 'typed'): Move => moveFor(state, d, text, { aiEnabled, questions });

    it('sends a code to a phone found in a sentence, and checks a code in the code step', () => {
        expect(move(at('identifier'), decision('phone', { phone: '+15555550100' }))).to.deep.equal({ type: 'send_code', phone: '+15555550100' });
        expect(move(at('questions'), decision('phone', { phone: '+15555550100' }))).to.deep.equal({ type: 'send_code', phone: '+15555550100' });
        expect(move(at('code', '+15555550100'), decision('code', { code: '123456' }))).to.deep.equal({ type: 'check_code', code: '123456' });
        expect(move(at('code', '+15555550100'), decision('phone', { phone: '+15555550199' }))).to.deep.equal({ type: 'send_code', phone: '+15555550199' });
    });

    it('offers a resend for "I didn\'t get a code" and for the same number typed again', () => {
        expect(move(at('code', '+15555550100'), decision('resend'))).to.deep.equal({ type: 'offer_resend' });
        expect(move(at('code', '+15555550100'), decision('phone', { phone: '+15555550100' }))).to.deep.equal({ type: 'offer_resend' });
        expect(move(at('questions'), decision('resend'))).to.deep.equal({ type: 'ask_phone' });
    });

    it('answers a question asked inside a step and offers the step again; after a change of mind, leaves it', () => {
        for (const step of ['identifier', 'code'] as const) {
            expect(move(at(step), decision('question', { question: 'can I pay with apple' }))).to.deep.equal({ type: 'ask_ai', question: 'can I pay with apple', stay: true });
            expect(move(at(step), decision('question', { question: 'what are your hours', leave: true }))).to.deep.equal({ type: 'ask_ai', question: 'what are your hours', stay: false });
            expect(move(at(step), decision('question', { questionId: 4 }))).to.deep.equal({ type: 'answer', questionId: 4, stay: true });
            expect(move(at(step), decision('question', { question: 'q' }), false)).to.deep.equal({ type: 'again', fallback: true });
            expect(move(at(step), decision('cancel', { leave: true }))).to.deep.equal({ type: 'reply', text: 'moreHelp' });
            expect(move(at(step), decision('human', { leave: true }), true, 'agent please')).to.deep.equal({ type: 'live', message: 'agent please' });
            expect(move(at(step), decision('greeting'))).to.deep.equal({ type: 'again' });
            expect(move(at(step), decision('thanks'))).to.deep.equal({ type: 'again' });
        }
        expect(move(at('questions'), decision('question', { question: 'q' }), false)).to.deep.equal({ type: 'reply', text: 'fallback' });
        expect(move(at('questions'), decision('question', { question: 'q' }))).to.deep.equal({ type: 'ask_ai', question: 'q', stay: false });
    });

    it('says one error line for what the step expected, and keeps the step', () => {
        expect(move(at('identifier'), decision('garbage', { expected: 'phone' }))).to.deep.equal({ type: 'not_input', expected: 'phone' });
        expect(move(at('code'), decision('garbage', { expected: 'code' }))).to.deep.equal({ type: 'not_input', expected: 'code' });
        expect(move(at('questions'), decision('garbage'))).to.deep.equal({ type: 'reply', text: 'fallback' });
    });

    it('asks for the phone for "check my points", again in a step, and lets the AI read a verified customer\'s points', () => {
        expect(move(at('questions'), decision('points'))).to.deep.equal({ type: 'ask_phone' });
        expect(move(at('identifier'), decision('points'))).to.deep.equal({ type: 'again' });
        expect(move(at('code', '+15555550100'), decision('points', { leave: true }))).to.deep.equal({ type: 'ask_phone' });
        expect(move(at('success', '+15555550100', '+15555550100'), decision('points'), true, 'my points')).to.deep.equal({ type: 'ask_ai', question: 'my points', stay: false });
        expect(move(at('success', '+15555550100', '+15555550100'), decision('points'), false)).to.deep.equal({ type: 'ask_phone' });
    });

    it('greets, thanks and takes a change of mind outside the steps', () => {
        expect(move(at('questions'), decision('greeting'))).to.deep.equal({ type: 'reply', text: 'greetingReply' });
        expect(move(at('ai'), decision('thanks'))).to.deep.equal({ type: 'reply', text: 'moreHelp' });
        expect(move(at('success'), decision('cancel', { leave: true }))).to.deep.equal({ type: 'reply', text: 'moreHelp' });
    });
});
