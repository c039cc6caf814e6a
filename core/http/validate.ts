import Boom from '@hapi/boom';
import type { Schema } from 'joi';

/** Validates a value with a joi schema for services and the CLI; a failure is a 400 naming the field. */
export function validate<T>(schema: Schema, value: unknown): T {
    const { error, value: result } = schema.validate(value, { abortEarly: false, stripUnknown: false });
    if (error) {
        throw Boom.badRequest(error.details.map((d) => d.message).join('; '));
    }
    return result as T;
}
