import * as Http from 'http';
import type { HTTPRequest, Page } from 'puppeteer-core';

/**
 * Pseudo-localization of the widget at test time (issue 27), adding nothing to what customers download: the page's
 * request for one language's catalogue chunk (`/widget/lang-<lang>.<hash>.js`, fetched with the panel) is answered with
 * that very chunk, changed so that each of its texts comes out accented, about 35 % longer and bracketed ⟦…⟧ — as
 * ui/src/pseudo.ts does for the admin app. A text the panel shows without brackets was never taken from the catalogue
 * (hard-coded English, say); a longer text that is cut or pushes the panel sideways shows at phone width.
 *
 * The chunk is an ES module of webpack's (`export const __webpack_esm_modules__ = { id(module, exports, require) {…} }`);
 * each module is run as built, then the default export of the catalogue module (an object of message functions, the
 * loader's output: config/messages-loader.js) has each function wrapped. The runtime helpers in the chunk export no
 * default and stay as they are.
 */
function pseudoSource(): string {
    // Runs in the page, inside the chunk: no closures over the test's scope.
    function pseudo(text: string): string {
        const accents: Record<string, string> = {
            a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', y: 'ý', s: 'š', z: 'ž',
            A: 'Å', E: 'É', I: 'Î', O: 'Ö', U: 'Û', C: 'Ç', N: 'Ñ', Y: 'Ý', S: 'Š', Z: 'Ž'
        };
        const filler = ['ļöñğ', 'ŵöŕð', 'ţéẋţ', 'ƒíļļ'];
        const accented = text.replace(/[a-zA-Z]/g, (ch) => accents[ch] ?? ch);
        const extra: string[] = [];
        for (let length = 0, i = 0; length < text.length * 0.35; i++) {
            extra.push(filler[i % filler.length]);
            length += 5;
        }
        return `⟦${accented}${extra.length ? ' ' + extra.join(' ') : ''}⟧`;
    }
    function wrap(exports: { default?: unknown }): void {
        const messages = exports.default as Record<string, unknown> | undefined;
        if (!messages || typeof messages !== 'object') {
            return;
        }
        for (const key of Object.keys(messages)) {
            const message = messages[key];
            if (typeof message === 'function') {
                messages[key] = (args?: unknown) => pseudo(String((message as (a?: unknown) => unknown)(args)));
            }
        }
    }
    return `${pseudo.toString()}\n${wrap.toString()}\n`;
}

const MODULES = 'export const __webpack_esm_modules__=';

/** A catalogue chunk's source, its texts pseudo-localized (throws when the chunk is not of the expected shape). */
export function pseudoChunk(source: string): string {
    if (!source.includes(MODULES)) {
        throw new Error('not a webpack ES module chunk: the widget build changed shape, update test/helpers/widget-pseudo.ts');
    }
    return `${source.replace(MODULES, 'const __lcModules=')}
;${pseudoSource()}
for (const id of Object.keys(__lcModules)) {
    const factory = __lcModules[id];
    __lcModules[id] = function (module, exports, require) {
        factory.call(this, module, exports, require);
        wrap(exports);
    };
}
${MODULES}__lcModules;
`;
}

function fetchText(url: string): Promise<{ status: number; headers: Http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
        Http.get(url, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 500, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
        }).on('error', reject);
    });
}

/**
 * From now on this page gets `lang`'s widget catalogue pseudo-localized. Resolves the returned list with the chunk
 * files it changed (a test checks that the pseudo catalogue was really the one used).
 */
export async function pseudoLocalizeWidget(page: Page, lang: string): Promise<string[]> {
    const changed: string[] = [];
    const pattern = new RegExp(`/widget/(lang-${lang.replace(/[^\w-]/g, '')}\\.[0-9a-f]+\\.js)(\\?|$)`);
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
        if (request.isInterceptResolutionHandled()) {
            return;
        }
        const match = pattern.exec(request.url());
        if (!match) {
            void request.continue();
            return;
        }
        void fetchText(request.url()).then((original) => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(original.headers)) {
                if (value !== undefined && !/^(content-length|content-encoding|transfer-encoding|connection|etag)$/i.test(name)) {
                    headers[name] = Array.isArray(value) ? value.join(', ') : value;
                }
            }
            changed.push(match[1]);
            return request.respond({ status: original.status, headers, body: pseudoChunk(original.body) });
        }).catch((err: Error) => request.abort('failed').then(() => {
            throw err;
        }));
    });
    return changed;
}
