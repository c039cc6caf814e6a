/**
 * Many knowledge entries at once (issue 13): Markdown, one entry per heading (any level) with the text under
 * it, or CSV with a header naming `title` and `content` (and optionally `isActive` and `language`, issue 27, and
 * `phrasings`, issue 30). Each problem is reported with its line; the caller stores all entries or none.
 *
 * Other ways customers ask (issue 30): in Markdown, a line "Other ways customers ask:" under the heading and a list
 * ("- How long do I have to send it back?") after it; in CSV, a `phrasings` cell, one per line or separated by " | ".
 */
import { CsvError, parseCsv as csvRows } from '../../../core/shared/csv';
import { SHIPPED_LANGUAGES } from '../../../core/shared/languages';

export interface ImportedEntry {
    title: string;
    content: string;
    isActive: boolean;
    /**
     * The row's own language (a CSV `language` column, issue 27): a shipped tag as the product spells it. Absent when
     * the file has no such column or the row's cell is empty: the import's language (by default the store's default).
     */
    lang?: string;
    /** Other ways customers ask for it (issue 30), when the file gives some; checked by the caller (knowledgeFields). */
    phrasings?: string[];
    /** The line the entry starts on, to name in the caller's errors. */
    line: number;
}

/** A CSV `language` cell: a shipped language, case ignored ("PT-br" is pt-BR); undefined when empty, null when unknown. */
export function rowLanguage(cell: string): string | undefined | null {
    const wanted = cell.trim().toLowerCase();
    if (!wanted) {
        return undefined;
    }
    return SHIPPED_LANGUAGES.find((lang) => lang.toLowerCase() === wanted) ?? null;
}

export const MAX_TITLE = 300;
export const MAX_CONTENT = 10000;
export const MAX_IMPORT = 1000;

export class ImportError extends Error {}

function check(entry: Omit<ImportedEntry, 'line'>, line: number): ImportedEntry {
    if (!entry.title) {
        throw new ImportError(`Line ${line}: the title is empty`);
    }
    if (entry.title.length > MAX_TITLE) {
        throw new ImportError(`Line ${line}: the title is longer than ${MAX_TITLE} characters`);
    }
    if (!entry.content) {
        throw new ImportError(`Line ${line}: "${entry.title}" has no content`);
    }
    if (entry.content.length > MAX_CONTENT) {
        throw new ImportError(`Line ${line}: the content of "${entry.title}" is longer than ${MAX_CONTENT} characters`);
    }
    return { ...entry, line };
}

/** The line that opens an entry's list of other ways customers ask, in Markdown. */
const PHRASINGS_LABEL = /^\s{0,3}(?:other ways (?:customers |people )?ask|also asked as|phrasings)\s*:\s*$/i;
/** An item of that list. */
const LIST_ITEM = /^\s{0,3}[-*+]\s+(.*?)\s*$/;

export function parseMarkdown(text: string): ImportedEntry[] {
    const entries: ImportedEntry[] = [];
    let current: { title: string; lines: string[]; line: number; phrasings?: string[]; listing: boolean } | null = null;
    const flush = () => {
        if (current) {
            const entry = { title: current.title, content: current.lines.join('\n').trim(), isActive: true };
            entries.push(check(current.phrasings ? { ...entry, phrasings: current.phrasings } : entry, current.line));
        }
    };
    text.split(/\r?\n/).forEach((raw, i) => {
        const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
        if (heading) {
            flush();
            current = { title: heading[1].trim(), lines: [], line: i + 1, listing: false };
        }
        else if (current) {
            const item = current.listing ? LIST_ITEM.exec(raw) : null;
            if (PHRASINGS_LABEL.test(raw)) {
                current.phrasings ??= [];
                current.listing = true;
            }
            else if (item) {
                current.phrasings?.push(item[1]);
            }
            else if (current.listing && !raw.trim()) {
                // A blank line between the label and its list, or after it.
            }
            else {
                current.listing = false;
                current.lines.push(raw);
            }
        }
        else if (raw.trim()) {
            throw new ImportError(`Line ${i + 1}: text before the first heading (each entry starts with a "# Title" line)`);
        }
    });
    flush();
    return entries;
}

export function parseCsv(text: string): ImportedEntry[] {
    let rows: Array<[string[], number]>;
    try {
        rows = csvRows(text).map((r) => [r.fields, r.line]);
    }
    catch (err) {
        throw err instanceof CsvError ? new ImportError(err.message) : err;
    }
    if (!rows.length) {
        return [];
    }
    const header = rows[0][0].map((h) => h.trim().toLowerCase());
    const title = header.indexOf('title');
    const content = header.indexOf('content');
    const active = header.findIndex((h) => h === 'isactive' || h === 'is_active' || h === 'active');
    const language = header.findIndex((h) => h === 'language' || h === 'lang');
    const phrasings = header.indexOf('phrasings');
    if (title < 0 || content < 0) {
        throw new ImportError('Line 1: the header must name the columns title and content');
    }
    return rows.slice(1).map(([fields, line]) => {
        const flag = active >= 0 ? (fields[active] ?? '').trim().toLowerCase() : '';
        if (flag && !['true', 'false', 'yes', 'no', '1', '0'].includes(flag)) {
            throw new ImportError(`Line ${line}: isActive must be true or false`);
        }
        const cell = language >= 0 ? (fields[language] ?? '') : '';
        const lang = rowLanguage(cell);
        if (lang === null) {
            throw new ImportError(`Line ${line}: the language "${cell.trim()}" is not one of ${SHIPPED_LANGUAGES.join(', ')} (empty: the store's default language)`);
        }
        const entry = check({
            title: (fields[title] ?? '').trim(),
            content: (fields[content] ?? '').trim(),
            isActive: !['false', 'no', '0'].includes(flag)
        }, line);
        const asked = phrasings >= 0 ? (fields[phrasings] ?? '').split(/\r?\n| \| /).map((p) => p.trim()).filter(Boolean) : [];
        return { ...entry, ...(lang ? { lang } : {}), ...(asked.length ? { phrasings: asked } : {}) };
    });
}

export function parseKnowledge(format: 'markdown' | 'csv', text: string): ImportedEntry[] {
    const entries = format === 'csv' ? parseCsv(text) : parseMarkdown(text);
    if (!entries.length) {
        throw new ImportError('The file holds no entries');
    }
    if (entries.length > MAX_IMPORT) {
        throw new ImportError(`At most ${MAX_IMPORT} entries can be imported at once`);
    }
    return entries;
}
