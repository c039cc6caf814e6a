/**
 * The languages of the built-in agent's lexical retrieval (issue 30): which language a text is in (a count of its
 * function words; Arabic by its script) and, for the languages besides English, the Snowball stemmer and stop
 * words that @orama/stemmers and @orama/stopwords ship. English keeps text.ts (its stemmer and retail synonyms).
 */
export type RetrievalLanguage = 'en' | 'es' | 'fr' | 'pt' | 'de' | 'ar';

export const RETRIEVAL_LANGUAGES: readonly RetrievalLanguage[] = ['en', 'es', 'fr', 'pt', 'de', 'ar'];

const FUNCTION_WORDS: Record<Exclude<RetrievalLanguage, 'ar'>, string> = {
    en: 'the and is are do does you your my what how can i to of for with when where on it have will there this an',
    es: 'el la los las del que qué y es un una unos unas por para con mi mis tu tus cómo cuánto cuánta cuándo dónde puedo hay se me lo al tenéis tienen sois está están hacéis sin su sus quiero podéis puedes tengo nuestro nuestra nuestros nuestras desde',
    fr: 'le les des du et est une pour avec je vous mon mes comment quand où quel quelle quels ce cette pas puis-je est-ce êtes avez sont au aux',
    pt: 'o os as do da dos das e é um uma para com meu minha como quando onde posso não em no na vocês qual quanto ao pelo pela',
    de: 'der die das und ist ein eine ich sie mein meine wie wann wo kann nicht mit für zu auf den dem gibt es ihr ihre haben sind'
};

const SETS = new Map<RetrievalLanguage, Set<string>>(Object.entries(FUNCTION_WORDS).map(([lang, words]) => [lang as RetrievalLanguage, new Set(words.split(' '))]));

/** Lowercase words of any script, apostrophes and hyphens kept inside a word. */
export function words(text: string): string[] {
    return text.toLowerCase().replace(/[’‘]/g, '\'').match(/[\p{L}\p{N}]+(?:['-][\p{L}]+)*/gu) ?? [];
}

/**
 * The language of a text, or null without evidence (a word or two that every language shares): the most function
 * words of one language, with '¿'/'¡' and 'ñ' counting for Spanish.
 */
export function detectLanguage(text: string): RetrievalLanguage | null {
    if (/[\u0600-\u06ff]/.test(text)) {
        return 'ar';
    }
    const scores = new Map<RetrievalLanguage, number>();
    for (const w of words(text)) {
        for (const [lang, set] of SETS) {
            if (set.has(w)) {
                scores.set(lang, (scores.get(lang) ?? 0) + 1);
            }
        }
    }
    if (/[¿¡ñ]/.test(text)) {
        scores.set('es', (scores.get('es') ?? 0) + 2);
    }
    if (/[ß]|[äöü]/.test(text)) {
        scores.set('de', (scores.get('de') ?? 0) + 1);
    }
    if (/[ãõç]/.test(text)) {
        scores.set('pt', (scores.get('pt') ?? 0) + 1);
    }
    let best: RetrievalLanguage | null = null;
    let top = 0;
    for (const [lang, score] of scores) {
        if (score > top) {
            best = lang;
            top = score;
        }
    }
    return best;
}

interface LanguageTools {
    stem: (word: string) => string;
    stop: Set<string>;
}

const MODULES: Record<Exclude<RetrievalLanguage, 'en'>, [string, string]> = {
    es: ['spanish', 'spanish'], fr: ['french', 'french'], pt: ['portuguese', 'portuguese'], de: ['german', 'german'], ar: ['arabic', 'arabic']
};

/**
 * Spanish stop words of our own: @orama/stopwords' Spanish list (577 words) also drops words a store's answer is
 * about ("días", "tiempo", "mayor").
 */
const SPANISH_STOP = ('a al algo algún alguna algunas alguno algunos ante antes como cómo con contra cual cuál cuales cuando cuándo de del desde ' +
    'donde dónde durante e el él ella ellas ellos en entre era eres es esa esas ese eso esos esta está están estar estas este esto estos ' +
    'fue ha hace hacéis han has hay he la las le les lo los me mi mis mí muy nada ni no nos nosotros o os otra otro para pero poco por ' +
    'porque puedo puede pueden que qué quien quién se sea ser si sí sin sobre sois son su sus también tanto te tenéis tengo tiene tienen ' +
    'tu tú tus un una uno unos unas usted ustedes vosotros y ya yo hola gracias quiero quisiera saber favor cuánto cuánta cuántos cuántas cuanto ' +
    'nuestro nuestra nuestros nuestras vuestro vuestra podéis puedes tengo algún').split(' ');

function stripMarks(word: string): string {
    return word.normalize('NFD').replace(/\p{M}+/gu, '');
}

const tools = new Map<RetrievalLanguage, LanguageTools>();

/** The stemmer and stop words of a language besides English (loaded on first use). */
export function languageTools(lang: Exclude<RetrievalLanguage, 'en'>): LanguageTools {
    let found = tools.get(lang);
    if (!found) {
        const [stemmerName, stopName] = MODULES[lang];
        const stemmer = (require(`@orama/stemmers/${stemmerName}`) as { stemmer: (w: string) => string }).stemmer;
        const list = lang === 'es' ? SPANISH_STOP : (require(`@orama/stopwords/${stopName}`) as { stopwords: string[] }).stopwords;
        const stop = new Set<string>();
        for (const w of list) {
            stop.add(w);
            stop.add(stripMarks(w));
        }
        // Stems without accents: "envío" and "envio" (a customer typing without them) land on one term.
        found = { stem: (w) => stripMarks(stemmer(w)), stop };
        tools.set(lang, found);
    }
    return found;
}

/** The content terms (in order, repeats kept) of a text in a language besides English. */
export function foreignTerms(text: string, lang: Exclude<RetrievalLanguage, 'en'>): string[] {
    const { stem, stop } = languageTools(lang);
    const out: string[] = [];
    for (const w of words(text)) {
        if (stop.has(w) || stop.has(stripMarks(w)) || w.length < 2 && !/\d/.test(w)) {
            continue;
        }
        out.push(/\d/.test(w) ? w : stem(w));
    }
    return out;
}
