import { expect } from 'chai';
import { ABSTAIN_BELOW, ABSTAIN_FLOOR, KnowledgeIndex } from '../../plugins/ai/services/retrieval';
import { intentOf } from '../../plugins/ai/services/intents';
import { stem, terms } from '../../plugins/ai/services/text';
import { parseCsv, parseMarkdown } from '../../plugins/ai/services/knowledge-import';
import { demoSources, evaluate, evaluateHeldOut, heldOutSources, loadEvalSet, loadHeldOut, loadTuningExtra, loadTuningStores } from '../../bench/ai-eval';
import { detectLanguage, foreignTerms } from '../../plugins/ai/services/language';
import { closest, editDistance } from '../../plugins/ai/services/typos';
import { englishSenses, englishVectors } from '../../plugins/ai/services/vectors';
import type { AnswerSource } from '../../plugins/ai/services/retrieval';

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

    describe('held-out set (test/fixtures/ai-heldout.json, written before any tuning, never tuned on)', () => {
        const held = loadHeldOut();

        it('has at least 150 questions over at least 3 stores, at least 15 % of them unanswerable', () => {
            const all = held.answerable.length + held.unanswerable.length;
            expect(all).to.be.at.least(150);
            expect(new Set([...held.answerable, ...held.unanswerable].map((q) => q.store)).size).to.be.at.least(3);
            expect(held.unanswerable.length / all).to.be.at.least(0.15);
            expect(held.answerable.filter((a) => a.kind === 'typo').length).to.be.at.least(15);
        });

        // The goals are 90 % and 90 %; these floors are today's measured shares (bench/RESULTS.md), so that a
        // regression fails. Raise them with the figures when retrieval gets better; never tune on this set to get there.
        // Words alone (AI_MEANINGS=off; the shipped agent adds sentence meaning: ai-meanings.test.ts).
        it('answers at least 61 % of the answerable questions from the right entry and abstains on at least 87 % of the others, by words alone', () => {
            const r = evaluateHeldOut(held);
            expect(r.answeredRight / r.answerable).to.be.at.least(0.61);
            expect(r.abstained / r.unanswerable).to.be.at.least(0.87);
        });

        it('does better with the shipped word vectors and with the shipped WordNet senses than without either', () => {
            const shipped = evaluateHeldOut(held);
            expect(shipped.answeredRight).to.be.above(evaluateHeldOut(held, { vectors: null }).answeredRight);
            expect(shipped.answeredRight).to.be.above(evaluateHeldOut(held, { senses: null }).answeredRight);
        });
    });

    describe('the other tuning sets (tuned on)', () => {
        it('answers at least 67 % of the third set\'s questions (the held-out stores\' knowledge, new questions) and abstains on at least 85 %', () => {
            const r = evaluateHeldOut(loadTuningStores());
            expect(r.answerable).to.be.at.least(100);
            expect(r.answeredRight / r.answerable, r.failures.join('\n')).to.be.at.least(0.67);
            expect(r.abstained / r.unanswerable, r.failures.join('\n')).to.be.at.least(0.85);
        });

        it('answers at least 75 % of the electronics shop\'s questions and abstains on at least 90 %', () => {
            const r = evaluateHeldOut(loadTuningExtra());
            expect(r.answeredRight / r.answerable, r.failures.join('\n')).to.be.at.least(0.75);
            expect(r.abstained / r.unanswerable, r.failures.join('\n')).to.be.at.least(0.9);
        });
    });

    it('ships English word vectors in the package and reads them from the local file', () => {
        const vectors = englishVectors();
        expect(vectors, 'plugins/ai/model/glove-en-100d.bin').to.not.equal(null);
        expect(vectors?.size).to.equal(60000);
        expect(vectors?.has('expire')).to.equal(true);
    });

    it('matches a question to an entry by meaning when they share no word', () => {
        const sources: AnswerSource[] = [
            { key: 'knowledge:1', kind: 'knowledge', id: 1, title: 'Warranty', text: 'Every bicycle has a two-year warranty against defects.', answer: 'Two years.' },
            { key: 'knowledge:2', kind: 'knowledge', id: 2, title: 'Opening hours', text: 'We open at 9 AM on weekdays.', answer: '9 AM.' }
        ];
        const withVectors = new KnowledgeIndex(sources).query('is my bike guaranteed?');
        expect(withVectors.hits[0]?.source.title).to.equal('Warranty');
        expect(new KnowledgeIndex(sources, { vectors: null, senses: null }).query('is my bike guaranteed?').hits).to.deep.equal([]);
    });

    it('ships WordNet senses and matches a synonym or a broader word that the vectors miss', () => {
        const senses = englishSenses();
        expect(senses, 'plugins/ai/model/wordnet-en-senses.txt').to.not.equal(null);
        const shared = (a: string, b: string) => (senses?.of(a) ?? []).some((s) => senses?.of(b).includes(s));
        expect(shared('chemist', 'pharmacist')).to.equal(true);
        expect(shared('soles', 'sole'), 'plural read as its base form').to.equal(true);
        expect(shared('chemist', 'groceries')).to.equal(false);
        const sources: AnswerSource[] = [
            { key: 'knowledge:1', kind: 'knowledge', id: 1, title: 'Pharmacy', text: 'Our pharmacist fills prescriptions on weekdays.', answer: 'Weekdays.' },
            { key: 'knowledge:2', kind: 'knowledge', id: 2, title: 'Alcohol sales', text: 'Alcohol is only sold to customers aged 21 or over.', answer: '21.' },
            { key: 'knowledge:3', kind: 'knowledge', id: 3, title: 'Bags', text: 'Paper bags cost 10 cents each.', answer: '10 cents.' }
        ];
        const index = new KnowledgeIndex(sources, { vectors: null });
        expect(index.query('when is the chemist in?').hits[0]?.source.title).to.equal('Pharmacy');
        // Liquor is a kind of alcohol in WordNet: "alcohol" is one level broader.
        expect(index.query('can I buy liquor?').hits[0]?.source.title).to.equal('Alcohol sales');
        expect(new KnowledgeIndex(sources, { vectors: null, senses: null }).query('when is the chemist in?').hits).to.deep.equal([]);
    });

    it('fixes a typo to the closest word of the store or of the vocabulary', () => {
        expect(editDistance('retrun', 'return', 2)).to.equal(1);
        expect(editDistance('shiping', 'shipping', 2)).to.equal(1);
        expect(closest('delievery', ['delivery', 'discovery'])).to.equal('delivery');
        expect(closest('connect', ['collect'], 1)).to.equal(null);
        const index = new KnowledgeIndex(demoSources());
        expect(index.query('whats the retrun polcy').hits[0]?.source.title).to.equal('Returns');
        // Two words of the store's texts run together.
        const cards: AnswerSource[] = [
            { key: 'knowledge:1', kind: 'knowledge', id: 1, title: 'Gift cards', text: 'A gift card never expires; check the balance online.', answer: 'They never expire.' },
            { key: 'knowledge:2', kind: 'knowledge', id: 2, title: 'Payment', text: 'We accept all major credit cards.', answer: 'Credit cards.' }
        ];
        expect(new KnowledgeIndex(cards, { vectors: null, senses: null }).query('giftcard balanse').terms).to.deep.equal(['gift', 'pay', 'balanc']);
    });

    it('reads other languages with their own stemmer and stop words', () => {
        expect(detectLanguage('¿Cuánto cuesta el envío?')).to.equal('es');
        expect(detectLanguage('Quels sont vos horaires ?')).to.equal('fr');
        expect(detectLanguage('Wie lange dauert die Lieferung?')).to.equal('de');
        expect(detectLanguage('ok')).to.equal(null);
        // "envío" and "envio" (typed without its accent), "devoluciones" and "devolución", land on one term.
        expect(foreignTerms('envío', 'es')).to.deep.equal(foreignTerms('envio', 'es'));
        expect(foreignTerms('¿Cuánto cuesta el envío?', 'es')).to.not.include('el');
        const sources: AnswerSource[] = [
            { key: 'knowledge:1', kind: 'knowledge', id: 1, title: 'Cambios', text: 'Puedes cambiar un producto en 15 días con el recibo.', answer: 'Cambios en 15 días.' },
            { key: 'knowledge:2', kind: 'knowledge', id: 2, title: 'Entregas', text: 'Entregamos en 48 horas; gratis desde 30 euros.', answer: 'En 48 horas.' }
        ];
        const index = new KnowledgeIndex(sources);
        expect(index.query('quiero cambiar unos zapatos').hits[0]?.source.title).to.equal('Cambios');
        expect(index.query('¿la entrega es gratis?').hits[0]?.source.title).to.equal('Entregas');
    });

    it('keeps the English figures with the other languages indexed beside them', () => {
        const held = loadHeldOut();
        const mixed = [...heldOutSources(held, 'demo'), ...heldOutSources(held, 'sol').map((s) => ({ ...s, key: `es-${s.key}` }))];
        const r = evaluate(new KnowledgeIndex(mixed), set);
        expect(r.answeredRight / r.answerable, r.failures.join('\n')).to.be.at.least(0.85);
    });

    it('answers from a source that clearly leads the others, though it covers little of the question', () => {
        const sources = [...demoSources(), { key: 'knowledge:99', kind: 'knowledge' as const, id: 99, title: 'Do you offer layaway?', text: 'Yes: layaway holds an item for 60 days with 20 % down.', answer: 'Yes.' }];
        const r = new KnowledgeIndex(sources).query('can I put a coat on layaway?');
        expect(r.hits[0]?.source.title).to.equal('Do you offer layaway?');
        expect(r.confidence).to.equal(ABSTAIN_BELOW);
        expect(r.hits[0]?.signals?.coverage).to.be.below(ABSTAIN_BELOW);
        const off = new KnowledgeIndex(sources, { abstainFloor: 1 }).query('can I put a coat on layaway?');
        expect(off.confidence, 'without the margin rule').to.be.within(ABSTAIN_FLOOR, ABSTAIN_BELOW - 0.01);
        expect(new KnowledgeIndex(sources).query('Can I rent a tuxedo?').confidence).to.be.below(ABSTAIN_BELOW);
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
            { title: 'A', content: 'line 1\nline 2', isActive: true, line: 1 }, { title: 'B', content: 'b', isActive: true, line: 4 }
        ]);
        expect(parseCsv('content,title\n"multi\nline, with ""quotes""",T\n')).to.deep.equal([{ title: 'T', content: 'multi\nline, with "quotes"', isActive: true, line: 2 }]);
        expect(() => parseCsv('name,text\nx,y')).to.throw('Line 1: the header must name the columns title and content');
    });

    it('reads other ways customers ask (issue 30): a labelled list under a Markdown heading, a CSV phrasings column', () => {
        const md = [
            '# A', 'Text.', '', 'Other ways customers ask:', '', '- first way?', '* second way', '', 'More text.', '- a list of the text',
            '# B', 'b', 'Also asked as:', '- b?', '# C', 'c', '- not asked as'
        ].join('\n');
        expect(parseMarkdown(md)).to.deep.equal([
            { title: 'A', content: 'Text.\n\nMore text.\n- a list of the text', isActive: true, line: 1, phrasings: ['first way?', 'second way'] },
            { title: 'B', content: 'b', isActive: true, line: 11, phrasings: ['b?'] },
            { title: 'C', content: 'c\n- not asked as', isActive: true, line: 15 }
        ]);
        expect(parseCsv('title,content,phrasings\nA,a,"one?\ntwo | three"\nB,b,\n')).to.deep.equal([
            { title: 'A', content: 'a', isActive: true, line: 2, phrasings: ['one?', 'two', 'three'] }, { title: 'B', content: 'b', isActive: true, line: 4 }
        ]);
    });
});
