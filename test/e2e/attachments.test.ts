import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import sharp from 'sharp';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { startTestServer, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { demoAgent, openStaffPage, openStorefrontWidget } from '../helpers/live-chat-page';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend } from '../helpers/widget-page';


const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n'
    + '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');

/** A live chat between two browsers: the customer's text may take longer to come than a page's own answer. */
const waitForWidgetText = (page: Page, text: string, timeout = 15000) => waitForText(page, text, timeout);

/**
 * Issue 29, end to end in two browsers at one width: the customer sends a photo from the real widget on the demo
 * storefront, the agent sees its thumbnail in the console and replies with a PDF, the customer downloads it; the
 * transcript mail links the conversation; History shows both files.
 */
async function photoAndPdf(t: TestServer, width: number, dir: string): Promise<void> {
    const { organizationId, token } = await demoAgent(t);
    const prefix = `attachments-${width}`;
    const photoPath = Path.join(dir, 'broken-parcel.jpg');
    await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 180, g: 120, b: 60 } } })
        .composite([{ input: Buffer.from('<svg width="320" height="240"><rect x="40" y="40" width="240" height="160" fill="#7a4a1f"/><path d="M60 60 L260 180" stroke="#222" stroke-width="8"/></svg>') }])
        .jpeg().withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } }).toFile(photoPath);
    const pdfPath = Path.join(dir, 'size-chart.pdf');
    Fs.writeFileSync(pdfPath, PDF);

    const agentBrowser: Browser = await launchBrowser();
    const customerBrowser: Browser = await launchBrowser();
    try {
        const agent = await openStaffPage(agentBrowser, t.url, token, { viewport: { width, height: width < 600 ? 800 : 860 } });
        const available = await t.server.inject({ method: 'POST', url: '/api/chat/agent/availability', headers: { authorization: `Bearer ${token}` }, payload: { available: true } });
        expect(available.statusCode, available.payload).to.equal(200);

        const { page: customer, errors: pageErrors } = await openStorefrontWidget(customerBrowser, t.url, { width, height: 800 });
        await typeAndSend(customer, 'I want to talk to a human please');
        await waitForWidgetText(customer, "You're connected!", 15000);
        const [row] = await t.server.app.db('chat_sessions').where({ organization_id: organizationId }).orderBy('id', 'desc');
        const accepted = await t.server.inject({ method: 'POST', url: `/api/chat/session/${row.session_id}/accept`, headers: { authorization: `Bearer ${token}` } });
        expect(accepted.statusCode, accepted.payload).to.equal(200);
        await waitForWidgetText(customer, 'has joined the chat.');

        // The agent opens the chat.
        await agent.waitForFunction(() => (document.querySelector('[data-testid="active-list"]')?.children.length ?? 0) > 0, { timeout: 10000 });
        await agent.evaluate(() => (document.querySelector('[data-testid="active-list"] button, [data-testid="active-list"] [role="button"], [data-testid="active-list"] > *') as HTMLElement).click());
        await agent.waitForFunction(() => document.querySelector('[data-testid="conversation"]')?.textContent?.includes('I want to talk to a human please'), { timeout: 10000 });

        // The customer attaches a photo (the paperclip loads the files chunk), sees its upload finish, and sends it.
        await customer.evaluate(`${ROOT}.querySelector('.lc-attach').click()`);
        await customer.waitForFunction(`!!${ROOT}.querySelector('[data-testid="file-input"]')`, { timeout: 10000 });
        expect(await customer.evaluate(`${ROOT}.querySelector('[data-testid="file-input"]').accept`)).to.equal('image/jpeg,image/png,image/webp,image/gif,application/pdf');
        expect(await customer.evaluate(`${ROOT}.querySelector('input[capture]').getAttribute('capture')`)).to.equal('environment');
        const input = await customer.evaluateHandle(`${ROOT}.querySelector('[data-testid="file-input"]')`);
        await (input as any).uploadFile(photoPath);
        await customer.waitForFunction(`${ROOT}.querySelectorAll('.lc-upload').length === 1 && !${ROOT}.querySelector('.lc-upload progress') && !${ROOT}.querySelector('.lc-upload-error')`, { timeout: 10000 });
        await screenshot(customer, `${prefix}-customer-attached`);
        await customer.evaluate(`${ROOT}.querySelector('.lc-send').click()`);
        await customer.waitForFunction(`!!${ROOT}.querySelector('.lc-msgs .lc-user img.lc-thumb')?.naturalWidth`, { timeout: 10000 });

        // The agent sees the thumbnail (a real image, loaded through its signed URL).
        await agent.waitForFunction(() => ((document.querySelector('[data-testid="conversation"] [data-testid="file-thumb"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0, { timeout: 10000 });
        await screenshot(agent, `${prefix}-agent-photo`);

        // The agent replies with a line of text and a PDF (Send once the upload is done).
        await agent.focus('[data-testid="agent-input"]');
        await agent.type('[data-testid="agent-input"]', 'Sorry about that! Here is our size chart for the replacement.');
        await agent.waitForFunction(() => (document.querySelector('[data-testid="agent-input"]') as HTMLTextAreaElement).value.includes('size chart'));
        const agentFile = await agent.$('input[data-testid="agent-file-input"]') as ElementHandle<HTMLInputElement> | null;
        await agentFile!.uploadFile(pdfPath);
        await agent.waitForFunction(() => document.querySelector('[data-testid="uploads"]') && !document.querySelector('[data-testid="uploads"] .bp5-progress-bar') && !document.querySelector('.lc-upload-error'), { timeout: 10000 });
        await agent.evaluate(() => (Array.from(document.querySelectorAll('[data-testid="composer"] button')).find((b) => b.textContent?.includes('Send')) as HTMLButtonElement).click());
        await agent.waitForFunction(() => !!document.querySelector('[data-testid="conversation"] [data-testid="file-download"]'), { timeout: 10000 });

        // The customer gets it live and downloads it: a PDF, as an attachment, the same bytes.
        await waitForWidgetText(customer, 'Here is our size chart');
        await customer.waitForFunction(`!!${ROOT}.querySelector('a.lc-download[href*="/api/files/"]')`, { timeout: 10000 });
        await screenshot(customer, `${prefix}-customer-pdf`);
        const download = await customer.evaluate(`fetch(${ROOT}.querySelector('a.lc-download').href).then(async (r) => ({ status: r.status, type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'), size: (await r.arrayBuffer()).byteLength }))`) as any;
        expect(download).to.deep.include({ status: 200, type: 'application/pdf', size: PDF.length });
        expect(download.disposition).to.match(/^attachment; filename="size-chart.pdf"/);
        expect(await customer.evaluate(`${ROOT}.querySelector('a.lc-download').textContent`)).to.equal('Download size-chart.pdf');

        // Ended: the transcript links the conversation (behind the login), never a file.
        await t.server.inject({ method: 'POST', url: `/api/chat/session/${row.session_id}/end`, headers: { authorization: `Bearer ${token}` } });
        await t.server.app.services.livechat.sendTranscript(organizationId, row.session_id);
        const mail = await t.server.app.db('email_outbox').where('organization_id', organizationId).orderBy('id', 'desc').first();
        expect(mail.body_text).to.include('[file: broken-parcel.jpg]').and.include('[file: size-chart.pdf]')
            .and.include(`/admin-chat/history?session=${row.session_id}`).and.not.include('/api/files/');

        // History shows both.
        await agent.goto(`${t.url}/admin-chat/history?session=${encodeURIComponent(row.session_id)}`, { waitUntil: 'networkidle2' });
        await agent.waitForFunction(() => ((document.querySelector('[data-testid="file-thumb"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0
            && !!document.querySelector('[data-testid="file-download"]'), { timeout: 15000 });
        await screenshot(agent, `${prefix}-agent-history`);
        expect(pageErrors).to.deep.equal([]);
    }
    finally {
        await customerBrowser.close();
        await agentBrowser.close();
    }
}

describe('photos and files in live chat, widget and console (issue 29)', function () {
    this.timeout(120000);
    for (const width of [1280, 390]) {
        it(`sends a photo from the widget, replies with a PDF from the console, and shows both in History at ${width} px`, async () => {
            const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-e2e-files-'));
            const t = await startTestServer({ listen: true });
            try {
                await photoAndPdf(t, width, dir);
            }
            finally {
                await t.close();
                Fs.rmSync(dir, { recursive: true, force: true });
            }
        });
    }
});
