import { expect } from 'chai';
import { Action, FlowState, initialState, newSessionId, reduce, revive } from '../../widget/src/flow';

/** The widget's one reducer (issue 11): New Chat provably resets every field of the conversation. */
describe('widget flow reducer (widget/src/flow.ts)', function () {
    const run = (state: FlowState, actions: Action[]) => actions.reduce(reduce, state);

    /** A conversation that sets every field away from its initial value. */
    function busy(): FlowState {
        const s = run(initialState('widget_1_aaaaaaaaa'), [
            { type: 'open' },
            { type: 'say', text: 'Check my loyalty points', from: 'user', time: 1 },
            { type: 'step', step: 'identifier' },
            { type: 'code_sent', phone: '+15555550100' },
            { type: 'verified', phone: '+15555550100' },
            { type: 'token', token: 'tok-0' },
            { type: 'reask', question: 'How many points do I have?' },
            { type: 'live_started', chatId: 'chat-1', token: 'tok-1', lastSeq: 1 },
            { type: 'feedback_for', historyId: 7 },
            { type: 'offer', offer: 'resend' },
            { type: 'agent_joined' },
            { type: 'live_seq', seq: 4 },
            { type: 'close' },
            { type: 'say', text: 'Hi, I am Maria', from: 'agent', author: 'Maria', time: 2 },
            { type: 'agent_typing', typing: true },
            { type: 'pending', pending: true }
        ]);
        return s;
    }

    it('leaves no field of the previous conversation after New Chat (a shared device: no old phone anywhere)', () => {
        const before = busy();
        const fresh = initialState('widget_2_bbbbbbbbb');
        // Every field differs from a fresh state before (so the test below can fail for each of them)…
        for (const key of Object.keys(fresh) as Array<keyof FlowState>) {
            if (key === 'open') {
                continue;
            }
            expect(before[key], key).to.not.deep.equal(fresh[key]);
        }
        const after = reduce(before, { type: 'new_chat', sessionId: 'widget_2_bbbbbbbbb' });
        // …and New Chat gives exactly a fresh state: only the open/closed panel stays as it was.
        expect(after).to.deep.equal({ ...fresh, open: before.open });
        expect(JSON.stringify(after)).to.not.contain('5555550100');
        expect(JSON.stringify(after)).to.not.contain('chat-1');
        expect(JSON.stringify(after)).to.not.contain('tok-1');
    });

    it('counts agent messages while closed as unread, clears them on open, and stops the typing indicator on a message', () => {
        let s = run(initialState('w'), [{ type: 'live_started', chatId: 'c', token: 't', lastSeq: 0 }, { type: 'agent_typing', typing: true }]);
        expect(s.agentTyping).to.equal(true);
        s = run(s, [{ type: 'say', text: 'one', from: 'agent', time: 1 }, { type: 'say', text: 'me', from: 'user', time: 2 }, { type: 'say', text: 'two', from: 'system', time: 3 }]);
        expect(s.unread).to.equal(2);
        expect(s.agentTyping).to.equal(false);
        expect(reduce(s, { type: 'open' }).unread).to.equal(0);
    });

    it('keeps the newest sequence number and goes back to the questions when the live chat ends', () => {
        let s = run(initialState('w'), [{ type: 'live_started', chatId: 'c', token: 't', lastSeq: 3 }, { type: 'live_seq', seq: 5 }, { type: 'live_seq', seq: 4 }]);
        expect(s.live!.lastSeq).to.equal(5);
        s = reduce(s, { type: 'live_ended' });
        expect(s.live).to.equal(null);
        expect(s.step).to.equal('questions');
    });

    it('drops the AI\'s feedback question once a person takes over or the customer moves on, also in a saved live chat (issue 23)', () => {
        const answered = run(initialState('w'), [{ type: 'step', step: 'ai' }, { type: 'feedback_for', historyId: 3 }]);
        expect(answered.feedbackFor).to.equal(3);
        expect(reduce(answered, { type: 'live_started', chatId: 'c', token: 't', lastSeq: 0 }).feedbackFor).to.equal(null);
        expect(reduce(answered, { type: 'step', step: 'live_chat' }).feedbackFor).to.equal(null);
        expect(reduce(answered, { type: 'say', text: 'agent', from: 'user', time: 1 }).feedbackFor).to.equal(null);
        expect(reduce(answered, { type: 'say', text: 'An answer', from: 'bot', time: 1 }).feedbackFor).to.equal(3);
        const savedByAnEarlierVersion = JSON.stringify({ ...answered, step: 'live_chat', live: { chatId: 'c', token: 't', lastSeq: 2, agentJoined: true } });
        expect(revive(savedByAnEarlierVersion)!.feedbackFor).to.equal(null);
    });

    it('shows the resend chip only in the code step, until a new code is sent', () => {
        const offered = run(initialState('w'), [{ type: 'code_sent', phone: '+15555550100' }, { type: 'offer', offer: 'resend' }]);
        expect(offered.offer).to.equal('resend');
        expect(reduce(offered, { type: 'code_sent', phone: '+15555550100' }).offer).to.equal(null);
        expect(reduce(offered, { type: 'step', step: 'questions' }).offer).to.equal(null);
        expect(reduce(offered, { type: 'step', step: 'code' }).offer).to.equal('resend');
    });

    it('revives a saved state without a request in flight, and refuses what is not one', () => {
        const saved = JSON.stringify(busy());
        const back = revive(saved)!;
        expect(back.pending).to.equal(false);
        expect(back.agentTyping).to.equal(false);
        expect(back.messages).to.have.length(2);
        expect(back.live).to.deep.equal({ chatId: 'chat-1', token: 'tok-1', lastSeq: 4, agentJoined: true });
        for (const bad of [null, '', '{', '[]', '{"sessionId":1}', '"text"']) {
            expect(revive(bad), String(bad)).to.equal(null);
        }
    });

    it('makes session ids of the SPEC §3 form, the random part from crypto.getRandomValues (never Math.random)', () => {
        const real = Math.random;
        Math.random = () => {
            throw new Error('Math.random must not make session ids');
        };
        try {
            const ids = new Set(Array.from({ length: 500 }, () => newSessionId(1700000000000)));
            expect(ids.size).to.equal(500);
            for (const id of ids) {
                expect(id).to.match(/^widget_1700000000000_[a-z0-9]{16}$/);
            }
        }
        finally {
            Math.random = real;
        }
        expect(newSessionId(1, (bytes) => bytes.fill(37))).to.equal('widget_1_1111111111111111');
    });

    it('keeps the customer token (issue 25): the code check\'s, then create-session\'s renewal; New Chat forgets it, a reload keeps it', () => {
        let s = run(initialState('w'), [{ type: 'token', token: 'from-view' }]);
        expect(s.token).to.equal('from-view');
        s = reduce(s, { type: 'live_started', chatId: 'c', token: 'renewed', lastSeq: 0 });
        expect(s.token).to.equal('renewed');
        expect(revive(JSON.stringify(s))!.token).to.equal('renewed');
        expect(reduce(s, { type: 'new_chat', sessionId: 'w2' }).token).to.equal(null);
        const older = JSON.parse(JSON.stringify(initialState('w'))) as Record<string, unknown>;
        delete older.token;
        expect(revive(JSON.stringify(older))!.token, 'a state saved by an earlier widget').to.equal(null);
    });
});
