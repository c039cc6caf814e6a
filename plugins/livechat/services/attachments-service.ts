import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import { coded } from '../../../core/http/errors';
import type { ChatAttachment } from '../../../core/types/api';
import { FILE_ERRORS, LIVECHAT_ERRORS } from '../errors';
import { inspect, THUMB_MIME } from '../files/inspect';
import type { FileStorage } from '../files/storage';

export interface FilesSettings { maxBytes: number; perMessage: number; unsentMs: number; urlMs: number; maxPixels: number }

interface AttachmentRow {
    id: number; file_id: string; organization_id: number; chat_session_id: number; message_id: number | string | null;
    uploader: 'customer' | 'agent'; uploader_user_id: number | null; mime: string; size: number; name: string;
    width: number | null; height: number | null; storage_key: string; thumb_key: string | null; created_at: number | string;
}

/** The two renditions of a file a signed URL can name: the file, or a photo's thumbnail. */
export type FileVariant = 'file' | 'thumb';

/** The stored keys of a row: the file's and its thumbnail's. */
function keysOf(rows: Array<{ storage_key: string; thumb_key: string | null }>): string[] {
    return rows.flatMap((r) => (r.thumb_key ? [r.storage_key, r.thumb_key] : [r.storage_key]));
}

export type Uploader = { sender: 'customer'; userId: null } | { sender: 'agent'; userId: number };

/** Files claimed by a message about to be stored: checked before, attached after it is stored. */
export interface ClaimedFiles { rowIds: number[]; attachments: ChatAttachment[] }

function toAttachment(row: AttachmentRow): ChatAttachment {
    return { id: row.file_id, name: row.name, mime: row.mime, size: Number(row.size), width: row.width ?? null, height: row.height ?? null };
}

/** A random, unguessable id (128 bits), URL-safe. */
function randomId(): string {
    return Crypto.randomBytes(16).toString('base64url');
}

/**
 * Photos and files in live chat (issue 29): the upload (checked and cleaned by files/inspect.ts, stored through one
 * FileStorage), the claim a message makes on its files, short-lived signed URLs (HMAC over id and expiry with the
 * server's secret), the sweep of uploads never sent, and the removal of a chat's files (erasure, retention).
 */
export class AttachmentsService {
    constructor(private readonly deps: { db: Db; storage: FileStorage; files: FilesSettings; secret: string; now?: () => number }) {}

    private now(): number {
        return this.deps.now?.() ?? Date.now();
    }

    get storage(): FileStorage {
        return this.deps.storage;
    }

    private async chatOf(organizationId: number, sessionId: string): Promise<{ id: number; status: string }> {
        const row = await this.deps.db('chat_sessions').where({ organization_id: organizationId, session_id: sessionId }).first('id', 'status');
        if (!row) {
            throw Boom.notFound('Chat session not found');
        }
        return row as { id: number; status: string };
    }

    /** Checks, cleans and stores one upload in an open chat; nothing is kept when any step fails. */
    async upload(organizationId: number, sessionId: string, by: Uploader, data: Buffer, name: string | null): Promise<ChatAttachment> {
        const chat = await this.chatOf(organizationId, sessionId);
        if (!(by.sender === 'agent' ? ['agent_connected'] : ['waiting', 'agent_connected']).includes(chat.status)) {
            throw coded(Boom.conflict(LIVECHAT_ERRORS.chatEnded.message), LIVECHAT_ERRORS.chatEnded.code);
        }
        const file = await inspect(data, name, this.deps.files);
        const fileId = randomId();
        const storageKey = `${organizationId}/${randomId()}`;
        const thumbKey = file.thumb ? `${organizationId}/${randomId()}` : null;
        const keys = thumbKey ? [storageKey, thumbKey] : [storageKey];
        try {
            await this.deps.storage.put(storageKey, file.data, file.mime);
            if (thumbKey) {
                await this.deps.storage.put(thumbKey, file.thumb!, THUMB_MIME);
            }
        }
        catch (err) {
            await this.deps.storage.remove(keys).catch(() => undefined);
            throw err;
        }
        const row = {
            file_id: fileId, organization_id: organizationId, chat_session_id: chat.id, message_id: null, uploader: by.sender,
            uploader_user_id: by.userId, mime: file.mime, size: file.data.length, name: file.name, width: file.width, height: file.height,
            storage_key: storageKey, thumb_key: thumbKey, created_at: this.now()
        };
        try {
            await this.deps.db('chat_attachments').insert(row);
        }
        catch (err) {
            await this.deps.storage.remove(keys).catch(() => undefined);
            throw err;
        }
        return toAttachment(row as AttachmentRow);
    }

    /**
     * The files a message names: each uploaded in this chat by the same side (the same agent), not yet sent, at most
     * FILES_PER_MESSAGE. Otherwise a 400 and nothing is stored.
     */
    async claim(organizationId: number, sessionId: string, by: Uploader, fileIds: string[]): Promise<ClaimedFiles> {
        const ids = [...new Set(fileIds)];
        if (ids.length > this.deps.files.perMessage) {
            throw coded(Boom.badRequest(FILE_ERRORS.count.message), FILE_ERRORS.count.code);
        }
        const chat = await this.chatOf(organizationId, sessionId);
        const query = this.deps.db('chat_attachments').where({ organization_id: organizationId, chat_session_id: chat.id, uploader: by.sender })
            .whereIn('file_id', ids).whereNull('message_id');
        if (by.sender === 'agent') {
            query.where('uploader_user_id', by.userId);
        }
        const rows = await query.select('*') as AttachmentRow[];
        if (rows.length !== ids.length) {
            throw coded(Boom.badRequest(FILE_ERRORS.unknown.message), FILE_ERRORS.unknown.code);
        }
        const byId = new Map(rows.map((r) => [r.file_id, r]));
        const ordered = ids.map((id) => byId.get(id)!);
        return { rowIds: ordered.map((r) => r.id), attachments: ordered.map(toAttachment) };
    }

    /** The stored message carries its claimed files from now on. */
    async attach(claimed: ClaimedFiles, messageId: number): Promise<void> {
        if (claimed.rowIds.length) {
            await this.deps.db('chat_attachments').whereIn('id', claimed.rowIds).whereNull('message_id').update({ message_id: messageId });
        }
    }

    /** The files of these messages, by message id, in upload order. */
    async ofMessages(messageIds: number[]): Promise<Map<number, ChatAttachment[]>> {
        const out = new Map<number, ChatAttachment[]>();
        for (let i = 0; i < messageIds.length; i += 500) {
            const rows = await this.deps.db('chat_attachments').whereIn('message_id', messageIds.slice(i, i + 500)).orderBy('id') as AttachmentRow[];
            for (const row of rows) {
                const id = Number(row.message_id);
                out.set(id, [...out.get(id) ?? [], toAttachment(row)]);
            }
        }
        return out;
    }

    /** Each variant signs apart: a thumbnail's URL never opens the file, nor the other way round. */
    private signature(fileId: string, expires: number, variant: FileVariant = 'file'): string {
        const subject = variant === 'thumb' ? `chat-file-thumb:${fileId}:${expires}` : `chat-file:${fileId}:${expires}`;
        return Crypto.createHmac('sha256', this.deps.secret).update(subject).digest('base64url');
    }

    /**
     * Short-lived URLs of a file of this chat (any other chat, store or an unsent file: 404): the file, and a photo's
     * thumbnail when it has one (photos uploaded before thumbnails existed have none: the file is their thumbnail).
     */
    async link(organizationId: number, sessionId: string, fileId: string): Promise<{ url: string; thumbUrl?: string; expiresAt: string }> {
        const chat = await this.chatOf(organizationId, sessionId);
        const row = await this.deps.db('chat_attachments').where({ organization_id: organizationId, chat_session_id: chat.id, file_id: fileId })
            .first('file_id', 'message_id', 'uploader', 'thumb_key') as AttachmentRow | undefined;
        if (!row) {
            throw Boom.notFound('File not found');
        }
        const expires = this.now() + this.deps.files.urlMs;
        const url = `/api/files/${row.file_id}?expires=${expires}&signature=${this.signature(row.file_id, expires)}`;
        const thumbUrl = row.thumb_key ? `/api/files/${row.file_id}/thumb?expires=${expires}&signature=${this.signature(row.file_id, expires, 'thumb')}` : undefined;
        return { url, ...(thumbUrl ? { thumbUrl } : {}), expiresAt: new Date(expires).toISOString() };
    }

    /**
     * The bytes a signed URL names (the file, or its thumbnail: a WebP): a wrong signature or a past expiry 403, an
     * unknown (or erased) file 404, and so is the thumbnail of a file that has none.
     */
    async read(fileId: string, expires: number, signature: string, variant: FileVariant = 'file'): Promise<{ attachment: ChatAttachment; data: Buffer; mime: string }> {
        const expected = Buffer.from(this.signature(fileId, expires, variant));
        const given = Buffer.from(signature);
        if (given.length !== expected.length || !Crypto.timingSafeEqual(given, expected)) {
            throw Boom.forbidden('This link is not valid');
        }
        if (expires < this.now()) {
            throw Boom.forbidden('This link has expired');
        }
        const row = await this.deps.db('chat_attachments').where('file_id', fileId).first() as AttachmentRow | undefined;
        const key = variant === 'thumb' ? row?.thumb_key : row?.storage_key;
        const data = key ? await this.deps.storage.get(key) : null;
        if (!row || !data) {
            throw Boom.notFound('File not found');
        }
        return { attachment: toAttachment(row), data, mime: variant === 'thumb' ? THUMB_MIME : row.mime };
    }

    /** Uploads never sent within FILES_UNSENT_MINUTES go, bytes (and thumbnails) first. Returns how many. */
    async sweep(now = this.now()): Promise<number> {
        const before = now - this.deps.files.unsentMs;
        const rows = await this.deps.db('chat_attachments').whereNull('message_id').where('created_at', '<', before)
            .orderBy('id').limit(500).select('id', 'storage_key', 'thumb_key') as Array<{ id: number; storage_key: string; thumb_key: string | null }>;
        if (!rows.length) {
            return 0;
        }
        await this.deps.storage.remove(keysOf(rows));
        await this.deps.db('chat_attachments').whereIn('id', rows.map((r) => r.id)).delete();
        return rows.length;
    }
}

/**
 * The files of these chats, for the personal-data holder (erasure and retention): the bytes (disk or S3, thumbnails
 * included) first, then
 * the rows. Returns how many rows went.
 */
export async function removeChatFiles(db: Db, storage: FileStorage, chatIds: number[]): Promise<number> {
    let count = 0;
    for (let i = 0; i < chatIds.length; i += 500) {
        const part = chatIds.slice(i, i + 500);
        const rows = await db('chat_attachments').whereIn('chat_session_id', part).select('storage_key', 'thumb_key') as Array<{ storage_key: string; thumb_key: string | null }>;
        await storage.remove(keysOf(rows));
        count += await db('chat_attachments').whereIn('chat_session_id', part).delete();
    }
    return count;
}
