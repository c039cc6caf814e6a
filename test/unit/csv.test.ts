import { expect } from 'chai';
import { CsvError, parseCsv } from '../../core/shared/csv';
import { parseCustomersCsv } from '../../plugins/loyalty/customers-csv';

describe('CSV reading (core/shared/csv.ts, used by the loyalty import and the AI knowledge import)', () => {
    it('reads quotes, commas and line breaks in fields, CRLF, a BOM, and gives each row the line it starts on', () => {
        const rows = parseCsv('\uFEFFa,b\r\n"x, ""y""","two\nlines"\n\n  ,\nlast,row');
        expect(rows).to.deep.equal([
            { fields: ['a', 'b'], line: 1 },
            { fields: ['x, "y"', 'two\nlines'], line: 2 },
            { fields: ['last', 'row'], line: 6 }
        ]);
    });

    it('names the line of a quoted field that is never closed', () => {
        expect(() => parseCsv('a,b\n1,"open\n2,3')).to.throw(CsvError, 'Line 2: a quoted field is not closed');
    });

    it('lets the loyalty import name the real line of a bad row after a blank line, and refuse an unclosed quote with a 400', () => {
        const header = 'phone,name,email,loyaltyId,points';
        expect(() => parseCustomersCsv(`${header}\n+15555550100,A,a@example.com,L1,10\n\n+15555550101,B,b@example.com,L2,lots`))
            .to.throw('Line 4: points must be a whole number, found "lots"');
        try {
            parseCustomersCsv(`${header}\n+15555550100,"A,a@example.com,L1,10`);
            expect.fail('an unclosed quote was accepted');
        }
        catch (err) {
            expect((err as { output?: { statusCode: number } }).output?.statusCode).to.equal(400);
            expect((err as Error).message).to.equal('Line 2: a quoted field is not closed');
        }
    });
});
