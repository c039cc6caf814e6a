import * as Fs from 'fs';
import * as Path from 'path';
import { expect } from 'chai';
import { KnowledgeIndex } from '../../plugins/ai/services/retrieval';
import { FOLLOW_UP_WITHIN_MS, looksLikeFollowUp, retrieveInContext } from '../../plugins/ai/services/follow-up';
import { ABSTAIN_BELOW } from '../../plugins/ai/services/retrieval';
import { demoSources, heldOutSources, loadTuningExtra } from '../../bench/ai-eval';
import type { AiTurn } from '../../core/types/api';

interface Pair {
    store: 'demo' | 'voltage';
    first: string;
    followUp: string;
    expect: string | string[];
}

const file = [Path.join(__dirname, '../../../test/fixtures/ai-follow-ups.json'), Path.join(__dirname, '../fixtures/ai-follow-ups.json')].find((f) => Fs.existsSync(f));
const pairs = (JSON.parse(Fs.readFileSync(file as string, 'utf8')) as { pairs: Pair[] }).pairs;
const indexes = { demo: new KnowledgeIndex(demoSources()), voltage: new KnowledgeIndex(heldOutSources(loadTuningExtra(), 'voltage')) };

function turn(question: string, agoMs = 60_000): AiTurn {
    return { question, answer: '…', fallbackAction: null, createdAt: new Date(Date.now() - agoMs).toISOString() };
}

function answered(r: ReturnType<KnowledgeIndex['query']>): string | null {
    return r.confidence >= ABSTAIN_BELOW ? r.hits[0]?.source.title ?? null : null;
}

describe('AI agent: conversation memory (follow-ups, issue 30)', () => {
    it('has at least 20 follow-up pairs over two stores', () => {
        expect(pairs.length).to.be.at.least(20);
        expect(new Set(pairs.map((p) => p.store)).size).to.equal(2);
    });

    it('answers at least 20 follow-ups from the right entry with the previous question, more than it does without it', () => {
        let inContext = 0;
        let alone = 0;
        const misses: string[] = [];
        for (const p of pairs) {
            const want = Array.isArray(p.expect) ? p.expect : [p.expect];
            const got = answered(retrieveInContext(indexes[p.store], p.followUp, [turn(p.first)]).retrieval);
            if (got && want.includes(got)) {
                inContext++;
            }
            else {
                misses.push(`"${p.first}" → "${p.followUp}": got ${got ?? 'abstain'}, want ${want.join(' | ')}`);
            }
            const own = answered(indexes[p.store].query(p.followUp));
            if (own && want.includes(own)) {
                alone++;
            }
        }
        expect(inContext, misses.join('\n')).to.be.at.least(20);
        expect(inContext).to.be.above(alone + 4);
    });

    it('reads "what about in store?" after a payment question as a payment question, and alone as something else', () => {
        const r = retrieveInContext(indexes.demo, 'what about in store?', [turn('Do you accept Apple Pay?')]);
        expect(r.context).to.equal('Do you accept Apple Pay?');
        expect(answered(r.retrieval)).to.equal('Payment methods');
        expect(answered(retrieveInContext(indexes.demo, 'what about in store?', []).retrieval)).to.not.equal('Payment methods');
    });

    it('answers "and how much is it?" after shipping, and abstains on it without the conversation', () => {
        expect(answered(retrieveInContext(indexes.demo, 'and how much is it?', [turn('How long does shipping take?')]).retrieval)).to.equal('Shipping and delivery');
        expect(answered(retrieveInContext(indexes.demo, 'and how much is it?', []).retrieval)).to.equal(null);
    });

    it('lets a follow-up that changes the topic keep its own answer', () => {
        const r = retrieveInContext(indexes.demo, 'and what about returns?', [turn('How long does shipping take?')]);
        expect(answered(r.retrieval)).to.equal('Returns');
    });

    it('forgets a question older than the window, and a request for a person or an account tool', () => {
        expect(answered(retrieveInContext(indexes.demo, 'and how much is it?', [turn('How long does shipping take?', FOLLOW_UP_WITHIN_MS + 60_000)]).retrieval)).to.equal(null);
        expect(retrieveInContext(indexes.demo, 'and how much is it?', [turn('How many points do I have?')]).context).to.equal(null);
    });

    it('follows a chain: a follow-up of a follow-up keeps the first question\'s topic', () => {
        const r = retrieveInContext(indexes.voltage, 'how long does it take?', [turn('Do you repair phone screens?', 120_000), turn('and laptops?')]);
        expect(r.context).to.equal('Do you repair phone screens? and laptops?');
        expect(answered(r.retrieval)).to.equal('Repair service');
    });

    it('reads a full question alone, whatever came before', () => {
        expect(looksLikeFollowUp('When do my points expire after a purchase?', ['expir', 'point', 'purchas'])).to.equal(false);
        expect(retrieveInContext(indexes.demo, 'When do my points expire after a purchase?', [turn('How long does shipping take?')]).context).to.equal(null);
    });
});
