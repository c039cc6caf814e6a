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
            const { url } = JSON.parse(signed.payload);
            expect(url).to.match(new RegExp(`^/api/files/${file.id}\\?expires=\\d+&signature=[A-Za-z0-9_-]+$`));
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
                expect(storedObjects(s3).length, 'the bytes are in the bucket').to.equal(1);
            }
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
                ['polyglot GIF + ZIP (GIFAR)', Buffer.concat([gif, zipBomb()]), 'anim.gif', 415, 'livechat.file_type'],
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
                expect(storedObjects(s3).length).to.equal(2);
            }
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

        it('sweeps an upload never sent (after FILES_UNSENT_MINUTES), bytes included', async () => {
            const file = JSON.parse((await upload(chat.sessionId, customer(), PDF, 'forgotten.pdf')).payload);
            const row = await t.server.app.db('chat_attachments').where('file_id', file.id).first();
            const files = t.server.app.services.livechatFiles;
            expect(await files.sweep(Date.now()), 'not yet: within the window').to.equal(0);
            const swept = await files.sweep(Date.now() + t.config.files.unsentMs + 1);
            expect(swept).to.be.at.least(1);
            expect(await t.server.app.db('chat_attachments').where('file_id', file.id).first()).to.equal(undefined);
            expect(await files.storage.get(row.storage_key)).to.equal(null);
            // Sent files stay.
            expect(Number((await t.server.app.db('chat_attachments').whereNotNull('message_id').count('* as n').first())!.n)).to.equal(8);
        });

        it('links the conversation in the transcript mail, never a file URL', async () => {
            await t.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/end`, headers: bearer(a.admin.token) });
            await t.server.app.services.livechat.sendTranscript(a.organization.id, chat.sessionId);
            const mail = await t.server.app.db('email_outbox').where('organization_id', a.organization.id).orderBy('id', 'desc').first();
            expect(mail.body_text).to.include('[file: IMG_0042.jpg]').and.include('[file: size-chart.pdf]');
            expect(mail.body_text).to.include(`/admin-chat/history?session=${chat.sessionId}`);
            expect(mail.body_text).to.not.include('/api/files/');
        });

        it('erases the files with the customer (rows and bytes)', async () => {
            const keys = (await t.server.app.db('chat_attachments').where('organization_id', a.organization.id).select('storage_key')).map((r: any) => r.storage_key);
            expect(keys.length).to.be.at.least(7);
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
    });
}
