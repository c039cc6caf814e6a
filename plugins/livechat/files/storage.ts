import * as Fs from 'fs';
import * as Path from 'path';
import type { S3Client as S3ClientType } from '@aws-sdk/client-s3';

/**
 * Where attachments' bytes live (issue 29), behind one interface: the local disk under DATA_DIR (or FILES_DIR, a
 * directory several nodes share) by default, or an S3-compatible bucket when S3_BUCKET is set. Keys are generated
 * by the server (never a name a client gave): `<organization>/<random>`.
 */
export interface FileStorage {
    readonly kind: 'disk' | 's3';
    put(key: string, data: Buffer, contentType: string): Promise<void>;
    /** The stored bytes, or null when there is no such object. */
    get(key: string): Promise<Buffer | null>;
    /** Removes the objects (missing ones are no error). */
    remove(keys: string[]): Promise<void>;
}

const KEY = /^[0-9]{1,12}\/[A-Za-z0-9_-]{16,64}$/;

function checkKey(key: string): string {
    if (!KEY.test(key)) {
        throw new Error('invalid storage key');
    }
    return key;
}

export class DiskStorage implements FileStorage {
    readonly kind = 'disk' as const;
    constructor(private readonly dir: string) {}

    private pathOf(key: string): string {
        return Path.join(this.dir, ...checkKey(key).split('/'));
    }

    async put(key: string, data: Buffer): Promise<void> {
        const file = this.pathOf(key);
        await Fs.promises.mkdir(Path.dirname(file), { recursive: true, mode: 0o700 });
        // Written whole under a temporary name, then renamed: a reader never sees half a file.
        const tmp = `${file}.${process.pid}.tmp`;
        await Fs.promises.writeFile(tmp, data, { mode: 0o600 });
        await Fs.promises.rename(tmp, file);
    }

    async get(key: string): Promise<Buffer | null> {
        try {
            return await Fs.promises.readFile(this.pathOf(key));
        }
        catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
                return null;
            }
            throw err;
        }
    }

    async remove(keys: string[]): Promise<void> {
        for (const key of keys) {
            await Fs.promises.rm(this.pathOf(key), { force: true });
        }
    }
}

export interface S3Settings { bucket: string; endpoint: string | null; region: string; accessKeyId: string | null; secretAccessKey: string | null }

/** Any S3-compatible store through the official AWS SDK v3 client, path-style (MinIO and the like). */
export class S3Storage implements FileStorage {
    readonly kind = 's3' as const;
    private client: S3ClientType | null = null;
    constructor(private readonly settings: S3Settings) {}

    private s3(): { client: S3ClientType; sdk: typeof import('@aws-sdk/client-s3') } {
        // Loaded only when S3 is configured: a disk-only server never pays for the SDK.
         
        const sdk = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
        if (!this.client) {
            const { endpoint, region, accessKeyId, secretAccessKey } = this.settings;
            this.client = new sdk.S3Client({
                region,
                forcePathStyle: true,
                ...(endpoint ? { endpoint } : {}),
                ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
                // Checksums only where the API requires them: S3-compatible servers differ in the newer ones.
                requestChecksumCalculation: 'WHEN_REQUIRED',
                responseChecksumValidation: 'WHEN_REQUIRED'
            });
        }
        return { client: this.client, sdk };
    }

    async put(key: string, data: Buffer, contentType: string): Promise<void> {
        const { client, sdk } = this.s3();
        await client.send(new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: checkKey(key), Body: data, ContentType: contentType, ContentLength: data.length }));
    }

    async get(key: string): Promise<Buffer | null> {
        const { client, sdk } = this.s3();
        try {
            const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: checkKey(key) }));
            return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
        }
        catch (err) {
            const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
            if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) {
                return null;
            }
            throw err;
        }
    }

    async remove(keys: string[]): Promise<void> {
        const { client, sdk } = this.s3();
        for (const key of keys) {
            await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: checkKey(key) }));
        }
    }
}

export function fileStorage(files: { dir: string; s3: S3Settings | null }): FileStorage {
    return files.s3 ? new S3Storage(files.s3) : new DiskStorage(files.dir);
}
