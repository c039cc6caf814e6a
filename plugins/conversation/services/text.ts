/**
 * Words of a customer's message for the decision: each with its place in the text (so what follows "never mind" can
 * be asked as a question) and a normalised form that ignores case, accents and apostrophes ("Didn't" = "didnt",
 * "llegó" = "llego"). Letters of every script count (\p{L}): Arabic or Cyrillic words are words too.
 */
export interface Token {
    /** As typed. */
    text: string;
    /** Lowercased, without accents (NFKD minus combining marks) and apostrophes. */
    norm: string;
    start: number;
    end: number;
}

const WORD = /[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}'’‘`´]*/gu;

export function normalize(word: string): string {
    return word.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/['’‘`´]/g, '');
}

export function tokens(text: string): Token[] {
    const out: Token[] = [];
    for (const match of text.matchAll(WORD)) {
        const norm = normalize(match[0]);
        if (norm) {
            out.push({ text: match[0], norm, start: match.index ?? 0, end: (match.index ?? 0) + match[0].length });
        }
    }
    return out;
}

export function hasLetter(token: Token): boolean {
    return /\p{L}/u.test(token.norm);
}

/** Asks something in punctuation: ?, Spanish ¿, Arabic ؟. */
export function hasQuestionMark(text: string): boolean {
    return /[?¿؟]/.test(text);
}

const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];

/**
 * A token that is not a word: keyboard runs ("asdf", "jkl"), one letter repeated ("aaaa"), or a Latin token of four or
 * more letters with no vowel ("sdfgh", "brrr"). Other scripts are not judged.
 */
export function isGibberish(norm: string): boolean {
    if (!/^[a-z]+$/.test(norm)) {
        return false;
    }
    if (/(.)\1\1/.test(norm)) {
        return true;
    }
    if (norm.length >= 4 && !/[aeiouy]/.test(norm)) {
        return true;
    }
    if (norm.length >= 4) {
        for (const row of KEYBOARD_ROWS) {
            let run = 1;
            for (let i = 1; i < norm.length; i++) {
                const a = row.indexOf(norm[i - 1]);
                const b = row.indexOf(norm[i]);
                run = a >= 0 && b >= 0 && Math.abs(a - b) === 1 ? run + 1 : 1;
                if (run >= 4) {
                    return true;
                }
            }
        }
    }
    return false;
}
