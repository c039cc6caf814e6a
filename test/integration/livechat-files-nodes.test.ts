import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import sharp from 'sharp';
import { startTestServer, createTenant, bearer, TestServer, Tenant, usingPostgres, usingRedis } from '../helpers/server';
import { connectAgent, createSession, NesClient, setAvailable } from '../helpers/livechat-client';
import { FakeS3, startFakeS3 } from '../helpers/fake-s3';

/**
 * Issue 29 on two nodes sharing PostgreSQL and Redis: a customer's photo uploaded and sent through node A is read by
 * the agent through node B (the message pushed there, the signed link and the bytes answered there), with the files
 * in an S3-compatible bucket, and in a directory both nodes share (FILES_DIR).
 */
for (const store of ['s3', 'shared directory'] as const) {
    describe(`live chat files across two nodes, in ${store === 's3' ? 'an S3-compatible bucket' : 'a shared directory'} (issue 29)`, function () {
        this.timeout(60000);
        let s3: FakeS3 | null = null;
        let dir: string | null = null;
        let nodeA: TestServer;
        let nodeB: TestServer;
        let shop: Tenant;
        let agent: { client: NesClient; box: { waitFor(p: (m: any) => boolean, ms?: number): Promise<any> } } | null = null;

        before(async function () {
            if (!(usingPostgres && usingRedis)) {
                this.skip();
            }
            s3 = store === 's3' ? await startFakeS3() : null;
            dir = store === 's3' ? null : Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-files-shared-'));
            const env = s3 ? s3.env : { FILES_DIR: dir! };
            nodeA = await startTestServer({ listen: true, env });
            nodeB = await startTestServer({ listen: true, shareWith: nodeA, env });
            shop = await createTenant(nodeA.server, `fn${store === 's3' ? 's3' : 'dir'}`);
            await setAvailable(nodeB.server, shop);
            agent = await connectAgent(nodeB.url, shop);
        });
        after(async () => {
            await agent?.client.disconnect();
            await nodeB?.close();
            await nodeA?.close();
            await s3?.close();
            if (dir) {
                Fs.rmSync(dir, { recursive: true, force: true });
            }
        });

        it('serves on node B the photo a customer sent through node A', async () => {
            const chat = await createSession(nodeA.server, shop, `widget_1_nodes${store === 's3' ? 's3' : 'dir'}`, 'My parcel arrived broken');
            const accepted = await nodeB.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/accept`, headers: bearer(shop.admin.token) });
            expect(accepted.statusCode, accepted.payload).to.equal(200);
            const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 20, g: 120, b: 200 } } }).jpeg().toBuffer();
            const customer = { authorization: `Bearer ${chat.token}` };
            const up = await nodeA.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/files?name=parcel.jpg`,
                headers: { ...customer, 'content-type': 'application/octet-stream' }, payload: photo });
            expect(up.statusCode, up.payload).to.equal(201);
            const file = JSON.parse(up.payload);
            const sent = await nodeA.server.inject({ method: 'POST', url: `/api/chat/session/${chat.sessionId}/messages`, headers: customer,
                payload: { message: 'See the box', attachments: [file.id], clientMessageId: 'nodes-1' } });
            expect(sent.statusCode, sent.payload).to.equal(201);

            // The agent on node B gets the message with its file, asks node B for a link and reads the bytes there.
            const push = await agent!.box.waitFor((m) => m.type === 'chat_message' && m.clientMessageId === 'nodes-1');
            expect(push.attachments).to.deep.equal([file]);
            const link = await nodeB.server.inject({ url: `/api/chat/session/${chat.sessionId}/files/${file.id}/link`, headers: bearer(shop.admin.token) });
            expect(link.statusCode, link.payload).to.equal(200);
            const got = await fetch(`${nodeB.url}${JSON.parse(link.payload).url}`);
            expect(got.status).to.equal(200);
            expect(got.headers.get('content-type')).to.equal('image/jpeg');
            const bytes = Buffer.from(await got.arrayBuffer());
            expect((await sharp(bytes).metadata())).to.include({ format: 'jpeg', width: 32, height: 24 });
            // And node A serves the same bytes (one copy, not one per node).
            const fromA = await fetch(`${nodeA.url}${JSON.parse(link.payload).url}`);
            expect(Buffer.from(await fromA.arrayBuffer()).equals(bytes)).to.equal(true);
        });
    });
}
