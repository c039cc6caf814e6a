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
