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

export interface Inspected { mime: AllowedType; data: Buffer; width: number | null; height: number | null; name: string }

const HEIF_BRANDS = /^(heic|heix|heim|heis|hevc|hevx|mif1|msf1|avif|avis)$/;

/** HEIC/HEIF (an iPhone's default photo): an ISO box `ftyp` with a HEIF brand. */
function isHeif(data: Buffer): boolean {
    return data.length >= 12 && data.toString('latin1', 4, 8) === 'ftyp' && HEIF_BRANDS.test(data.toString('latin1', 8, 12));
}

/**
 * A file that is also something else (a polyglot): markup a browser would run, or a ZIP archive (GIFAR and the like)
 * inside an image or a PDF. Scanned over the whole file.
 */
const MARKUP = /<(script|html|svg|iframe|object|embed|body|\?php|!doctype)[\s>/]/i;
function isPolyglot(data: Buffer): boolean {
    if (data.includes(Buffer.from('PK\u0003\u0004', 'latin1')) || data.includes(Buffer.from('PK\u0005\u0006', 'latin1'))) {
        return true;
    }
    return MARKUP.test(data.toString('latin1'));
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
 * decoded); a PDF kept as it is. Throws a 4xx with a code the widget and the console can name.
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
        return { mime: type, data, width: null, height: null, name: displayName(given, type) };
    }
    try {
        const animated = type === 'image/gif' || type === 'image/webp';
        const image = sharp(data, { limitInputPixels: limits.maxPixels, failOn: 'error', animated }).rotate();
        const encoded = type === 'image/jpeg' ? image.jpeg({ quality: 85, mozjpeg: false })
            : type === 'image/png' ? image.png()
                : type === 'image/webp' ? image.webp({ quality: 85 })
                    : image.gif();
        const { data: out, info } = await encoded.toBuffer({ resolveWithObject: true });
        return { mime: type, data: out, width: info.width, height: info.pageHeight ?? info.height, name: displayName(given, type) };
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
