/**
 * Text processing of the built-in AI provider: tokens, stop words, a light English stemmer (Porter-style
 * suffix stripping, enough to join "opening"/"opens"/"open" and "returned"/"returns") and the retail synonyms
 * that matter for a store's questions: "open" is about hours, "get" is about earning, "refund" is about
 * returns. The same function processes indexed text and questions, so both land on the same terms.
 */

const STOP_WORDS = new Set(('a an and are as at be been but by can could did do does doing for from had has have how i if in into ' +
    'is it its just me my myself of on or our ours please should so some than that the their them then there these they ' +
    'this those to too us was we were what when where which while who whom why will with would you your yours am any ' +
    'tell know want need like about also hi hello hey thanks thank ok okay much many way ' +
    'long late something anything right now tonight today happen happens week morning still ever usual usually during policy not last ' +
    'there\'s what\'s it\'s i\'m don\'t can\'t').split(/\s+/));

/** A few words a stemmer cannot join, mapped to one form. */
const IRREGULAR: Record<string, string> = {
    bought: 'buy', buying: 'buy', buys: 'buy', purchased: 'purchas', purchase: 'purchas', purchases: 'purchas', purchasing: 'purchas',
    children: 'child', kids: 'child', kid: 'child', women: 'woman', men: 'man', went: 'go', gone: 'go',
    paid: 'pay', spent: 'spend', spending: 'spend', spends: 'spend', sent: 'send', got: 'get', gotten: 'get'
};

/**
 * Retail synonyms: each group's words (after stemming) become the group's first term, in the index and in the
 * question alike. Kept to words whose meaning in a store is the same.
 */
const SYNONYM_GROUPS: string[][] = [
    ['hour', 'open', 'close', 'opening', 'closing', 'time', 'schedule'],
    ['earn', 'collect', 'accumul', 'gain', 'accru', 'rack', 'get'],
    ['point', 'reward', 'rewards'],
    ['return', 'refund', 'exchang', 'send back', 'sending back', 'money back', 'bring back', 'take back'],
    ['ship', 'deliveri', 'deliv', 'shipment', 'post', 'mail', 'arriv'],
    ['discount', 'promot', 'promo', 'sale', 'deal', 'coupon', 'off', 'reduction', 'bargain'],
    ['member', 'membership', 'loyalti', 'program', 'programm', 'club', 'sign', 'join', 'enrol', 'regist'],
    ['store', 'shop', 'locat', 'branch', 'outlet'],
    ['expir', 'valid', 'lapse', 'vanish', 'disappear', 'lose', 'lost'],
    ['redeem', 'spend', 'use', 'appli', 'claim', 'worth'],
    ['price', 'cost', 'expens', 'cheap'],
    ['sunday', 'weekend'],
    ['saturday', 'weekend'],
    ['holiday', 'christma', 'thanksgiv', 'easter'],
    ['receipt', 'proof'],
    ['item', 'product', 'thing', 'merchandis', 'stuff', 'good'],
    ['wear', 'worn', 'unworn'],
    ['pay', 'payment', 'card', 'credit', 'cash'],
    ['contact', 'call', 'phone', 'email', 'reach'],
    ['warranti', 'guarante', 'protect', 'coverag'],
    ['repair', 'fix', 'broken', 'mend'],
    ['appoint', 'book', 'booking', 'reserv'],
    ['student', 'universiti', 'colleg', 'school']
];

/** The groups' phrases of two words ("send back"): a text's phrase becomes one token ("sendback") before stemming. */
const PHRASES = SYNONYM_GROUPS.flat().filter((w) => w.includes(' '));
const PHRASE = PHRASES.length ? new RegExp(`\\b(${PHRASES.join('|')})\\b`, 'g') : null;

const SYNONYMS = new Map<string, string>();
for (const group of SYNONYM_GROUPS) {
    for (const word of group) {
        const stem = stem0(word.replace(/ /g, ''));
        if (!SYNONYMS.has(stem)) {
            SYNONYMS.set(stem, stem0(group[0]));
        }
    }
}

function endsWithDoubleConsonant(w: string): boolean {
    const n = w.length;
    return n > 2 && w[n - 1] === w[n - 2] && !'aeiou'.includes(w[n - 1]);
}

function hasVowel(w: string): boolean {
    return /[aeiouy]/.test(w);
}

/** Porter-style step 1 and a few common derivational suffixes. */
function stem0(word: string): string {
    let w = word.toLowerCase();
    if (IRREGULAR[w]) {
        return IRREGULAR[w];
    }
    if (w.length <= 3) {
        return w;
    }
    // plurals
    if (w.endsWith('sses')) {
        w = w.slice(0, -2);
    }
    else if (w.endsWith('ies')) {
        w = w.slice(0, -3) + 'i';
    }
    else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) {
        w = w.slice(0, -1);
    }
    // -ed / -ing
    let stripped = false;
    if (w.endsWith('eed')) {
        w = w.length > 4 ? w.slice(0, -1) : w;
    }
    else if (w.endsWith('ed') && hasVowel(w.slice(0, -2)) && w.length > 4) {
        w = w.slice(0, -2);
        stripped = true;
    }
    else if (w.endsWith('ing') && hasVowel(w.slice(0, -3)) && w.length > 5) {
        w = w.slice(0, -3);
        stripped = true;
    }
    if (stripped) {
        if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) {
            w += 'e';
        }
        else if (endsWithDoubleConsonant(w) && !/[lsz]$/.test(w)) {
            w = w.slice(0, -1);
        }
    }
    if (w.endsWith('y') && w.length > 3 && !'aeiou'.includes(w[w.length - 2])) {
        w = w.slice(0, -1) + 'i';
    }
    for (const [suffix, replacement] of [['ational', 'ate'], ['ization', 'ize'], ['ation', 'ate'], ['fulness', 'ful'], ['iveness', 'ive'],
        ['ement', ''], ['ment', ''], ['able', ''], ['ible', ''], ['ness', ''], ['ful', ''], ['ly', '']] as const) {
        if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
            w = w.slice(0, -suffix.length) + replacement;
            break;
        }
    }
    if (w.endsWith('e') && w.length > 4) {
        w = w.slice(0, -1);
    }
    return w;
}

/** The stem of a word, mapped to its synonym group's term. */
export function stem(word: string): string {
    const s = stem0(word);
    return SYNONYMS.get(s) ?? s;
}

/** Words of a text, lowercased, apostrophes kept inside words ("don't"), digits kept ("30"). */
export function tokenize(text: string): string[] {
    const lower = text.toLowerCase().replace(/[’‘]/g, '\'');
    return (PHRASE ? lower.replace(PHRASE, (phrase) => phrase.replace(/ /g, '')) : lower).match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];
}

/** minisearch's processTerm: null drops a stop word. */
export function processTerm(term: string): string | null {
    const t = term.toLowerCase().replace(/'s$/, '');
    if (STOP_WORDS.has(t) || t.length < 2 && !/\d/.test(t)) {
        return null;
    }
    return stem(t);
}

/** The distinct content terms of a question, in order. */
export function terms(text: string): string[] {
    const out: string[] = [];
    for (const token of tokenize(text)) {
        const t = processTerm(token);
        if (t && !out.includes(t)) {
            out.push(t);
        }
    }
    return out;
}
