import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { adminOf } from '../../../core/http/callers';
import { withCodes } from '../../../core/http/errors';
import { SHIPPED_LANGUAGES } from '../../../core/shared/languages';
import type { UserService } from '../services/user-service';

/** What a profile change may answer (the admin app's catalogue renders `error.<code>`). */
export const PROFILE_ERRORS = {
    displayName: { code: 'auth.display_name_invalid', message: 'A display name is at most 40 characters, without < or >' }
};

/** The display name: up to 40 characters, no markup characters; empty clears it (the first name is used). */
const displayName = withCodes(
    Joi.string().trim().max(40).pattern(/^[^<>\u0000-\u001f]*$/).allow('', null).required()
        .messages({ 'string.max': PROFILE_ERRORS.displayName.message, 'string.pattern.base': PROFILE_ERRORS.displayName.message }),
    { '*': PROFILE_ERRORS.displayName.code }
);

/**
 * The signed-in agent's own profile (issue 23): the display name customers see on the agent's messages and when the
 * agent joins a chat. Only their own: the user comes from the credentials, never from the request.
 */
export function registerProfileRoutes(server: Server, users: UserService): void {
    server.route({
        method: 'GET',
        path: '/api/admin/profile',
        options: {
            id: 'auth.profile.get',
            auth: allow('admin'),
            handler: (request) => users.profile(adminOf(request).userId)
        }
    });
    server.route<{ Payload: { displayName: string | null; language?: string | null } }>({
        method: 'PUT',
        path: '/api/admin/profile',
        options: {
            id: 'auth.profile.update',
            plugins: { audit: { action: 'profile.update' } },
            auth: allow('admin'),
            validate: {
                payload: Joi.object({
                    displayName,
                    // The staff app's language (issue 27): a shipped one, or null for the browser's.
                    language: Joi.string().valid(...SHIPPED_LANGUAGES).allow(null)
                        .messages({ 'any.only': `"language" must be one of ${SHIPPED_LANGUAGES.join(', ')}, or null for the browser's` })
                })
            },
            handler: (request) => users.updateProfile(adminOf(request).userId, { displayName: request.payload.displayName, language: request.payload.language })
        }
    });
}
