import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { UserCredentials } from '../../../core/types';

export const idParams = Joi.object({ id: Joi.number().integer().positive().max(2147483647).required() });

export function credentialsOf(request: Request): UserCredentials {
    return request.auth.credentials as unknown as UserCredentials;
}

/** The base URL embed snippets use when PUBLIC_URL is not set: the host the caller reached. */
export function requestBaseUrl(request: Request): string {
    return `${request.server.info.protocol}://${request.info.host}`;
}
