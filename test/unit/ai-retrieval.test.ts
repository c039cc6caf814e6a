import { expect } from 'chai';
import { KnowledgeIndex } from '../../plugins/ai/services/retrieval';
import { intentOf } from '../../plugins/ai/services/intents';
import { stem, terms } from '../../plugins/ai/services/text';
import { parseCsv, parseMarkdown } from '../../plugins/ai/services/knowledge-import';
import { demoSources, evaluate, loadEvalSet } from '../../bench/ai-eval';

describe('AI agent: built-in retrieval', () => {
    const set = loadEvalSet();

    it('has an evaluation set of at least 60 answerable and 20 unanswerable questions', () => {
        expect(set.answerable.length).to.be.at.least(60);
        expect(set.unanswerable.length).to.be.at.least(20);
    });

    it('answers at least 85 % of the answerable questions from the right entry and abstains on at least 90 % of the others', () => {
        const r = evaluate(new KnowledgeIndex(demoSources()), set);
        expect(r.answeredRight / r.answerable, r.failures.join('\n')).to.be.at.least(0.85);
        expect(r.abstained / r.unanswerable, r.failures.join('\n')).to.be.at.least(0.9);
        expect(r.intentsRight).to.equal(r.intents);
    });

    it('would fail with a threshold that answers everything (the check above can fail)', () => {
        const r = evaluate(new KnowledgeIndex(demoSources()), set, 0);
        expect(r.abstained / r.unanswerable).to.be.below(0.9);
    });

    it('stems and maps retail synonyms to one term', () => {
        expect(stem('opening')).to.equal(stem('hours'));
        expect(stem('returned')).to.equal(stem('refund'));
        expect(stem('collect')).to.equal(stem('earn'));
        expect(terms('What are the opening hours?')).to.deep.equal([stem('hours')]);
    });

    it('abstains on an empty index and on a question of stop words only', () => {
        expect(new KnowledgeIndex([]).query('When are you open?').confidence).to.equal(0);
        expect(new KnowledgeIndex(demoSources()).query('what is it?').hits).to.deep.equal([]);
    });

    it('recognises tier-2 and hand-off intents, and not program questions that mention points', () => {
        expect(intentOf('How many points do I have?')).to.equal('points');
        expect(intentOf('How do I earn points?')).to.equal(null);
        expect(intentOf('Do my points expire?')).to.equal(null);
        expect(intentOf('show my recent orders')).to.equal('orders');
        expect(intentOf('Can I speak to a representative?')).to.equal('human');
    });

    it('parses Markdown headings and quoted CSV fields', () => {
        expect(parseMarkdown('# A\nline 1\nline 2\n### B ###\nb')).to.deep.equal([
            { title: 'A', content: 'line 1\nline 2', isActive: true }, { title: 'B', content: 'b', isActive: true }
        ]);
        expect(parseCsv('content,title\n"multi\nline, with ""quotes""",T\n')).to.deep.equal([{ title: 'T', content: 'multi\nline, with "quotes"', isActive: true }]);
        expect(() => parseCsv('name,text\nx,y')).to.throw('Line 1: the header must name the columns title and content');
    });
});
