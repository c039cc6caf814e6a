import { useEffect, useRef, useState } from 'react';
import { Button, ProgressBar } from '@blueprintjs/core';
import { ADMIN_TOKEN_KEY, apiRequest } from '../../api/client';
import type { ChatAttachment } from '../../api/chat';
import { AdminTextKey, useT } from '../../i18n';

/**
 * Photos and files in the console (issue 29): a message's files (photos as thumbnails, other files as a named
 * download, each through a short-lived signed URL the console asks for), and the agent's uploads for the next reply
 * (picker, drag-and-drop, paste), with progress, cancel and the refusals in the agent's language.
 */

export const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,application/pdf';
export const MAX_FILES = 5;

const REFUSALS: Record<string, AdminTextKey> = {
    'livechat.file_type': 'files.refused.type',
    'livechat.file_heic': 'files.refused.heic',
    'livechat.file_size': 'files.refused.size',
    'livechat.file_pixels': 'files.refused.pixels',
    'livechat.file_count': 'files.refused.count',
    'livechat.file_too_many': 'files.refused.tooMany'
};

function OneFile({ sessionId, file }: { sessionId: string; file: ChatAttachment }) {
    const t = useT();
    const [url, setUrl] = useState<{ file: string; thumb: string } | null>(null);
    useEffect(() => {
        let live = true;
        // The thumbnail (400 px, a few kB) in the message, the photo itself when it is opened; a photo sent before
        // thumbnails existed has none: the photo is its own thumbnail.
        apiRequest<{ url: string; thumbUrl?: string }>(`/api/chat/session/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(file.id)}/link`)
            .then((body) => live && setUrl({ file: body.url, thumb: body.thumbUrl ?? body.url }))
            .catch(() => undefined);
        return () => {
            live = false;
        };
    }, [sessionId, file.id]);
    if (file.mime.startsWith('image/')) {
        return url
            ? <a href={url.file} target="_blank" rel="noopener noreferrer" className="lc-file-thumb-link"><img className="lc-file-thumb" src={url.thumb} alt={t('files.photo', { name: file.name })} data-testid="file-thumb" /></a>
            : <span className="lc-file-thumb lc-file-wait" aria-label={t('files.photo', { name: file.name })} />;
    }
    return url
        ? <a className="lc-file-download" href={url.file} download={file.name} data-testid="file-download">{t('files.download', { name: file.name })}</a>
        : <span className="lc-file-download">{file.name}</span>;
}

export function MessageFiles({ sessionId, files }: { sessionId: string; files: ChatAttachment[] }) {
    return <span className="lc-files">{files.map((f) => <OneFile key={f.id} sessionId={sessionId} file={f} />)}</span>;
}

interface Upload { key: number; name: string; percent: number; file?: ChatAttachment; error?: string; xhr?: XMLHttpRequest }

/** The agent's uploads for the next reply of one chat. */
export function useUploads(sessionId: string | null) {
    const t = useT();
    const [uploads, setUploads] = useState<Upload[]>([]);
    const counter = useRef(0);
    useEffect(() => {
        setUploads([]);
    }, [sessionId]);
    const update = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
    const refusal = (xhr: XMLHttpRequest) => {
        try {
            const body = JSON.parse(xhr.responseText) as { code?: string; message?: string; args?: Record<string, unknown> };
            const key = body.code ? REFUSALS[body.code] : undefined;
            return key ? t(key, body.args) : body.message ?? t('files.failed');
        }
        catch {
            return t('files.failed');
        }
    };
    function add(list: FileList | File[] | null): void {
        if (!sessionId) {
            return;
        }
        const picked = Array.from(list ?? []);
        let room = MAX_FILES - uploads.filter((u) => !u.error).length;
        for (const file of picked) {
            const key = (counter.current += 1);
            if (room <= 0) {
                setUploads((l) => [...l, { key, name: file.name, percent: 0, error: t('files.refused.count') }]);
                continue;
            }
            room -= 1;
            const xhr = new XMLHttpRequest();
            xhr.open('POST', `/api/chat/session/${encodeURIComponent(sessionId)}/files?name=${encodeURIComponent(file.name || 'pasted')}`);
            const token = localStorage.getItem(ADMIN_TOKEN_KEY);
            if (token) {
                xhr.setRequestHeader('Authorization', `Bearer ${token}`);
            }
            xhr.setRequestHeader('Content-Type', 'application/octet-stream');
            xhr.upload.onprogress = (e) => e.lengthComputable && update(key, { percent: Math.round((e.loaded / e.total) * 100) });
            xhr.onload = () => (xhr.status === 201
                ? update(key, { percent: 100, file: JSON.parse(xhr.responseText) as ChatAttachment, xhr: undefined })
                : update(key, { error: refusal(xhr), xhr: undefined }));
            xhr.onerror = () => update(key, { error: t('files.failed'), xhr: undefined });
            setUploads((l) => [...l, { key, name: file.name || 'pasted', percent: 0, xhr }]);
            xhr.send(file);
        }
    }
    function remove(u: Upload): void {
        u.xhr?.abort();
        setUploads((l) => l.filter((x) => x.key !== u.key));
    }
    const ready = uploads.flatMap((u) => (u.file ? [u.file] : []));
    const busy = uploads.some((u) => u.xhr);
    return { uploads, add, remove, ready, busy, clear: () => setUploads([]) };
}

export function UploadList({ uploads, remove }: { uploads: Upload[]; remove(u: Upload): void }) {
    const t = useT();
    if (!uploads.length) {
        return null;
    }
    return (
        <ul className="lc-uploads" data-testid="uploads">
            {uploads.map((u) => (
                <li key={u.key} className={u.error ? 'lc-upload is-error' : 'lc-upload'}>
                    <span className="lc-upload-name" dir="auto">{u.name}</span>
                    {u.error ? <span className="lc-upload-error" role="alert">{u.error}</span>
                        : !u.file && <ProgressBar className="lc-upload-bar" value={u.percent / 100} intent="primary" aria-label={t('files.uploading', { name: u.name, percent: u.percent })} />}
                    <Button small minimal icon="cross" aria-label={u.file || u.error ? t('files.remove', { name: u.name }) : t('files.cancel', { name: u.name })} onClick={() => remove(u)} />
                </li>
            ))}
        </ul>
    );
}
