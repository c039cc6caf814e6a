import { expect } from 'chai';
import { WORD_KINDS, WORDS, lexiconsFor, wordsLanguage } from '../../plugins/conversation/words';
import { tokens } from '../../plugins/conversation/services/text';

/** The message decision's word lists (plugins/conversation/words/<lang>.json): one shape for every language. */
describe('the message decision\'s words per language', function () {
    const english = Object.keys(WORDS.en).filter((k) => !k.startsWith('@')).sort();

    it('lists every kind of phrase the decision reads, in English', () => {
        expect(english).to.deep.equal([...WORD_KINDS].sort());
    });

    for (const [lang, list] of Object.entries(WORDS)) {
        it(`${lang}: has exactly English's keys, each a list of distinct phrases that are words`, () => {
            const record = list as unknown as Record<string, unknown>;
            expect(Object.keys(record).filter((k) => !k.startsWith('@')).sort()).to.deep.equal(english);
            expect(record['@language']).to.equal(lang);
            expect(record['@reviewed']).to.be.a('boolean');
            for (const kind of WORD_KINDS) {
                const phrases = record[kind] as unknown[];
                expect(phrases, `${lang}.${kind}`).to.be.an('array').with.length.greaterThan(0);
                const seen = new Set<string>();
                for (const phrase of phrases) {
                    expect(phrase, `${lang}.${kind}`).to.be.a('string');
                    const norm = tokens(phrase as string).map((t) => t.norm).join(' ');
                    expect(norm, `${lang}.${kind}: "${phrase}" has no words`).to.not.equal('');
                    expect(seen.has(norm), `${lang}.${kind}: "${phrase}" twice`).to.equal(false);
                    seen.add(norm);
                }
            }
        });
    }

    it('reads a regional tag with its language\'s words, any language with English\'s too', () => {
        expect(wordsLanguage('es-MX')).to.equal('es');
        expect(wordsLanguage('it')).to.equal(null);
        expect(wordsLanguage('pt')).to.equal('pt-BR');
        expect(wordsLanguage('fr-CA')).to.equal('fr');
        expect(lexiconsFor('es').map((l) => l.lang)).to.deep.equal(['es', 'en']);
        expect(lexiconsFor('pt-BR').map((l) => l.lang)).to.deep.equal(['pt-BR', 'en']);
        expect(lexiconsFor('it').map((l) => l.lang)).to.deep.equal(['en']);
    });

    it('matches words of any script, without accents or apostrophes', () => {
        expect(tokens("Didn't get it — llegó ¿código? مرحبا").map((t) => t.norm)).to.deep.equal(['didnt', 'get', 'it', 'llego', 'codigo', 'مرحبا']);
    });
});
