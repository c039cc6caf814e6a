import Boom from '@hapi/boom';
import sharp from 'sharp';
import { coded } from '../../../core/http/errors';
import { FILE_ERRORS } from '../errors';

/** What a chat may carry (issue 29): these images, and PDF. The type comes from the bytes, never the name or header. */
export const ALLOWED = {
    'image/jpeg': 'jpg',
    'image/png': 'png',
    'image/webp': 'webp',
    'image/gif': 'gif',
    'application/pdf': 'pdf'
} as const;
export type AllowedType = keyof typeof ALLOWED;

/** `thumb`: a photo's thumbnail (THUMB_SIZE, WebP, no metadata); null for a PDF. */
export interface Inspected { mime: AllowedType; data: Buffer; width: number | null; height: number | null; name: string; thumb: Buffer | null }

/** A thumbnail fits in this square (px): what the widget, the console and History show in a message. */
export const THUMB_SIZE = 400;
export const THUMB_MIME = 'image/webp';

/**
 * A photo's thumbnail, from the cleaned photo: fits in THUMB_SIZE×THUMB_SIZE (never enlarged), WebP (animated for
 * an animated GIF or WebP), no metadata (sharp writes none unless asked). A few kB where the photo can be 10 MB.
 */
async function thumbnail(clean: Buffer, animated: boolean, maxPixels: number): Promise<Buffer> {
    return sharp(clean, { limitInputPixels: maxPixels, animated })
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 70, effort: 2 })
        .toBuffer();
}

const HEIF_BRANDS = /^(heic|heix|heim|heis|hevc|hevx|mif1|msf1|avif|avis)$/;

/** HEIC/HEIF (an iPhone's default photo): an ISO box `ftyp` with a HEIF brand. */
function isHeif(data: Buffer): boolean {
    return data.length >= 12 && data.toString('latin1', 4, 8) === 'ftyp' && HEIF_BRANDS.test(data.toString('latin1', 8, 12));
}

/** The end-of-central-directory record closes every ZIP: 22 bytes and a comment of up to 65,535. */
const EOCD_BYTES = Buffer.from('PK\u0005\u0006', 'latin1');
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_LOCATOR = 0x07064b50;
const EOCD_SEARCH = 22 + 0xffff;

/**
 * Whether a ZIP reader would open these bytes as an archive, the way one does: from the end-of-central-directory
 * record (PK\x05\x06) in the last 65,557 bytes, to the central directory it names. A record counts only when its
 * central directory offset (as written, or measured back from the record by its size: readers accept both, which
 * is how `cat photo.gif archive.zip` opens) lands on a real central directory header (PK\x01\x02), or when it hands
 * over to a ZIP64 locator right before it. The local-header bytes alone (PK\x03\x04) prove nothing: a PDF's
 * compressed streams hold them by chance (about one ordinary PDF in 500), and no reader opens a file from them.
 */
export function opensAsZip(data: Buffer): boolean {
    const from = Math.max(0, data.length - EOCD_SEARCH);
    for (let at = data.length >= 22 ? data.lastIndexOf(EOCD_BYTES, data.length - 22) : -1; at >= from; at = at > 0 ? data.lastIndexOf(EOCD_BYTES, at - 1) : -1) {
        const size = data.readUInt32LE(at + 12);
        const offset = data.readUInt32LE(at + 16);
        if ((size === 0xffffffff || offset === 0xffffffff) && at >= 20 && data.readUInt32LE(at - 20) === ZIP64_LOCATOR) {
            return true;
        }
        const central = (start: number) => start >= 0 && start + 46 <= at && data.readUInt32LE(start) === CENTRAL_HEADER;
        if (central(offset) || central(at - size)) {
            return true;
        }
    }
    return false;
}

/**
 * A file that is also something else (a polyglot): markup a browser would run (scanned over the whole file), or a
 * ZIP archive a reader would open (GIFAR and the like) after an image or a PDF.
 */
const MARKUP = /<(script|html|svg|iframe|object|embed|body|\?php|!doctype)[\s>/]/i;
function isPolyglot(data: Buffer): boolean {
    return opensAsZip(data) || MARKUP.test(data.toString('latin1'));
}

/** A display name: no path, no control characters, at most 100 characters, with the extension of the real type. */
export function displayName(given: string | null | undefined, mime: AllowedType): string {
    const ext = ALLOWED[mime];
    const base = (given ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f"<>]/g, '').trim()
        .replace(/\.[A-Za-z0-9]{1,8}$/, '').slice(0, 90);
    return `${base || (mime === 'application/pdf' ? 'document' : 'photo')}.${ext}`;
}

/** file-type 16 is the last CommonJS release (17+ are ESM only, which this CommonJS server cannot require). */
async function sniff(data: Buffer): Promise<string | undefined> {
     
    const { fromBuffer } = require('file-type') as { fromBuffer(b: Buffer): Promise<{ mime: string } | undefined> };
    return (await fromBuffer(data))?.mime;
}

/**
 * Checks an upload and makes the bytes that are stored: images decoded and encoded again by sharp (metadata such
 * as EXIF GPS gone, orientation applied, at most `maxPixels` decoded: a decompression bomb is refused before it is
 * decoded), with their thumbnail; a PDF kept as it is. Throws a 4xx with a code the widget and the console can name.
 */
export async function inspect(data: Buffer, given: string | null | undefined, limits: { maxBytes: number; maxPixels: number }): Promise<Inspected> {
    if (!data.length) {
        throw coded(Boom.badRequest(FILE_ERRORS.empty.message), FILE_ERRORS.empty.code);
    }
    if (data.length > limits.maxBytes) {
        throw tooBig(limits.maxBytes);
    }
    if (isHeif(data)) {
        throw coded(Boom.unsupportedMediaType(FILE_ERRORS.heic.message), FILE_ERRORS.heic.code);
    }
    const mime = await sniff(data);
    if (!mime || !(mime in ALLOWED)) {
        throw coded(Boom.unsupportedMediaType(FILE_ERRORS.type.message), FILE_ERRORS.type.code);
    }
    if (isPolyglot(data)) {
        throw coded(Boom.unsupportedMediaType(FILE_ERRORS.type.message), FILE_ERRORS.type.code);
    }
    const type = mime as AllowedType;
    if (type === 'application/pdf') {
        return { mime: type, data, width: null, height: null, name: displayName(given, type), thumb: null };
    }
    try {
        const animated = type === 'image/gif' || type === 'image/webp';
        const image = sharp(data, { limitInputPixels: limits.maxPixels, failOn: 'error', animated }).rotate();
        const encoded = type === 'image/jpeg' ? image.jpeg({ quality: 85, mozjpeg: false })
            : type === 'image/png' ? image.png()
                : type === 'image/webp' ? image.webp({ quality: 85 })
                    : image.gif();
        const { data: out, info } = await encoded.toBuffer({ resolveWithObject: true });
        const thumb = await thumbnail(out, animated, limits.maxPixels);
        return { mime: type, data: out, width: info.width, height: info.pageHeight ?? info.height, name: displayName(given, type), thumb };
    }
    catch (err) {
        if (/pixel limit/i.test((err as Error).message)) {
            throw coded(Boom.entityTooLarge(FILE_ERRORS.pixels.message), FILE_ERRORS.pixels.code);
        }
        throw coded(Boom.badData(FILE_ERRORS.unreadable.message), FILE_ERRORS.unreadable.code);
    }
}

export function tooBig(maxBytes: number): Boom.Boom {
    const mb = Math.round(maxBytes / 1024 / 1024 * 10) / 10;
    return coded(Boom.entityTooLarge(FILE_ERRORS.size.message.replace('{mb}', String(mb))), FILE_ERRORS.size.code, { mb });
}
