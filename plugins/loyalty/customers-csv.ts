import Boom from '@hapi/boom';
import Joi from 'joi';
import { e164, fields } from '../../core/http/fields';
import { CsvError, CsvRow, parseCsv } from '../../core/shared/csv';

/** One member of the built-in loyalty provider as the CSV import gives it (phone in E.164). */
export interface CustomerRow {
    phone: string;
    name: string | null;
    email: string | null;
    loyaltyId: string | null;
    points: number;
}

export const CSV_HEADER = ['phone', 'name', 'email', 'loyaltyId', 'points'] as const;

/** One CSV line of `customers import`, by its header's names; the phone becomes E.164, blanks become null. */
export const customerRow = Joi.object<CustomerRow>({
    phone: fields.phone.required()
        .custom((value: string, helpers) => e164(value) ?? helpers.error('phone.impossible'))
        .messages({
            'string.empty': 'a phone number is required',
            'string.max': '"{{#value}}" is not a valid phone number',
            'string.pattern.base': '"{{#value}}" is not a valid phone number',
            'phone.impossible': '"{{#value}}" is not a valid phone number'
        }),
    name: Joi.string().trim().max(200).empty('').default(null),
    email: Joi.string().trim().max(320).pattern(/^[^@\s]+@[^@\s]+$/).empty('').default(null)
        .messages({ 'string.pattern.base': '"{{#value}}" is not an email address' }),
    loyaltyId: Joi.string().trim().max(100).empty('').default(null),
    points: Joi.string().trim().pattern(/^\d{1,9}$/).required()
        .custom((value: string) => Number(value))
        .messages({ 'string.empty': 'points must be a whole number, found ""', 'string.pattern.base': 'points must be a whole number, found "{{#value}}"' })
});

/**
 * The customers of a CSV file with the header `phone,name,email,loyaltyId,points`, each line validated with
 * `customerRow`: what `LoyaltyService.importCustomers` takes. A bad file is a 400 naming its first bad line.
 */
export function parseCustomersCsv(text: string): CustomerRow[] {
    let rows: CsvRow[];
    try {
        rows = parseCsv(text);
    }
    catch (err) {
        throw err instanceof CsvError ? Boom.badRequest(err.message) : err;
    }
    if (!rows.length) {
        throw Boom.badRequest('The CSV file is empty');
    }
    const header = rows[0].fields.map((h) => h.trim());
    if (header.join(',') !== CSV_HEADER.join(',')) {
        throw Boom.badRequest(`The CSV header must be "${CSV_HEADER.join(',')}", found "${header.join(',')}"`);
    }
    return rows.slice(1).map(({ fields: values, line }) => {
        if (values.length !== CSV_HEADER.length) {
            throw Boom.badRequest(`Line ${line}: expected ${CSV_HEADER.length} fields, found ${values.length}`);
        }
        const { error, value } = customerRow.validate(Object.fromEntries(CSV_HEADER.map((name, i) => [name, values[i]])));
        if (error) {
            throw Boom.badRequest(`Line ${line}: ${error.details[0].message}`);
        }
        return value;
    });
}
