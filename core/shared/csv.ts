import { stringify } from 'csv-stringify/sync';

/** One row of a CSV text: its fields and the line it starts on (1-based; a quoted field may span lines). */
export interface CsvRow {
    fields: string[];
    line: number;
}

/** A CSV text that cannot be read (its message names the line). */
export class CsvError extends Error {}

/**
 * Splits CSV text into rows (RFC 4180: fields in double quotes may hold commas, line breaks and `""`; CRLF or
 * LF; a leading byte-order mark is ignored). Rows with no text in any field are skipped.
 */
export function parseCsv(input: string): CsvRow[] {
    const text = input.replace(/^\uFEFF/, '');
    const rows: CsvRow[] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    let line = 1;
    let rowLine = 1;
    const endRow = () => {
        row.push(field);
        if (row.some((f) => f.trim())) {
            rows.push({ fields: row, line: rowLine });
        }
        row = [];
        field = '';
    };
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (quoted) {
            if (c === '"' && text[i + 1] === '"') {
                field += '"';
                i++;
            }
            else if (c === '"') {
                quoted = false;
            }
            else {
                if (c === '\n') {
                    line++;
                }
                field += c;
            }
        }
        else if (c === '"' && field === '') {
            quoted = true;
        }
        else if (c === ',') {
            row.push(field);
            field = '';
        }
        else if (c === '\n' || c === '\r') {
            if (c === '\r' && text[i + 1] === '\n') {
                i++;
            }
            endRow();
            line++;
            rowLine = line;
        }
        else {
            field += c;
        }
    }
    if (quoted) {
        throw new CsvError(`Line ${rowLine}: a quoted field is not closed`);
    }
    endRow();
    return rows;
}

/**
 * A value as the text of its CSV cell, defused against formula injection (OWASP "CSV Injection"): text starting
 * with =, +, -, @, a tab or a carriage return gets a leading apostrophe, whatever follows (`-1+cmd|'/C calc'!A0`
 * and `+15555550100` alike, since a spreadsheet evaluates both). Only real numbers (typeof number) are written as
 * they are; objects as JSON.
 */
export function defusedCell(value: unknown): string {
    if (typeof value === 'number') {
        return Number.isFinite(value) ? String(value) : '';
    }
    const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * One CSV line (RFC 4180, CRLF) for a file staff open in a spreadsheet, written by csv-stringify: every cell
 * defused (defusedCell), quoted when it holds a comma, a quote or a line break. Every CSV the product writes goes
 * through this function.
 */
export function csvLine(values: unknown[]): string {
    return stringify([values.map(defusedCell)], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

/** One cell as csvLine writes it (without the line's end). */
export function csvCell(value: unknown): string {
    return csvLine([value]).slice(0, -2);
}
