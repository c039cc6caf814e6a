import Joi from 'joi';
import { fields } from '../../../core/http/fields';
import type { Request } from '@hapi/hapi';

export const idParams = Joi.object({ id: fields.id.required() });

/** The base URL embed snippets use when PUBLIC_URL is not set: the host the caller reached. */
export function requestBaseUrl(request: Request): string {
    return `${request.server.info.protocol}://${request.info.host}`;
}
