import Joi from 'joi';
import { fields } from '../../../core/http/fields';
import type { ReqRef, Request } from '@hapi/hapi';

export const idParams = Joi.object<{ id: number }>({ id: fields.id.required() });

/** The base URL embed snippets use when PUBLIC_URL is not set: the host the caller reached. */
export function requestBaseUrl<Refs extends ReqRef>(request: Request<Refs>): string {
    return `${request.server.info.protocol}://${request.info.host}`;
}
