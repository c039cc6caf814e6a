/**
 * Pseudo-localization (issue 27): English texts made longer (about 40 % more, as German or French often are) and
 * accented, each bracketed ⟦…⟧, so that a test at phone width shows any text that is cut, overflows or was never
 * moved into the catalogue (it stays plain English). Not a language an agent picks: the tests choose it
 * (`localStorage['lc-admin-lang'] = 'en-XA'`, the tag Chrome and Android use for pseudo-locales).
 */
const ACCENTS: Record<string, string> = {
    a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', y: 'ý', s: 'š', z: 'ž',
    A: 'Å', E: 'É', I: 'Î', O: 'Ö', U: 'Û', C: 'Ç', N: 'Ñ', Y: 'Ý', S: 'Š', Z: 'Ž'
};
const FILLER = ['ļöñğ', 'ŵöŕð', 'ţéẋţ', 'ƒíļļ'];

export function pseudo(text: string): string {
    const accented = text.replace(/[a-zA-Z]/g, (ch) => ACCENTS[ch] ?? ch);
    const extra: string[] = [];
    for (let length = 0, i = 0; length < text.length * 0.4; i++) {
        extra.push(FILLER[i % FILLER.length]);
        length += 5;
    }
    return `⟦${accented}${extra.length ? ' ' + extra.join(' ') : ''}⟧`;
}

/** Every text of a catalogue, pseudo-localized (its arguments filled in first, then the whole text transformed). */
export function pseudoMessages<M extends Record<string, (args?: Record<string, unknown>) => string>>(messages: M): M {
    const out: Record<string, (args?: Record<string, unknown>) => string> = {};
    for (const [key, message] of Object.entries(messages)) {
        out[key] = (args) => pseudo(message(args));
    }
    return out as M;
}
