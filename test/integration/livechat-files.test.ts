import { expect } from 'chai';
import * as Fs from 'fs';
import * as Path from 'path';
import * as Zlib from 'zlib';
import sharp from 'sharp';
import { startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';
import { connectAgent, createSession, NesClient, setAvailable } from '../helpers/livechat-client';
import { FakeS3, startFakeS3, storedObjects } from '../helpers/fake-s3';

/**
 * Issue 29: photos and files in live chat, the same tests on the local disk and on a real S3-compatible server
 * (s3rver, in process). Uploads are typed from their bytes, images re-encoded without metadata, refused files
 * answered with a 4xx and a code; files are read through short-lived signed URLs by the chat's callers only,
 * never across stores; unsent uploads are swept, and an erasure removes the bytes too.
 */

/** A PNG whose header claims `width`×`height` pixels with one row of data: a decompression bomb's header. */
function bombPng(width: number, height: number): Buffer {
    const crcTable = Array.from({ length: 256 }, (_, n) => {
        let c = n;
        for (let k = 0; k < 8; k += 1) {
            c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        }
        return c >>> 0;
    });
    const crc = (buf: Buffer) => {
        let c = 0xffffffff;
        for (const b of buf) {
            c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
        }
        return (c ^ 0xffffffff) >>> 0;
    };
    const chunk = (type: string, data: Buffer) => {
        const len = Buffer.alloc(4);
        len.writeUInt32BE(data.length);
        const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
        const sum = Buffer.alloc(4);
        sum.writeUInt32BE(crc(body));
        return Buffer.concat([len, body, sum]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr[8] = 8;            // bit depth
    ihdr[9] = 0;            // greyscale
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
        chunk('IDAT', Zlib.deflateSync(Buffer.alloc(width + 1))), chunk('IEND', Buffer.alloc(0))]);
}

/** A minimal one-page PDF. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n'
    + '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');

/** A ZIP whose one entry inflates 1,000 times (the shape of a zip bomb). */
function zipBomb(): Buffer {
    const data = Zlib.deflateRawSync(Buffer.alloc(1_000_000));
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(1_000_000, 22);
    header.writeUInt16LE(5, 26);
    return Buffer.concat([header, Buffer.from('a.txt'), data]);
}

function crc32(buf: Buffer): number {
    let c = 0xffffffff;
    for (const b of buf) {
        c ^= b;
        for (let k = 0; k < 8; k += 1) {
            c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        }
    }
    return (c ^ 0xffffffff) >>> 0;
}

/**
 * A real ZIP (what unzip or a JAR loader opens): one stored entry, its central directory and the end record. `at` is
 * where the archive will sit in the file: its offsets are written from there (a crafted polyglot), or from 0 when
 * it is simply appended (`cat photo.gif archive.zip`, which readers still open).
 */
function realZip(at = 0, name = 'evil.class', content = Buffer.from('payload of a hostile archive')): Buffer {
    const n = Buffer.from(name, 'latin1');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(content), 14);
    local.writeUInt32LE(content.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(content), 16);
    central.writeUInt32LE(content.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(at, 42);
    const entry = Buffer.concat([local, n, content]);
    const directory = Buffer.concat([central, n]);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(at + entry.length, 16);
    return Buffer.concat([entry, directory, end]);
}

/**
 * An ordinary PDF whose compressed content stream holds a ZIP's signatures by chance (about one PDF in 500 does): a
 * local header (PK\x03\x04) and even end-record bytes (PK\x05\x06), with no central directory anywhere.
 */
function pdfWithZipBytes(): Buffer {
    const stream = Buffer.concat([Zlib.deflateSync(Buffer.from('BT /F1 12 Tf 20 100 Td (Size chart) Tj ET')),
        Buffer.from('x\u0091PK\u0003\u0004\u0014\u0000\u00e2\u0007PK\u0005\u0006\u0000\u0000\u0001\u0000\u0001\u0000\u002e\u0000\u0000\u0000\u0010\u0000\u0000\u0000\u0000\u0000q\u00fe', 'latin1')]);
    return Buffer.concat([
        Buffer.from(`%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n`
            + `3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R>> endobj\n4 0 obj <</Length ${stream.length} /Filter /FlateDecode>>\nstream\n`, 'latin1'),
        stream,
        Buffer.from('\nendstream\nendobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1')
    ]);
}

/** An ISO-BMFF header of an iPhone HEIC photo. */
const HEIC = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\u0000\u0000\u0000\u0000mif1heic', 'latin1'), Buffer.alloc(200)]);

for (const store of ['disk', 's3'] as const) {
    describe(`live chat files on ${store === 'disk' ? 'the local disk' : 'an S3-compatible server'} (issue 29)`, function () {
        this.timeout(60000);
        let s3: FakeS3 | null = null;
        let t: TestServer;
        let a: Tenant;
        let b: Tenant;
        let agent: { client: NesClient; box: { messages: any[]; waitFor(p: (m: any) => boolean, ms?: number): Promise<any> } } | null = null;
        let chat: { sessionId: string; token: string };
        let other: { sessionId: string; token: string };
        let photo: Buffer;

        before(async () => {
            s3 = store === 's3' ? await startFakeS3() : null;
            t = await startTestServer({ listen: true, env: { FILES_MAX_MB: '1', FILES_MAX_PIXELS: '4000000', ...(s3?.env ?? {}) } });
            a = await createTenant(t.server, `fa${store}`);
            b = await createTenant(t.server, `fb${store}`);
            await setAvailable(t.server, a);
            agent = await connectAgent(t.url, a);
            chat = await createSession(t.server, a, 'widget_1_filesone', 'My parcel arrived broken');
            other = await createSession(t.server, a, 'widget_1_filestwo', 'Another customer');
            const accepted = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/accept`, headers: bearer(a.admin.token) });
            expect(accepted.statusCode, accepted.payload).to.equal(200);
            // A phone photo with its location in EXIF (GPS IFD).
            photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
                .jpeg().withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Phone 15' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' } })
                .toBuffer();
        });
        after(async () => {
            await agent?.client.disconnect();
            await t?.close();
            await s3?.close();
        });

        const customer = (token = chat.token) => ({ authorization: `Bearer ${token}` });
        const upload = (sessionId: string, headers: Record<string, string>, data: Buffer, name: string, contentType = 'application/octet-stream') => t.server.inject({
            method: 'POST', url: `/api/chat/session/${sessionId}/files?name=${encodeURIComponent(name)}`,
            headers: { ...headers, 'content-type': contentType }, payload: data
        });
        const link = (sessionId: string, fileId: string, headers: Record<string, string>) =>
            t.server.inject({ method: 'GET', url: `/api/chat/session/${sessionId}/files/${fileId}/link`, headers });

        it('takes a customer\'s photo, strips its EXIF location, sends it as a message the agent gets live, and serves it by a signed URL', async () => {
            expect((await sharp(photo).metadata()).exif, 'the test photo carries EXIF').to.be.instanceOf(Buffer);
            expect((await sharp(photo).metadata()).exif!.toString('latin1')).to.include('PhoneMaker');

            const res = await upload(chat.sessionId, customer(), photo, 'IMG_0042.JPG', 'text/html');
            expect(res.statusCode, res.payload).to.equal(201);
            const file = JSON.parse(res.payload);
            expect(file).to.include({ mime: 'image/jpeg', name: 'IMG_0042.jpg', width: 64, height: 48 });
            expect(file.id).to.match(/^[A-Za-z0-9_-]{22}$/);

            const sent = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(),
                payload: { message: '', attachments: [file.id], clientMessageId: 'photo-1' } });
            expect(sent.statusCode, sent.payload).to.equal(201);
            expect(JSON.parse(sent.payload).attachments).to.deep.equal([file]);
            const push = await agent!.box.waitFor((m) => m.type === 'chat_message' && m.clientMessageId === 'photo-1');
            expect(push.attachments).to.deep.equal([file]);
            // A retry is the same message, not a second one.
            const again = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(),
                payload: { message: '', attachments: [file.id], clientMessageId: 'photo-1' } });
            expect(again.statusCode, again.payload).to.equal(200);
            // A resync (messages after a sequence) and History carry the files.
            const list = JSON.parse((await t.server.inject({ url: `/api/chat/session/${chat.sessionId}/messages?after=0`, headers: bearer(a.admin.token) })).payload);
            expect(list.messages.find((m: any) => m.clientMessageId === 'photo-1').attachments).to.deep.equal([file]);

            const signed = await link(chat.sessionId, file.id, customer());
            expect(signed.statusCode, signed.payload).to.equal(200);
            const { url, thumbUrl } = JSON.parse(signed.payload);
            expect(url).to.match(new RegExp(`^/api/files/${file.id}\\?expires=\\d+&signature=[A-Za-z0-9_-]+$`));
            expect(thumbUrl).to.match(new RegExp(`^/api/files/${file.id}/thumb\\?expires=\\d+&signature=[A-Za-z0-9_-]+$`));
            const got = await t.server.inject({ url });
            expect(got.statusCode).to.equal(200);
            expect(got.headers['content-type']).to.equal('image/jpeg');
            expect(got.headers['x-content-type-options']).to.equal('nosniff');
            expect(String(got.headers['content-security-policy'])).to.match(/^sandbox/);
            expect(String(got.headers['content-disposition'])).to.match(/^inline; filename="IMG_0042.jpg"/);
            const stored = got.rawPayload;
            const meta = await sharp(stored).metadata();
            expect(meta).to.include({ format: 'jpeg', width: 64, height: 48 });
            expect(meta.exif, 'no EXIF (no GPS) in the stored photo').to.equal(undefined);
            expect(stored.toString('latin1')).to.not.include('PhoneMaker');
            // Over a real HTTP socket too (the widget's <img>).
            const http = await fetch(`${t.url}${url}`);
            expect(http.status).to.equal(200);
            expect(Buffer.from(await http.arrayBuffer()).equals(stored)).to.equal(true);
            if (s3) {
                expect(storedObjects(s3).length, 'the bytes are in the bucket, and the thumbnail\'s').to.equal(2);
            }
        });

        it('stores a thumbnail with each photo (fits in 400×400, WebP, no EXIF, a fraction of the photo), read under the photo\'s rules', async () => {
            const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 30, g: 90, b: 160 } } })
                .composite([{ input: Buffer.from('<svg width="1600" height="1200"><rect x="200" y="150" width="1200" height="900" fill="#c86428"/>'
                    + '<circle cx="800" cy="600" r="300" fill="#f0e0a0"/><path d="M100 1100 L1500 100" stroke="#111" stroke-width="40"/></svg>') }])
                .jpeg({ quality: 95 }).withExif({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } }).toBuffer();
            const res = await upload(chat.sessionId, customer(), big, 'parcel.jpg');
            expect(res.statusCode, res.payload).to.equal(201);
            const file = JSON.parse(res.payload);
            expect(file).to.include({ width: 1600, height: 1200 });
            const sent = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(),
                payload: { message: 'the box', attachments: [file.id], clientMessageId: 'photo-big' } });
            expect(sent.statusCode, sent.payload).to.equal(201);

            // The agent and the customer both get the two URLs; the thumbnail is small, the photo whole.
            for (const headers of [bearer(a.admin.token), customer()]) {
                const signed = await link(chat.sessionId, file.id, headers);
                expect(signed.statusCode, signed.payload).to.equal(200);
                const { url, thumbUrl } = JSON.parse(signed.payload);
                const full = await t.server.inject({ url });
                const thumb = await t.server.inject({ url: thumbUrl });
                expect(full.statusCode).to.equal(200);
                expect(thumb.statusCode, thumb.payload).to.equal(200);
                expect(thumb.headers['content-type']).to.equal('image/webp');
                expect(thumb.headers['x-content-type-options']).to.equal('nosniff');
                expect(String(thumb.headers['content-security-policy'])).to.match(/^sandbox/);
                expect(String(thumb.headers['content-disposition'])).to.match(/^inline; filename="parcel-thumb.webp"/);
                const meta = await sharp(thumb.rawPayload).metadata();
                expect(meta).to.include({ format: 'webp', width: 400, height: 300 });
                expect(meta.exif, 'no EXIF in the thumbnail').to.equal(undefined);
                expect(thumb.rawPayload.toString('latin1')).to.not.include('PhoneMaker');
                expect(thumb.rawPayload.length, `thumbnail ${thumb.rawPayload.length} B, photo ${full.rawPayload.length} B`).to.be.below(full.rawPayload.length / 5).and.below(40_000);
                expect((await sharp(full.rawPayload).metadata()).width).to.equal(1600);
            }
            const row = await t.server.app.db('chat_attachments').where('file_id', file.id).first();
            expect(row.thumb_key).to.match(new RegExp(`^${a.organization.id}/[A-Za-z0-9_-]{22}$`)).and.not.equal(row.storage_key);
            expect(await t.server.app.services.livechatFiles.storage.get(row.thumb_key), 'the thumbnail is on the same storage').to.be.instanceOf(Buffer);

            // The same rules as the photo: another store's staff and another chat's customer get no URL at all.
            expect((await link(chat.sessionId, file.id, bearer(b.admin.token))).statusCode).to.equal(404);
            expect((await link(other.sessionId, file.id, customer(other.token))).statusCode).to.equal(404);
            // Each URL opens its own rendition only; a forged or expired thumbnail URL is refused.
            const { url, thumbUrl } = JSON.parse((await link(chat.sessionId, file.id, customer())).payload);
            const fileSig = new URL(url, 'http://x').searchParams;
            const thumbSig = new URL(thumbUrl, 'http://x').searchParams;
            expect((await t.server.inject({ url: `/api/files/${file.id}?${thumbSig}` })).statusCode, 'the thumbnail\'s signature on the photo').to.equal(403);
            expect((await t.server.inject({ url: `/api/files/${file.id}/thumb?${fileSig}` })).statusCode, 'the photo\'s signature on the thumbnail').to.equal(403);
            const files = t.server.app.services.livechatFiles as any;
            const realNow = files.deps.now;
            files.deps.now = () => Date.now() - 3_600_000;
            const old = JSON.parse((await link(chat.sessionId, file.id, customer())).payload);
            files.deps.now = realNow;
            expect((await t.server.inject({ url: old.thumbUrl })).statusCode, 'expired').to.equal(403);

            // A PDF has no thumbnail (a signed thumbnail URL for it finds nothing).
            const pdf = JSON.parse((await upload(chat.sessionId, customer(), PDF, 'invoice.pdf')).payload);
            await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(), payload: { message: 'invoice', attachments: [pdf.id] } });
            expect(JSON.parse((await link(chat.sessionId, pdf.id, customer())).payload)).to.not.have.property('thumbUrl');
            const expires = Date.now() + 60_000;
            expect((await t.server.inject({ url: `/api/files/${pdf.id}/thumb?expires=${expires}&signature=${files.signature(pdf.id, expires, 'thumb')}` })).statusCode).to.equal(404);

            // A photo stored before thumbnails existed: no thumbUrl (the clients show the photo), the photo still served.
            await t.server.app.db('chat_attachments').where('id', row.id).update({ thumb_key: null });
            const legacy = JSON.parse((await link(chat.sessionId, file.id, customer())).payload);
            expect(legacy).to.not.have.property('thumbUrl');
            expect((await t.server.inject({ url: legacy.url })).statusCode).to.equal(200);
            expect((await t.server.inject({ url: `/api/files/${file.id}/thumb?expires=${expires}&signature=${files.signature(file.id, expires, 'thumb')}` })).statusCode).to.equal(404);
            await t.server.app.db('chat_attachments').where('id', row.id).update({ thumb_key: row.thumb_key });
        });

        it('lets the agent reply with a PDF (text and file), served as a download', async () => {
            const res = await upload(chat.sessionId, bearer(a.admin.token), PDF, 'size-chart.pdf', 'application/pdf');
            expect(res.statusCode, res.payload).to.equal(201);
            const file = JSON.parse(res.payload);
            expect(file).to.include({ mime: 'application/pdf', name: 'size-chart.pdf', size: PDF.length });
            const sent = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: bearer(a.admin.token),
                payload: { message: 'Here is our size chart', attachments: [file.id] } });
            expect(sent.statusCode, sent.payload).to.equal(201);
            const signed = JSON.parse((await link(chat.sessionId, file.id, customer())).payload);
            const got = await t.server.inject({ url: signed.url });
            expect(got.statusCode).to.equal(200);
            expect(got.headers['content-type']).to.equal('application/pdf');
            expect(String(got.headers['content-disposition'])).to.match(/^attachment; filename="size-chart.pdf"/);
            expect(got.rawPayload.equals(PDF)).to.equal(true);
        });

        it('refuses SVG, HTML renamed .png, a polyglot, a zip bomb, a decompression bomb, HEIC, a file too big and an empty one, each with its 4xx and code', async () => {
            const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00f' } }).gif().toBuffer();
            const cases: Array<[string, Buffer, string, number, string]> = [
                ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="5"/></svg>'), 'logo.svg', 415, 'livechat.file_type'],
                ['html as png', Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>'), 'photo.png', 415, 'livechat.file_type'],
                ['polyglot GIF + HTML', Buffer.concat([gif, Buffer.from('<script>alert(1)</script>')]), 'anim.gif', 415, 'livechat.file_type'],
                ['polyglot GIF + ZIP (GIFAR)', Buffer.concat([gif, realZip(gif.length)]), 'anim.gif', 415, 'livechat.file_type'],
                ['GIF + ZIP appended (cat)', Buffer.concat([gif, realZip()]), 'anim.gif', 415, 'livechat.file_type'],
                ['polyglot PDF + ZIP', Buffer.concat([PDF, realZip(PDF.length)]), 'receipt.pdf', 415, 'livechat.file_type'],
                ['PDF + ZIP appended (cat)', Buffer.concat([PDF, realZip()]), 'receipt.pdf', 415, 'livechat.file_type'],
                ['zip bomb', zipBomb(), 'photos.zip', 415, 'livechat.file_type'],
                ['decompression bomb', bombPng(20000, 20000), 'huge.png', 413, 'livechat.file_pixels'],
                ['HEIC', HEIC, 'IMG_0001.HEIC', 415, 'livechat.file_heic'],
                ['too big', Buffer.concat([PDF, Buffer.alloc(1024 * 1024 + 1)]), 'big.pdf', 413, 'livechat.file_size'],
                ['empty', Buffer.alloc(0), 'nothing.jpg', 400, 'livechat.file_empty']
            ];
            const before = await t.server.app.db('chat_attachments').count('* as n').first();
            for (const [label, data, name, status, code] of cases) {
                const res = await upload(chat.sessionId, customer(), data, name, 'image/png');
                expect(res.statusCode, `${label}: ${res.payload}`).to.equal(status);
                const body = JSON.parse(res.payload);
                expect(body.code, label).to.equal(code);
                expect(body.message, label).to.be.a('string').and.not.match(/payload|content length/i);
            }
            expect(await t.server.app.db('chat_attachments').count('* as n').first(), 'nothing stored').to.deep.equal(before);
            if (s3) {
                expect(storedObjects(s3).length, 'two photos and their thumbnails, two PDFs').to.equal(6);
            }
        });

        it('accepts a PDF whose compressed stream holds ZIP signatures by chance (no archive a reader would open), stored as it is', async () => {
            const pdf = pdfWithZipBytes();
            expect(pdf.includes(Buffer.from('PK\u0003\u0004', 'latin1')) && pdf.includes(Buffer.from('PK\u0005\u0006', 'latin1'))).to.equal(true);
            const res = await upload(chat.sessionId, customer(), pdf, 'size-chart.pdf');
            expect(res.statusCode, res.payload).to.equal(201);
            const file = JSON.parse(res.payload);
            expect(file).to.include({ mime: 'application/pdf', size: pdf.length });
            const row = await t.server.app.db('chat_attachments').where('file_id', file.id).first();
            expect((await t.server.app.services.livechatFiles.storage.get(row.storage_key))!.equals(pdf)).to.equal(true);
        });

        it('refuses more than 5 files in a message, a file of another chat, and one already sent', async () => {
            const ids = [];
            for (let i = 0; i < 6; i += 1) {
                ids.push(JSON.parse((await upload(chat.sessionId, customer(), PDF, `r${i}.pdf`)).payload).id);
            }
            const six = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(), payload: { message: 'all', attachments: ids } });
            expect(six.statusCode).to.equal(400);
            expect(JSON.parse(six.payload).message).to.equal('You can send up to 5 files in one message.');
            const mine = JSON.parse((await upload(other.sessionId, customer(other.token), PDF, 'x.pdf')).payload).id;
            const foreign = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(), payload: { message: 'x', attachments: [mine] } });
            expect(foreign.statusCode).to.equal(400);
            expect(JSON.parse(foreign.payload).code).to.equal('livechat.file_unknown');
            const sent = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(), payload: { message: '', attachments: ids.slice(0, 5) } });
            expect(sent.statusCode, sent.payload).to.equal(201);
            expect(JSON.parse(sent.payload).attachments).to.have.length(5);
            const twice = await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(), payload: { message: '', attachments: [ids[0]] } });
            expect(twice.statusCode).to.equal(400);
        });

        it('never gives a file to another store\'s staff or another chat\'s customer (404), and refuses an expired or forged URL (403)', async () => {
            const file = JSON.parse((await upload(chat.sessionId, customer(), PDF, 'receipt.pdf')).payload);
            await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer(), payload: { message: 'receipt', attachments: [file.id] } });
            expect((await link(chat.sessionId, file.id, bearer(b.admin.token))).statusCode, 'another store\'s staff').to.equal(404);
            expect((await link(other.sessionId, file.id, customer(other.token))).statusCode, 'another chat\'s customer, own chat path').to.equal(404);
            expect((await link(other.sessionId, file.id, bearer(a.admin.token))).statusCode, 'the file under another chat').to.equal(404);
            const foreignPath = await link(chat.sessionId, file.id, customer(other.token));
            expect(foreignPath.statusCode, 'another chat\'s customer, this chat\'s path').to.be.oneOf([403, 404]);
            expect((await link(chat.sessionId, file.id, {})).statusCode).to.equal(401);

            const { url } = JSON.parse((await link(chat.sessionId, file.id, bearer(a.admin.token))).payload);
            const u = new URL(url, 'http://x');
            const sig = u.searchParams.get('signature')!;
            const forged = await t.server.inject({ url: `/api/files/${file.id}?expires=${Number(u.searchParams.get('expires')) + 60000}&signature=${sig}` });
            expect(forged.statusCode).to.equal(403);
            // Expired: the service signs with the clock it is given; a URL signed an hour ago is past FILES_URL_SECONDS.
            const files = t.server.app.services.livechatFiles as any;
            const realNow = files.deps.now;
            files.deps.now = () => Date.now() - 3_600_000;
            const old = JSON.parse((await link(chat.sessionId, file.id, bearer(a.admin.token))).payload);
            files.deps.now = realNow;
            const expired = await t.server.inject({ url: old.url });
            expect(expired.statusCode).to.equal(403);
            expect(JSON.parse(expired.payload).message).to.equal('This link has expired');
            expect((await t.server.inject({ url: `/api/files/AAAAAAAAAAAAAAAAAAAAAA?expires=1&signature=${sig}` })).statusCode).to.equal(403);
        });

        it('sweeps an upload never sent (after FILES_UNSENT_MINUTES), bytes and thumbnail included', async () => {
            const file = JSON.parse((await upload(chat.sessionId, customer(), PDF, 'forgotten.pdf')).payload);
            const row = await t.server.app.db('chat_attachments').where('file_id', file.id).first();
            const forgottenPhoto = JSON.parse((await upload(chat.sessionId, customer(), photo, 'forgotten.jpg')).payload);
            const photoRow = await t.server.app.db('chat_attachments').where('file_id', forgottenPhoto.id).first();
            expect(photoRow.thumb_key).to.be.a('string');
            const files = t.server.app.services.livechatFiles;
            expect(await files.sweep(Date.now()), 'not yet: within the window').to.equal(0);
            const swept = await files.sweep(Date.now() + t.config.files.unsentMs + 1);
            expect(swept).to.be.at.least(1);
            expect(await t.server.app.db('chat_attachments').where('file_id', file.id).first()).to.equal(undefined);
            expect(await files.storage.get(row.storage_key)).to.equal(null);
            expect(await t.server.app.db('chat_attachments').where('file_id', forgottenPhoto.id).first()).to.equal(undefined);
            expect(await files.storage.get(photoRow.storage_key)).to.equal(null);
            expect(await files.storage.get(photoRow.thumb_key), 'the thumbnail too').to.equal(null);
            // Sent files stay.
            expect(Number((await t.server.app.db('chat_attachments').whereNotNull('message_id').count('* as n').first())!.n)).to.equal(10);
        });

        it('links the conversation in the transcript mail, never a file URL', async () => {
            await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/end`, headers: bearer(a.admin.token) });
            await t.server.app.services.livechat.sendTranscript(a.organization.id, chat.sessionId);
            const mail = await t.server.app.db('email_outbox').where('organization_id', a.organization.id).orderBy('id', 'desc').first();
            expect(mail.body_text).to.include('[file: IMG_0042.jpg]').and.include('[file: size-chart.pdf]');
            expect(mail.body_text).to.include(`/admin-chat/history?session=${chat.sessionId}`);
            expect(mail.body_text).to.not.include('/api/files/');
        });

        it('erases the files with the customer (rows, bytes and thumbnails)', async () => {
            const rows = await t.server.app.db('chat_attachments').where('organization_id', a.organization.id).select('storage_key', 'thumb_key');
            const keys = rows.flatMap((r: any) => [r.storage_key, ...(r.thumb_key ? [r.thumb_key] : [])]);
            expect(keys.length).to.be.at.least(12);
            expect(rows.filter((r: any) => r.thumb_key).length, 'two photos with thumbnails').to.equal(2);
            const res = await t.server.inject({ method: 'POST', url: '/api/privacy/customers/erase', headers: bearer(a.admin.token), payload: { phone: '+15555550100', confirm: true } });
            expect(res.statusCode, res.payload).to.equal(200);
            expect(Number((await t.server.app.db('chat_attachments').where('organization_id', a.organization.id).count('* as n').first())!.n)).to.equal(0);
            for (const key of keys) {
                expect(await t.server.app.services.livechatFiles.storage.get(key), key).to.equal(null);
            }
            if (s3) {
                expect(storedObjects(s3)).to.deep.equal([]);
            }
            else {
                const dir = Path.join(t.config.files.dir, String(a.organization.id));
                expect(Fs.existsSync(dir) ? Fs.readdirSync(dir) : []).to.deep.equal([]);
            }
        });

        it('lets the store\'s retention take an ended chat\'s photo with its thumbnail', async () => {
            const old = await createSession(t.server, a, 'widget_1_filesthree', 'A photo of my receipt');
            expect((await t.server.inject({ method: 'POST', url: `/api/chat/session/${old.sessionId}/accept`, headers: bearer(a.admin.token) })).statusCode).to.equal(200);
            const file = JSON.parse((await upload(old.sessionId, customer(old.token), photo, 'receipt.jpg')).payload);
            await t.server.inject({ method: 'POST', url: `/api/chat/session/${old.sessionId}/messages`, headers: customer(old.token), payload: { message: '', attachments: [file.id] } });
            await t.server.inject({ method: 'POST', url: `/api/chat/session/${old.sessionId}/end`, headers: bearer(a.admin.token) });
            const row = await t.server.app.db('chat_attachments').where('file_id', file.id).first();
            expect(row.thumb_key).to.be.a('string');
            const put = await t.server.inject({ method: 'PUT', url: '/api/privacy/retention', headers: bearer(a.admin.token), payload: { chats: 30 } });
            expect(put.statusCode, put.payload).to.equal(200);
            await t.server.app.services.privacy.runRetention(Date.now() + 31 * 24 * 3600 * 1000, a.organization.id);
            expect(await t.server.app.db('chat_attachments').where('file_id', file.id).first()).to.equal(undefined);
            const storage = t.server.app.services.livechatFiles.storage;
            expect(await storage.get(row.storage_key)).to.equal(null);
            expect(await storage.get(row.thumb_key), 'the thumbnail too').to.equal(null);
        });
    });
}
