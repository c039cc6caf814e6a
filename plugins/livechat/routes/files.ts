import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Request, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import { Limit } from '../../../core/http/rate-limit';
import { allow, PUBLIC } from '../../../core/http/access';
import { fields } from '../../../core/http/fields';
import { adminOf, callerOf } from '../../../core/http/callers';
import { FILE_ERRORS } from '../errors';
import { tooBig } from '../files/inspect';
import type { Uploader } from '../services/attachments-service';

const FILE_ID = Joi.string().pattern(/^[A-Za-z0-9_-]{16,64}$/).messages({ 'string.pattern.base': '"fileId" is not a file id' });

/** The caller of a chat's route: the customer of that chat, or an admin of the store (their organization). */
function uploaderOf(request: Request): { organizationId: number; by: Uploader } {
    const caller = callerOf(request);
    if (caller.kind === 'customer') {
        if ((request.params as { sessionId: string }).sessionId !== caller.sessionId) {
            throw Boom.notFound('Chat session not found');
        }
        return { organizationId: caller.organizationId, by: { sender: 'customer', userId: null } };
    }
    const admin = adminOf(request);
    return { organizationId: admin.organizationId, by: { sender: 'agent', userId: admin.userId } };
}

/**
 * Photos and files in live chat (issue 29). The upload takes the file's bytes as the body (any Content-Type: the
 * type is read from the bytes) and its name in the query; the message that carries it names its id
 * (`attachments` of POST …/messages). The bytes are read only through a short-lived signed URL that the chat's
 * callers ask for, served from their own path with headers that keep a browser from running anything.
 */
export function fileRoutes(server: Server): ServerRoute[] {
    const files = () => server.app.services.livechatFiles;
    const settings = server.app.config.files;
    const perChat = new Limit(server.app, { name: 'chat-files-chat', points: settings.perChatHour, duration: 3600 });
    const perStore = new Limit(server.app, { name: 'chat-files-store', points: settings.perStoreHour, duration: 3600 });
    const params = Joi.object({ sessionId: fields.chatSessionId.required() });

    /** hapi's own 413 (the body is larger than FILES_MAX_MB) in the words the widget and console show. */
    const sizeInWords = (request: Request, h: ResponseToolkit) => {
        const response = request.response;
        if (Boom.isBoom(response) && response.output.statusCode === 413 && !(response.output.payload as { code?: string }).code) {
            const boom = tooBig(settings.maxBytes);
            return h.response(boom.output.payload).code(413);
        }
        return h.continue;
    };

    return [
        {
            method: 'POST',
            path: '/api/chat/session/{sessionId}/files',
            options: {
                id: 'livechat.file.upload',
                auth: allow('admin', 'customer'),
                tags: ['widget'],
                description: 'Uploads one photo (JPEG, PNG, WebP, GIF) or PDF to an open chat: the body is the file\'s bytes; the answer is its id, to send in a message',
                // The bytes as they come, whatever Content-Type the client sent (the type is read from the bytes).
                payload: { parse: true, override: 'application/octet-stream', output: 'data', maxBytes: settings.maxBytes, timeout: 60_000 },
                ext: { onPreResponse: { method: sizeInWords } },
                validate: {
                    params,
                    query: Joi.object({ name: Joi.string().trim().max(200).allow('') }),
                    payload: Joi.binary().allow(null)
                },
                handler: async (request, h) => {
                    const { organizationId, by } = uploaderOf(request);
                    const { sessionId } = request.params as { sessionId: string };
                    await perChat.consume(`${organizationId}:${sessionId}:${by.sender}`, FILE_ERRORS.tooMany);
                    await perStore.consume(String(organizationId), FILE_ERRORS.tooMany);
                    const data = Buffer.isBuffer(request.payload) ? request.payload : Buffer.alloc(0);
                    const attachment = await files().upload(organizationId, sessionId, by, data, (request.query as { name?: string }).name ?? null);
                    return h.response(attachment).code(201);
                }
            }
        },
        {
            method: 'GET',
            path: '/api/chat/session/{sessionId}/files/{fileId}/link',
            options: {
                id: 'livechat.file.link',
                auth: allow('admin', 'customer'),
                tags: ['widget'],
                description: 'Short-lived signed URLs (FILES_URL_SECONDS) of a file of this chat: `url`, and `thumbUrl` for a photo with a thumbnail',
                validate: { params: Joi.object({ sessionId: fields.chatSessionId.required(), fileId: FILE_ID.required() }) },
                handler: async (request) => {
                    const { organizationId } = uploaderOf(request);
                    const { sessionId, fileId } = request.params as { sessionId: string; fileId: string };
                    return files().link(organizationId, sessionId, fileId);
                }
            }
        },
        ...(['file', 'thumb'] as const).map((variant): ServerRoute => ({
            method: 'GET',
            path: variant === 'thumb' ? '/api/files/{fileId}/thumb' : '/api/files/{fileId}',
            options: {
                id: variant === 'thumb' ? 'livechat.file.thumb' : 'livechat.file.get',
                auth: PUBLIC,
                description: variant === 'thumb'
                    ? 'A photo\'s thumbnail (fits in 400×400, WebP, no metadata) by its signed URL, under the same rules as the photo'
                    : 'A chat file by its signed URL: images inline, anything else as a download; never run by a browser',
                validate: {
                    params: Joi.object({ fileId: FILE_ID.required() }),
                    query: Joi.object({
                        expires: Joi.number().integer().min(0).max(8_640_000_000_000).required(),
                        signature: Joi.string().pattern(/^[A-Za-z0-9_-]{20,100}$/).required()
                    })
                },
                handler: async (request, h) => {
                    const { fileId } = request.params as { fileId: string };
                    const { expires, signature } = request.query as { expires: number; signature: string };
                    const { attachment, data, mime } = await files().read(fileId, expires, signature, variant);
                    const image = mime.startsWith('image/');
                    const given = variant === 'thumb' ? attachment.name.replace(/\.[A-Za-z0-9]{1,8}$/, '-thumb.webp') : attachment.name;
                    const name = given.replace(/[^A-Za-z0-9._ -]/g, '_');
                    return h.response(data)
                        .type(mime)
                        .header('content-disposition', `${image ? 'inline' : 'attachment'}; filename="${name}"; filename*=UTF-8''${encodeURIComponent(given)}`)
                        .header('x-content-type-options', 'nosniff')
                        .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
                        .header('cross-origin-resource-policy', 'cross-origin')
                        .header('cache-control', 'private, max-age=300')
                        .header('referrer-policy', 'no-referrer');
                }
            }
        }))
    ];
}
