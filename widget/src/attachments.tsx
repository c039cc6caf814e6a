import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { errorText } from './texts';
import { featureTexts } from './feature-texts';
import { adoptStyles } from './styles';
import ar from '../locales/ar.json?files';
import de from '../locales/de.json?files';
import en from '../locales/en.json?files';
import es from '../locales/es.json?files';
import fr from '../locales/fr.json?files';
import ptBR from '../locales/pt-BR.json?files';

/** This chunk's texts (`files.*`), in every language: the panel carries none of them (DESIGN §10). */
const ft = featureTexts('files', { en, es, fr, 'pt-BR': ptBR, de, ar });

/**
 * Photos and files in the live chat (issue 29), a feature chunk of its own (`feature-files`, DESIGN §10): fetched
 * the first time the customer attaches, or when a message with files is shown. The picker (with `accept`, and a
 * camera input with `capture` for phones), each upload with its progress and Cancel, the refusals in the customer's
 * language, and the files of a message: photos as thumbnails, other files as a named download.
 */

export interface FileRef { id: string; name: string; mime: string }

/** This chunk's styles, added to the panel's shadow root when it first shows something (not in the base panel). */
const FILES_CSS = `
.lc-tray{display:flex;flex-wrap:wrap;gap:6px;padding:6px 14px;background:#fff;border-top:1px solid #e5e7eb}
.lc-uploads{list-style:none;margin:0;padding:0;width:100%;font-size:13px}
.lc-upload{display:flex;align-items:center;gap:6px;padding:2px 0}
.lc-upload-error{color:#b91c1c}
.lc-upload-name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:45%}
.lc-upload-x{margin-inline-start:auto;border:0;background:none;cursor:pointer;font-size:16px}
.lc-files{display:flex;flex-wrap:wrap;gap:4px}
.lc-thumb{display:block;max-width:180px;max-height:180px;border-radius:8px;background:#e5e7eb;min-width:40px;min-height:40px}
.lc-download{color:inherit;text-decoration:underline;word-break:break-all}
`;
const styled = new WeakSet<Node>();
function useFilesStyles(ref: { current: HTMLElement | null }): void {
    useLayoutEffect(() => {
        const root = ref.current?.getRootNode();
        if (root instanceof ShadowRoot && !styled.has(root)) {
            styled.add(root);
            adoptStyles(root, FILES_CSS);
        }
    }, []);
}
export interface ChatAccess { origin: string; chatId: string; token: string }

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,application/pdf';
export const MAX_FILES = 5;

interface Upload { key: number; name: string; percent: number; file?: FileRef; error?: string; xhr?: XMLHttpRequest }

function refusal(xhr: XMLHttpRequest): string {
    try {
        const body = JSON.parse(xhr.responseText) as { code?: string; message?: string; args?: Record<string, unknown> };
        return errorText({ code: body.code, message: body.message ?? ft('failed'), args: body.args });
    }
    catch {
        return ft('failed');
    }
}

/** The files being attached to the next message: picker, progress, cancel, errors. Tells the sendable ones. */
export function AttachTray(props: { access: ChatAccess; onChange(files: FileRef[]): void; clearKey: number }) {
    const [uploads, setUploads] = useState<Upload[]>([]);
    const picker = useRef<HTMLInputElement>(null);
    const counter = useRef(0);
    const box = useRef<HTMLDivElement>(null);
    useFilesStyles(box);

    useEffect(() => {
        picker.current?.click();
    }, []);
    useEffect(() => {
        setUploads([]);
    }, [props.clearKey]);
    useEffect(() => {
        props.onChange(uploads.flatMap((u) => (u.file ? [u.file] : [])));
    }, [uploads]);

    const update = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

    function add(files: FileList | null): void {
        const picked = Array.from(files ?? []);
        const room = MAX_FILES - uploads.filter((u) => !u.error).length;
        for (const [i, file] of picked.entries()) {
            const key = (counter.current += 1);
            if (i >= room) {
                setUploads((list) => [...list, { key, name: file.name, percent: 0, error: errorText({ code: 'livechat.file_count', message: ft('failed') }) }]);
                continue;
            }
            const xhr = new XMLHttpRequest();
            xhr.open('POST', `${props.access.origin}/api/chat/session/${encodeURIComponent(props.access.chatId)}/files?name=${encodeURIComponent(file.name)}`);
            xhr.setRequestHeader('Authorization', `Bearer ${props.access.token}`);
            xhr.setRequestHeader('Content-Type', 'application/octet-stream');
            xhr.upload.onprogress = (e) => e.lengthComputable && update(key, { percent: Math.round((e.loaded / e.total) * 100) });
            xhr.onload = () => (xhr.status === 201
                ? update(key, { percent: 100, file: JSON.parse(xhr.responseText) as FileRef, xhr: undefined })
                : update(key, { error: refusal(xhr), xhr: undefined }));
            xhr.onerror = () => update(key, { error: ft('failed'), xhr: undefined });
            setUploads((list) => [...list, { key, name: file.name, percent: 0, xhr }]);
            xhr.send(file);
        }
    }

    function remove(u: Upload): void {
        u.xhr?.abort();
        setUploads((list) => list.filter((x) => x.key !== u.key));
    }

    return (
        <div className="lc-tray" data-testid="attach-tray" ref={box}>
            <input ref={picker} type="file" accept={ACCEPT} multiple hidden data-testid="file-input" onChange={(e) => {
                add(e.currentTarget.files);
                e.currentTarget.value = '';
            }} />
            <label className="lc-chip lc-camera">
                {ft('takePhoto')}
                <input type="file" accept="image/*" capture="environment" hidden onChange={(e) => {
                    add(e.currentTarget.files);
                    e.currentTarget.value = '';
                }} />
            </label>
            <button type="button" className="lc-chip" onClick={() => picker.current?.click()}>{ft('attachMore')}</button>
            <ul className="lc-uploads">
                {uploads.map((u) => (
                    <li key={u.key} className={u.error ? 'lc-upload lc-upload-error' : 'lc-upload'}>
                        <span className="lc-upload-name" dir="auto">{u.name}</span>
                        {u.error ? <span role="alert"> {u.error}</span>
                            : !u.file && <progress max={100} value={u.percent} aria-label={ft('uploading', { name: u.name, percent: u.percent })} />}
                        <button type="button" className="lc-upload-x" onClick={() => remove(u)} aria-label={u.file || u.error ? ft('remove', { name: u.name }) : ft('cancelUpload', { name: u.name })}>×</button>
                    </li>
                ))}
            </ul>
        </div>
    );
}

/** A message's files: each asks the chat for a short-lived signed URL; photos show as thumbnails, others as a download. */
export function MessageFiles(props: { files: FileRef[]; access: ChatAccess | null }) {
    const box = useRef<HTMLSpanElement>(null);
    useFilesStyles(box);
    return (
        <span className="lc-files" ref={box}>
            {props.files.map((f) => <OneFile key={f.id} file={f} access={props.access} />)}
        </span>
    );
}

function OneFile({ file, access }: { file: FileRef; access: ChatAccess | null }) {
    const [url, setUrl] = useState<{ file: string; thumb: string } | null>(null);
    useEffect(() => {
        if (!access) {
            return;
        }
        let live = true;
        fetch(`${access.origin}/api/chat/session/${encodeURIComponent(access.chatId)}/files/${encodeURIComponent(file.id)}/link`,
            { headers: { Authorization: `Bearer ${access.token}` } })
            .then((res) => (res.ok ? res.json() as Promise<{ url: string; thumbUrl?: string }> : null))
            // The thumbnail (400 px, a few kB) in the message; the photo itself when it is opened. A photo sent
            // before thumbnails existed has none: the photo is its own thumbnail.
            .then((body) => live && body && setUrl({ file: `${access.origin}${body.url}`, thumb: `${access.origin}${body.thumbUrl ?? body.url}` }))
            .catch(() => undefined);
        return () => {
            live = false;
        };
    }, [file.id, access?.chatId]);
    if (file.mime.startsWith('image/')) {
        return url
            ? <a href={url.file} target="_blank" rel="noopener noreferrer" className="lc-thumb-link"><img className="lc-thumb" src={url.thumb} alt={ft('photoAlt', { name: file.name })} /></a>
            : <span className="lc-thumb lc-thumb-wait" aria-label={ft('photoAlt', { name: file.name })} />;
    }
    return url
        ? <a className="lc-download" href={url.file} download={file.name} rel="noopener noreferrer">{ft('download', { name: file.name })}</a>
        : <span className="lc-download">{file.name}</span>;
}
