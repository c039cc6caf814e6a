import { expect } from 'chai';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import sharp from 'sharp';
import type { Browser, Page } from 'puppeteer-core';
import { startTestServer, TestServer } from '../helpers/server';
import { launchBrowser, screenshot } from '../helpers/browser';
import { demoAgent, openStaffPage, openStorefrontWidget } from '../helpers/live-chat-page';
import { WIDGET_ROOT as ROOT, waitForText, typeAndSend } from '../helpers/widget-page';


const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n'
    + '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');

/** A live chat between two browsers: the customer's text may take longer to come than a page's own answer. */
const waitForWidgetText = (page: Page, text: string, timeout = 15000) => waitForText(page, text, timeout);

/** A thumbnail's bytes are a fraction of the photo's (both fetched as the page would, through their signed URLs). */
async function thumbIsSmall(page: Page, thumb: { src: string; href: string }): Promise<void> {
    const sizes = await page.evaluate(async (a: string, b: string) => Promise.all([a, b].map(async (u) => (await (await fetch(u)).arrayBuffer()).byteLength)), thumb.src, thumb.href);
    expect(sizes[0], `thumbnail ${sizes[0]} B, photo ${sizes[1]} B`).to.be.below(sizes[1] / 3);
}

/** The console's (and History's) thumbnail: its own small URL, 400 px wide; its link opens the photo. */
async function consoleThumbIsSmall(agent: Page): Promise<void> {
    const thumb = await agent.$eval('[data-testid="file-thumb"]', (img) => ({
        src: (img as HTMLImageElement).src, width: (img as HTMLImageElement).naturalWidth, href: (img.closest('a') as HTMLAnchorElement).href
    }));
    expect(thumb.src).to.match(/\/api\/files\/[A-Za-z0-9_-]+\/thumb\?expires=/);
    expect(thumb.width).to.equal(400);
    expect(thumb.href).to.match(/\/api\/files\/[A-Za-z0-9_-]+\?expires=/);
    await thumbIsSmall(agent, thumb);
}

/**
 * Issue 29, end to end in two browsers at one width: the customer sends a photo from the real widget on the demo
 * storefront, the agent sees its thumbnail in the console and replies with a PDF, the customer downloads it; the
 * transcript mail links the conversation; History shows both files.
 */
async function photoAndPdf(t: TestServer, width: number, dir: string): Promise<void> {
    const { organizationId, token } = await demoAgent(t);
    const prefix = `attachments-${width}`;
    const photoPath = Path.join(dir, 'broken-parcel.jpg');
    // A phone-sized photo (1600×1200): the messages show its 400 px thumbnail, never the photo itself.
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 180, g: 120, b: 60 } } })
        .composite([{ input: Buffer.from('<svg width="1600" height="1200"><rect x="200" y="200" width="1200" height="800" fill="#7a4a1f"/><path d="M300 300 L1300 900" stroke="#222" stroke-width="40"/></svg>') }])
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
        // The agent accepts it in the console (a real click on Accept Chat): the chat opens (at 390 px in place of the
        // list) and its "New chat request" alert goes with it: the toast lay over the reply box at 390 px.
        const acceptButton = `[data-testid="waiting-list"] [data-session="${row.session_id}"] button`;
        await agent.waitForSelector(acceptButton, { visible: true, timeout: 10000 });
        await agent.click(acceptButton);
        await waitForWidgetText(customer, 'has joined the chat.');
        await agent.waitForSelector('[data-testid="agent-input"]', { visible: true, timeout: 10000 });
        // (A toast being dismissed stays in the page for its exit transition: leaving is enough.)
        await agent.waitForFunction(() => !document.querySelector('.bp5-toast:not([class*="-exit"])'), { timeout: 1000 });
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
        // The widget shows the thumbnail (400 px wide, its own signed URL); the link opens the photo.
        const widgetThumb = await customer.evaluate(`(() => { const img = ${ROOT}.querySelector('.lc-msgs .lc-user img.lc-thumb');
            return { src: img.src, width: img.naturalWidth, href: img.closest('a').href }; })()`) as { src: string; width: number; href: string };
        expect(widgetThumb.src).to.match(/\/api\/files\/[A-Za-z0-9_-]+\/thumb\?expires=/);
        expect(widgetThumb.width).to.equal(400);
        expect(widgetThumb.href).to.match(/\/api\/files\/[A-Za-z0-9_-]+\?expires=/);
        await thumbIsSmall(customer, widgetThumb);

        // The agent sees the thumbnail (a real image, loaded through its signed URL), not the photo.
        await agent.waitForFunction(() => ((document.querySelector('[data-testid="conversation"] [data-testid="file-thumb"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0, { timeout: 10000 });
        await consoleThumbIsSmall(agent);
        await screenshot(agent, `${prefix}-agent-photo`);

        // The agent replies with a line of text and a PDF. Issue 29's report, "at 390 px the first keystrokes typed
        // right after an upload were lost", as an agent does it: in the reply box, a real click on the paperclip,
        // the file chosen, then typing at once without clicking back into the box. Every character must land there.
        const reply = 'Sorry about that! Here is our size chart for the replacement.';
        await agent.click('[data-testid="agent-input"]');
        const [chooser] = await Promise.all([agent.waitForFileChooser({ timeout: 10000 }), agent.click('[data-testid="attach"]')]);
        await chooser.accept([pdfPath]);
        await agent.keyboard.type(reply);
        const typed = await agent.$eval('[data-testid="agent-input"]', (el) => (el as HTMLTextAreaElement).value);
        expect(typed, 'the reply box holds every keystroke typed right after the upload').to.equal(reply);
        await agent.waitForFunction(() => document.querySelector('[data-testid="uploads"]') && !document.querySelector('[data-testid="uploads"] .bp5-progress-bar') && !document.querySelector('.lc-upload-error'), { timeout: 10000 });

        // Enter sends it; the agent goes on typing the next line while the reply (with its file) is on its way: the
        // server holds the send until that line is typed. The sent text leaves the box, the new line stays.
        const files = t.server.app.services.livechatFiles;
        const claim = files.claim;
        let release = () => undefined as void;
        const held = new Promise<void>((resolve) => {
            release = resolve;
        });
        let claimed = false;
        files.claim = async (...args: Parameters<typeof claim>) => {
            claimed = true;
            await held;
            return claim.apply(files, args);
        };
        try {
            await agent.keyboard.press('Enter');
            for (let i = 0; i < 500 && !claimed; i += 1) {
                await new Promise((r) => setTimeout(r, 10));
            }
            expect(claimed, 'the send reached the server').to.equal(true);
            await agent.keyboard.type(' Use code SORRY10.');
        }
        finally {
            release();
            files.claim = claim;
        }
        await agent.waitForFunction(() => !!document.querySelector('[data-testid="conversation"] [data-testid="file-download"]'), { timeout: 10000 });
        await agent.waitForFunction(() => !(document.querySelector('[data-testid="agent-input"]') as HTMLTextAreaElement).value.startsWith('Sorry'), { timeout: 10000 });
        expect(await agent.$eval('[data-testid="agent-input"]', (el) => (el as HTMLTextAreaElement).value), 'what was typed during the send stays').to.equal('Use code SORRY10.');
        const sentReply = await t.server.app.db('chat_messages').where({ chat_session_id: row.id, sender: 'agent' }).orderBy('id', 'desc').first();
        expect(sentReply.message, 'the message sent is whole').to.equal(reply);
        await agent.keyboard.press('Enter');

        // The customer gets it live and downloads it: a PDF, as an attachment, the same bytes.
        await waitForWidgetText(customer, reply);
        await waitForWidgetText(customer, 'Use code SORRY10.');
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
        // The transcript shows (at 390 px a tap on the chat opens it: one pane at a time).
        await agent.waitForSelector('[data-testid="history-list"] [data-chat-button]', { visible: true, timeout: 10000 });
        await agent.click('[data-testid="history-list"] [data-chat-button]');
        await agent.waitForSelector('[data-testid="file-thumb"]', { visible: true, timeout: 10000 });
        // The PDF's download link reads on the agent's own (blue) bubble.
        const link = await agent.$eval('[data-testid="file-download"]', (a) => ({ color: getComputedStyle(a).color, background: getComputedStyle(a.closest('.lc-msg')!).backgroundColor }));
        expect(link.color, 'the download link is not the colour of its bubble').to.not.equal(link.background);
        await agent.waitForFunction(() => ((document.querySelector('[data-testid="file-thumb"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0
            && !!document.querySelector('[data-testid="file-download"]'), { timeout: 15000 });
        await consoleThumbIsSmall(agent);
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
