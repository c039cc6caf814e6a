import ar from './ar.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import ptBR from './pt-BR.json';
import { tokens } from '../services/text';

/**
 * The words the message decision recognises, per language (server-side catalogue data, like the widget's texts are
 * per language): `words/<lang>.json`, each with exactly English's keys. Adding a language (fr, pt-BR, de, ar…): its
 * file next to en.json, one line in WORDS, and `npm run build && npx mocha dist/test/unit/conversation-words.test.js`.
 */
export const WORDS = { en, es, fr, 'pt-BR': ptBR, de, ar } satisfies Record<string, WordList>;

/** One language's phrases, by what they say. */
export interface WordList {
    /** Leave the step when the message starts with one ("never mind, what are your hours"). */
    cancel: string[];
    /** Leave the step only when they are the whole message ("no", "nope"). */
    cancelAlone: string[];
    /** A request for a person. */
    human: string[];
    /** A person, unless the store's knowledge answers the message ("do you support Apple Pay?"). */
    humanWeak: string[];
    /** In the code step: the code did not come, send another. */
    resend: string[];
    /** In the code step: the number was wrong, ask for it again. */
    otherPhone: string[];
    /** Asks for their own points balance… */
    points: string[];
    /** …unless one of these says it is about how points work ("when do my points expire"). */
    notBalance: string[];
    greeting: string[];
    /** Thanks and acknowledgements ("ok", "yes"). */
    thanks: string[];
    /** A message that starts with one is a question. */
    questionStart: string[];
    /** Ignored at the start of a message ("um", "actually", "please"). */
    filler: string[];
    /**
     * Ignored at the start of a message by the decision, like filler, but kept in the question the AI agent is asked
     * ("and to Canada?"): they say the message follows the last one.
     */
    connective: string[];
    /** Not words: laughter, keyboard tests. */
    noise: string[];
}

export type WordKind = keyof WordList;

export const WORD_KINDS: WordKind[] = ['cancel', 'cancelAlone', 'human', 'humanWeak', 'resend', 'otherPhone', 'points', 'notBalance', 'greeting',
    'thanks', 'questionStart', 'filler', 'connective', 'noise'];

/** A language's phrases as normalised token sequences, longest first. */
export type Lexicon = Record<WordKind, string[][]>;

const compiled = new Map<string, Lexicon>();

function compile(list: WordList): Lexicon {
    const lexicon = {} as Lexicon;
    for (const kind of WORD_KINDS) {
        lexicon[kind] = list[kind].map((phrase) => tokens(phrase).map((t) => t.norm)).filter((p) => p.length)
            .sort((a, b) => b.length - a.length);
    }
    return lexicon;
}

/** The shipped language for a BCP 47 tag ('es-MX' → 'es'), or null. */
export function wordsLanguage(lang: string | null | undefined): keyof typeof WORDS | null {
    const tag = String(lang ?? '').toLowerCase();
    const base = tag.split('-')[0];
    const shipped = Object.keys(WORDS) as Array<keyof typeof WORDS>;
    // The exact tag, else its language ('es-MX' → es), else a regional form of it ('pt' → pt-BR).
    return shipped.find((l) => l.toLowerCase() === tag) ?? shipped.find((l) => l.toLowerCase() === base)
        ?? shipped.find((l) => l.toLowerCase().split('-')[0] === base) ?? null;
}

/** The lexicons to read a message with: the customer's language first, then English (customers mix in English words). */
export function lexiconsFor(lang: string | null | undefined): Array<{ lang: string; lexicon: Lexicon }> {
    const langs = [...new Set([wordsLanguage(lang) ?? 'en', 'en'])];
    return langs.map((l) => {
        let lexicon = compiled.get(l);
        if (!lexicon) {
            lexicon = compile(WORDS[l as keyof typeof WORDS] as WordList);
            compiled.set(l, lexicon);
        }
        return { lang: l, lexicon };
    });
}
