/**
 * Message catalogues (DESIGN §9, §10; issue 27). Every text a customer or an agent reads is an ICU MessageFormat
 * message in a catalogue: one JSON file per language, `<lang>.json`, in a `locales/` folder of the part that shows
 * it (widget/locales, ui/locales, plugins/<name>/locales), English (`en.json`) being the reference. Keys starting
 * with '@' are about the catalogue, not texts: `"@reviewed"` says whether a person reviewed it.
 *
 * The same compiler serves everyone: webpack turns each browser catalogue into a module of plain functions at
 * build time (config/messages-loader.js, so no message parser reaches the widget or the admin app), and the server
 * compiles its own catalogues when it first needs them. Both refuse a catalogue that lacks a key English has, has a
 * key English lacks, or whose message takes other arguments than English's (`checkCatalogue`): a missing text
 * fails the build and the unit test (test/unit/catalogues.test.ts), never shows a key to a customer.
 */
import * as Fs from 'fs';
import * as Path from 'path';
import MessageFormat from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module';
import { parse } from '@messageformat/parser';
import type { Token } from '@messageformat/parser';
import { matchLanguage } from '../shared/languages';

/** The reference language: every other catalogue has exactly its keys and arguments. */
export const REFERENCE = 'en';

export interface Catalogue {
    /** BCP 47 tag, the file's name (`es`, `pt-BR`). */
    lang: string;
    /** Where it was read from (for messages). */
    source: string;
    /** A person reviewed the texts (machine or first-draft translations say false). */
    reviewed: boolean;
    /** key → ICU MessageFormat message. */
    messages: Record<string, string>;
}

/** What an argument must be given: text (`{name}`, select), a number (number, plural, selectordinal) or a date. */
export type ArgumentKind = 'text' | 'number' | 'date';

/** A compiled message: its arguments in, the text out. */
export type MessageFunction = (args?: Record<string, unknown>) => string;

/** Reads a catalogue object (a parsed JSON file); throws on anything that is not one. */
export function toCatalogue(lang: string, value: unknown, source = `${lang}.json`): Catalogue {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
        throw new Error(`${source}: a catalogue is a JSON object of key → message`);
    }
    const messages: Record<string, string> = {};
    let reviewed: boolean | undefined;
    for (const [key, message] of Object.entries(value as Record<string, unknown>)) {
        if (key === '@reviewed') {
            if (typeof message !== 'boolean') {
                throw new Error(`${source}: "@reviewed" must be true or false`);
            }
            reviewed = message;
        }
        else if (key.startsWith('@')) {
            continue;       // other notes about the catalogue
        }
        else if (typeof message !== 'string') {
            throw new Error(`${source}: "${key}" must be a string (an ICU message)`);
        }
        else {
            messages[key] = message;
        }
    }
    if (reviewed === undefined) {
        throw new Error(`${source}: "@reviewed" is missing (true once a person reviewed the texts)`);
    }
    return { lang, source, reviewed, messages };
}

export function readCatalogue(file: string): Catalogue {
    const text = Fs.readFileSync(file, 'utf8');
    let value: unknown;
    try {
        value = JSON.parse(text);
    }
    catch (err) {
        throw new Error(`${file}: not JSON (${(err as Error).message})`);
    }
    return toCatalogue(Path.basename(file, '.json'), value, file);
}

/** The arguments of one message and what each must be given; throws a message's syntax error. */
export function argumentsOf(message: string): Map<string, ArgumentKind> {
    const kinds = new Map<string, ArgumentKind>();
    const note = (arg: string, kind: ArgumentKind) => {
        const seen = kinds.get(arg);
        // `{n, plural, … {n} …}`: used as a number somewhere, it must be a number.
        if (!seen || seen === 'text') {
            kinds.set(arg, kind);
        }
    };
    const walk = (tokens: Token[]) => {
        for (const token of tokens) {
            switch (token.type) {
                case 'argument':
                    note(token.arg, 'text');
                    break;
                case 'function':
                    note(token.arg, token.key === 'date' || token.key === 'time' ? 'date' : token.key === 'number' ? 'number' : 'text');
                    walk(token.param ?? []);
                    break;
                case 'plural':
                case 'selectordinal':
                case 'select':
                    note(token.arg, token.type === 'select' ? 'text' : 'number');
                    token.cases.forEach((c) => walk(c.tokens));
                    break;
                default:
                    break;
            }
        }
    };
    walk(parse(message));
    return kinds;
}

function describe(kinds: Map<string, ArgumentKind>): string {
    return kinds.size ? [...kinds].sort(([a], [b]) => a.localeCompare(b)).map(([arg, kind]) => `${arg} (${kind})`).join(', ') : 'none';
}

/** A compiler for a language (its plural rules, its number and date formats). */
function compilerFor(lang: string): MessageFormat {
    try {
        return new MessageFormat(lang);
    }
    catch {
        return new MessageFormat(lang.split('-')[0]);
    }
}

/**
 * What is wrong with a catalogue, as sentences (none: it is complete). Each message must compile; a catalogue other
 * than English must have exactly English's keys, each message taking the same arguments of the same kinds.
 */
export function checkCatalogue(catalogue: Catalogue, reference?: Catalogue): string[] {
    const problems: string[] = [];
    const at = `${catalogue.source}`;
    const mf = compilerFor(catalogue.lang);
    const own = new Map<string, Map<string, ArgumentKind>>();
    for (const [key, message] of Object.entries(catalogue.messages)) {
        try {
            own.set(key, argumentsOf(message));
            mf.compile(message);
        }
        catch (err) {
            problems.push(`${at}: "${key}" is not a valid ICU message: ${(err as Error).message}`);
        }
    }
    if (!reference || reference === catalogue) {
        return problems;
    }
    for (const key of Object.keys(reference.messages)) {
        if (!(key in catalogue.messages)) {
            problems.push(`${at}: "${key}" is missing (${reference.lang}: ${JSON.stringify(reference.messages[key])})`);
        }
    }
    for (const key of Object.keys(catalogue.messages)) {
        if (!(key in reference.messages)) {
            problems.push(`${at}: "${key}" is not in ${reference.lang} (remove it, or add it to ${reference.lang} first)`);
            continue;
        }
        const mine = own.get(key);
        let theirs: Map<string, ArgumentKind>;
        try {
            theirs = argumentsOf(reference.messages[key]);
        }
        catch {
            continue;       // reported when the reference itself is checked
        }
        if (mine && describe(mine) !== describe(theirs)) {
            problems.push(`${at}: "${key}" takes ${describe(mine)}, but ${reference.lang} takes ${describe(theirs)}`);
        }
    }
    return problems;
}

/** The catalogues of one `locales/` folder, English first. */
export function readFolder(dir: string): Catalogue[] {
    const files = Fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    if (!files.includes(`${REFERENCE}.json`)) {
        throw new Error(`${dir}: ${REFERENCE}.json (the reference catalogue) is missing`);
    }
    const catalogues = files.map((f) => readCatalogue(Path.join(dir, f)));
    return [...catalogues.filter((c) => c.lang === REFERENCE), ...catalogues.filter((c) => c.lang !== REFERENCE)];
}

/** Every problem of every catalogue of a folder. */
export function checkFolder(dir: string): string[] {
    let catalogues: Catalogue[];
    try {
        catalogues = readFolder(dir);
    }
    catch (err) {
        return [(err as Error).message];
    }
    const english = catalogues[0];
    return catalogues.flatMap((c) => checkCatalogue(c, english));
}

/** Every `locales/` folder of the project (widget, admin app, server plugins). */
export function catalogueFolders(root: string): string[] {
    const candidates = [Path.join(root, 'widget', 'locales'), Path.join(root, 'ui', 'locales')];
    const plugins = Path.join(root, 'plugins');
    if (Fs.existsSync(plugins)) {
        for (const name of Fs.readdirSync(plugins).sort()) {
            candidates.push(Path.join(plugins, name, 'locales'));
        }
    }
    return candidates.filter((dir) => Fs.existsSync(dir) && Fs.statSync(dir).isDirectory());
}

/**
 * The ES module source of a catalogue's messages (keys chosen by `keep`): a default export of one plain function
 * per key, importing only the small formatters of @messageformat/runtime that its messages use (build time).
 */
export function compileModuleSource(catalogue: Catalogue, keep: (key: string) => boolean = () => true): string {
    const messages: Record<string, string> = {};
    for (const [key, message] of Object.entries(catalogue.messages)) {
        if (keep(key)) {
            messages[key] = message;
        }
    }
    return compileModule(compilerFor(catalogue.lang), messages);
}

/** The messages as functions (the server's catalogues, compiled once when first used). */
export function compileFunctions(catalogue: Catalogue): Record<string, MessageFunction> {
    const mf = compilerFor(catalogue.lang);
    const out: Record<string, MessageFunction> = {};
    for (const [key, message] of Object.entries(catalogue.messages)) {
        out[key] = mf.compile(message) as MessageFunction;
    }
    return out;
}

/**
 * A server catalogue set (the JSON files a plugin imports), compiled per language on first use. `messages(locale)`
 * gives the language's functions, or English's for a language the set does not have. The catalogues are checked
 * when compiled: an incomplete one throws rather than sending a customer a key.
 */
export function serverCatalogues<E extends object>(files: { en: E } & Record<string, unknown>):
    (locale?: string | null) => Record<Exclude<keyof E & string, `@${string}`>, MessageFunction> {
    type Functions = Record<Exclude<keyof E & string, `@${string}`>, MessageFunction>;
    const shipped = Object.keys(files);
    const compiled = new Map<string, Functions>();
    const english = toCatalogue(REFERENCE, files[REFERENCE], `${REFERENCE} catalogue`);
    return (locale) => {
        const lang = matchLanguage(locale, shipped) ?? REFERENCE;
        let functions = compiled.get(lang);
        if (!functions) {
            const catalogue = lang === REFERENCE ? english : toCatalogue(lang, files[lang], `${lang} catalogue`);
            const problems = checkCatalogue(catalogue, english);
            if (problems.length) {
                throw new Error(`incomplete catalogue: ${problems.join('; ')}`);
            }
            functions = compileFunctions(catalogue) as Functions;
            compiled.set(lang, functions);
        }
        return functions;
    };
}
