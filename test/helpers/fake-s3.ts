import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import type { AddressInfo } from 'net';

/**
 * A real S3-compatible server for the tests (issue 29): s3rver (an npm package implementing the S3 REST API, with
 * SigV4 signature checks), in process on a free port, over a temporary directory. The server's S3Storage talks to
 * it with the official AWS SDK v3 client exactly as to MinIO or AWS (path-style).
 */
export interface FakeS3 { env: Record<string, string>; dir: string; close(): Promise<void> }

export async function startFakeS3(bucket = 'chat-files'): Promise<FakeS3> {
     
    const S3rver = require('s3rver');
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-s3-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true, configureBuckets: [{ name: bucket }] });
    const address = await server.run() as AddressInfo;
    return {
        dir,
        env: {
            S3_BUCKET: bucket, S3_ENDPOINT: `http://127.0.0.1:${address.port}`, S3_REGION: 'us-east-1',
            S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER'
        },
        async close() {
            await server.close();
            Fs.rmSync(dir, { recursive: true, force: true });
        }
    };
}

/** Every object key stored under the fake bucket's directory (to see that bytes are gone). */
export function storedObjects(s3: FakeS3): string[] {
    const out: string[] = [];
    const walk = (d: string) => {
        for (const e of Fs.readdirSync(d, { withFileTypes: true })) {
            const p = Path.join(d, e.name);
            if (e.isDirectory()) {
                walk(p);
            }
            else if (e.name.endsWith('._S3rver_object')) {
                out.push(p);
            }
        }
    };
    walk(s3.dir);
    return out;
}
