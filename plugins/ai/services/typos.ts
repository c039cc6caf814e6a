/**
 * Spelling tolerance of the built-in agent (issue 30): the optimal-string-alignment distance (insertions,
 * deletions, substitutions and swaps of two neighbouring letters, each one edit), and the closest known word.
 */

/** The distance between two words, or max + 1 as soon as it is sure to exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
    if (Math.abs(a.length - b.length) > max) {
        return max + 1;
    }
    const rows: number[][] = [];
    for (let i = 0; i <= a.length; i++) {
        rows.push(new Array<number>(b.length + 1).fill(0));
        rows[i][0] = i;
    }
    for (let j = 0; j <= b.length; j++) {
        rows[0][j] = j;
    }
    for (let i = 1; i <= a.length; i++) {
        let rowMin = Infinity;
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
                d = Math.min(d, rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
            rowMin = Math.min(rowMin, d);
        }
        if (rowMin > max) {
            return max + 1;
        }
    }
    return rows[a.length][b.length];
}

/** Edits a typo of this length may have: one, two from 7 letters. */
export function allowedEdits(word: string): number {
    return word.length >= 7 ? 2 : 1;
}

/**
 * The known word closest to `word` within its allowed edits (at most `cap`), the first one listed on a tie (lists
 * in frequency order give the common word), or null.
 */
export function closest(word: string, known: Iterable<string>, cap = 2): string | null {
    const max = Math.min(cap, allowedEdits(word));
    let best: string | null = null;
    let bestDistance = max + 1;
    for (const candidate of known) {
        if (Math.abs(candidate.length - word.length) > max || candidate[0] !== word[0] && candidate[1] !== word[1]) {
            continue;
        }
        const d = editDistance(word, candidate, bestDistance - 1);
        if (d < bestDistance) {
            best = candidate;
            bestDistance = d;
            if (d === 1 && max === 1) {
                break;
            }
        }
    }
    return bestDistance <= max ? best : null;
}
