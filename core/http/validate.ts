import Boom from '@hapi/boom';
import type { Schema } from 'joi';

/**
 * Validates a value with a joi schema where no route does it (the CLI commands, before they call a service); a
 * failure is a 400 naming the field. The result's type is the schema's (`Joi.object<T>({...})`).
 */
export function validate<T>(schema: Schema<T>, value: unknown): T {
    const { error, value: result } = schema.validate(value, { abortEarly: false, stripUnknown: false });
    if (error) {
        throw Boom.badRequest([...new Set(error.details.map((d) => d.message))].join('; '));
    }
    return result as T;
}
