import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { startTestServer, createTenant, bearer, TestServer, Tenant } from '../helpers/server';
import { startFakeSmtp } from '../helpers/fake-smtp';
import { connectAgent, connectCustomer, Inbox, NesClient } from '../helpers/livechat-client';
import { signLinkToken } from '../../core/auth/link-token';
import { signCustomerToken } from '../../core/auth/customer-token';

/**
 * Issue 28's last gap: a customer leaves an email in a live chat (PUT /api/chat/session/{id}/email); when a chat an
 * agent joined ends while their widget is not connected, one mail in the chat's language links `/rate/<token>`, a
 * server page whose form records the rating with source 'mail'. On whichever database the run uses (SQLite, or
 * PostgreSQL with DATABASE_URL), mails through a real (fake) SMTP server.
 */
describe('the mailed link to rate a chat (issue 28)', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
    let agent: { client: NesClient; box: Inbox };
    const clients: NesClient[] = [];

    before(async () => {
        smtp = await startFakeSmtp();
        t = await startTestServer({ listen: true, env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, MAIL_FROM: 'chat@platform.test' } });
        a = await createTenant(t.server, 'rmailalpha', 'rmailalpha.test');
        b = await createTenant(t.server, 'rmailbeta', 'rmailbeta.test');
        agent = await connectAgent(t.url, a);
        clients.push(agent.client);
    });
    after(async () => {
        for (const c of clients.splice(0)) {
            await c.disconnect().catch(() => {});
        }
        await t?.close();
        await smtp?.close();
    });

    const db = () => t.server.app.db;
    const org = (tenant: Tenant) => tenant.organization.id;

    /** The widget's create-session (in `lang`), then the agent accepts: answers the customer's token. */
    async function acceptedChat(tenant: Tenant, sessionId: string, lang = 'en'): Promise<string> {
        const res = await t.server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': tenant.bot.publicKey },
            payload: { sessionId, phoneNumber: null, customerMessage: 'Where is my parcel?', lang } });
        expect(res.statusCode, res.payload).to.be.oneOf([200, 201]);
        await t.server.app.services.livechat.accept(org(tenant), tenant.admin.id, sessionId);
        return (res.result as { token: string }).token;
    }
    const putEmail = (sessionId: string, token: string | null, payload: unknown) => t.server.inject({
        method: 'PUT', url: `/api/chat/session/${sessionId}/email`, headers: token ? bearer(token) : {}, payload: payload as object
    });
    /** The customer's widget connects, then closes (the tab): customer-presence marks the chat gone. */
    async function widgetOpenedThenClosed(token: string, sessionId: string): Promise<void> {
        const customer = await connectCustomer(t.url, token, sessionId, undefined, false);
        await customer.client.disconnect();
        for (let i = 0; i < 100; i++) {
            const row = await db()('chat_sessions').where({ session_id: sessionId }).first('customer_gone_at');
            if (row?.customer_gone_at !== null && row?.customer_gone_at !== undefined) {
                return;
            }
            await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error('the chat was never marked gone');
    }
    const outbox = (to: string) => db()('email_outbox').whereRaw('lower(to_address) = ?', [to.toLowerCase()]).orderBy('id');
    /** The outbox rows to `to` once there are `n` (the row is written after SMTP took the mail). */
    async function outboxOf(to: string, n: number): Promise<any[]> {
        for (let i = 0; i < 250; i++) {
            const rows = await outbox(to);
            if (rows.length >= n) {
                return rows;
            }
            await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error(`expected ${n} mails to ${to} in the outbox`);
    }
    const linkIn = (body: string) => {
        const match = /(http:\/\/[^\s]+\/rate\/([A-Za-z0-9_.-]+))/.exec(body);
        expect(match, body).to.not.equal(null);
        return { url: match![1], path: new URL(match![1]).pathname, token: match![2] };
    };
    const form = (path: string, body: string, headers: Record<string, string> = {}) => t.server.inject({
        method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: body
    });

    it('keeps the email the customer gives in an open chat (200), tells the agents, shows it in the chat; refuses another chat\'s token (403) and another store\'s (404), bad input (400), an ended chat (409)', async () => {
        const token = await acceptedChat(a, 'rmail_email_1');
        const res = await putEmail('rmail_email_1', token, { email: '  Robin.Mail@Example.test ' });
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.deep.equal({ sessionId: 'rmail_email_1', email: 'robin.mail@example.test' });
        const pushed = await agent.box.waitFor((m) => m.type === 'customer_email' && m.sessionId === 'rmail_email_1');
        expect(pushed.customerEmail).to.equal('robin.mail@example.test');
        const session = await t.server.inject({ url: '/api/chat/session/rmail_email_1', headers: bearer(a.admin.token) });
        expect((session.result as any).customerEmail).to.equal('robin.mail@example.test');

        // Not an email → 400 with the widget's code; no token → 401; another chat's token or another store's → 404.
        const bad = await putEmail('rmail_email_1', token, { email: 'not-an-email' });
        expect(bad.statusCode).to.equal(400);
        expect(JSON.parse(bad.payload).code).to.equal('livechat.invalid_email');
        expect((await putEmail('rmail_email_1', token, { email: 'x@y.test', extra: 1 })).statusCode).to.equal(400);
        expect((await putEmail('rmail_email_1', null, { email: 'x@y.test' })).statusCode).to.equal(401);
        const other = await acceptedChat(a, 'rmail_email_2');
        expect((await putEmail('rmail_email_1', other, { email: 'x@y.test' })).statusCode, 'another chat\'s token, at the gate').to.equal(403);
        const stranger = signCustomerToken(t.server.app.config.jwtSecret, { organizationId: org(b), sessionId: 'rmail_email_1', chatId: 'rmail_email_1' });
        expect((await putEmail('rmail_email_1', stranger, { email: 'x@y.test' })).statusCode).to.be.oneOf([401, 404]);
        expect((await db()('chat_sessions').where({ session_id: 'rmail_email_1' }).first('customer_email')).customer_email).to.equal('robin.mail@example.test');

        await t.server.app.services.livechat.end(org(a), 'rmail_email_2', 'agent');
        const ended = await putEmail('rmail_email_2', other, { email: 'late@example.test' });
        expect(ended.statusCode).to.equal(409);
        expect(JSON.parse(ended.payload).code).to.equal('livechat.chat_ended');
    });

    it('mails one link in the chat\'s language when the agent ends a chat whose widget was closed; the page takes one rating (source mail), then says it was rated', async () => {
        const token = await acceptedChat(a, 'rmail_es_1', 'es');
        expect((await putEmail('rmail_es_1', token, { email: 'lucia@example.test' })).statusCode).to.equal(200);
        await widgetOpenedThenClosed(token, 'rmail_es_1');
        const before = smtp.received.length;
        await t.server.app.services.livechat.end(org(a), 'rmail_es_1', 'agent');
        await smtp.waitFor(before + 1);
        const mail = smtp.received[before];
        expect(mail.to).to.deep.equal(['lucia@example.test']);
        const [stored, ...more] = await outboxOf('lucia@example.test', 1);
        expect(more).to.have.length(0);
        expect(stored.body_text).to.include('Gracias por chatear con').and.include('El enlace funciona durante 7 días.');
        const link = linkIn(stored.body_text);
        expect(link.url.startsWith(`${t.url}/rate/`)).to.equal(true);
        // The token: signed by this server, scope rate, naming the store and the chat, 7 days.
        const claims = jwt.decode(link.token) as jwt.JwtPayload;
        expect(claims).to.include({ org: org(a), sub: 'rmail_es_1', aud: 'loyalty-chat:link:rate' });
        expect(claims.exp! - claims.iat!).to.equal(7 * 86400);

        // The page: the store, the question in Spanish, 1–5 as labelled radios, the comment; our strict CSP, no script.
        const page = await t.server.inject({ url: link.path });
        expect(page.statusCode).to.equal(200);
        expect(page.headers['content-type']).to.match(/^text\/html/);
        expect(String(page.headers['content-security-policy'])).to.include("script-src 'self'").and.include("style-src 'self'");
        expect(page.headers['cache-control']).to.equal('no-store');
        const store = (await t.server.app.services.tenants.getOrganization(org(a)))!.storeName;
        expect(store).to.be.a('string').and.not.equal('');
        expect(page.payload).to.include('<html lang="es" dir="ltr">').and.include('¿Qué tal fue tu chat?').and.include(`<p class="store">${store}</p>`);
        expect(stored.subject).to.equal(`¿Qué tal fue tu chat con ${store}?`);
        expect(page.payload.match(/type="radio" name="score"/g)).to.have.length(5);
        expect(page.payload).to.include('5 – Muy buena').and.include('name="comment"').and.not.include('<script').and.not.include('style=');

        // No score → the form again (400), in Spanish, with what was written.
        const missing = await form(link.path, 'comment=Muy+amable');
        expect(missing.statusCode).to.equal(400);
        expect(missing.payload).to.include('Elige una puntuación de 1 a 5.').and.include('Muy amable</textarea>');

        const sent = await form(link.path, 'score=4&comment=Muy+amable%2C+gracias');
        expect(sent.statusCode, sent.payload).to.equal(201);
        expect(sent.payload).to.include('¡Gracias!');
        const rated = await agent.box.waitFor((m) => m.type === 'chat_rated' && m.sessionId === 'rmail_es_1');
        expect(rated).to.include({ score: 4, comment: 'Muy amable, gracias', source: 'mail' });
        const row = await db()('chat_ratings as r').join('chat_sessions as s', 's.id', 'r.chat_session_id').where('s.session_id', 'rmail_es_1').first('r.score', 'r.source', 'r.comment');
        expect(row).to.deep.include({ source: 'mail', comment: 'Muy amable, gracias' });
        expect(Number(row.score)).to.equal(4);
        const history = await t.server.inject({ url: '/api/chat/session/rmail_es_1', headers: bearer(a.admin.token) });
        expect((history.result as any).rating).to.include({ score: 4, source: 'mail' });

        // Once: a second send, and the page opened again, say it was rated (409).
        const again = await form(link.path, 'score=1');
        expect(again.statusCode).to.equal(409);
        expect(again.payload).to.include('Este chat ya se ha valorado.');
        expect((await t.server.inject({ url: link.path })).statusCode).to.equal(409);
        expect(await db()('chat_ratings as r').join('chat_sessions as s', 's.id', 'r.chat_session_id').where('s.session_id', 'rmail_es_1').count({ n: '*' }).first())
            .to.satisfy((c: { n: number | string }) => Number(c.n) === 1);
        // Ending it again changes nothing (it ended once).
        expect(await t.server.app.services.livechat.end(org(a), 'rmail_es_1', 'agent')).to.include({ status: 'completed' });
    });

    it('refuses an expired, forged or malformed link with a page that says so (410, 404), in the reader\'s language', async () => {
        const secret = t.server.app.config.jwtSecret;
        const expired = signLinkToken(secret, { scope: 'rate', organizationId: org(a), subject: 'rmail_es_1' }, 7 * 86400, Date.now() - 8 * 86400_000);
        const res = await t.server.inject({ url: `/rate/${expired}`, headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
        expect(res.statusCode).to.equal(410);
        expect(res.payload).to.include('Ce lien a expiré').and.include('<html lang="fr"');
        expect((await form(`/rate/${expired}`, 'score=5')).statusCode).to.equal(410);

        const forged = signLinkToken('another-secret-of-at-least-thirty-two-chars!', { scope: 'rate', organizationId: org(a), subject: 'rmail_es_1' }, 3600);
        const wrongScope = signLinkToken(secret, { scope: 'file', organizationId: org(a), subject: 'rmail_es_1' }, 3600);
        const customer = signCustomerToken(secret, { organizationId: org(a), sessionId: 'rmail_es_1', chatId: 'rmail_es_1' });
        for (const token of [forged, wrongScope, customer, 'not-a-token', 'a.b.c']) {
            const page = await t.server.inject({ url: `/rate/${token}` });
            expect(page.statusCode, token).to.equal(404);
            expect(page.payload).to.include('This link is not valid');
            expect((await form(`/rate/${token}`, 'score=5')).statusCode, token).to.equal(404);
        }
        // Another store's chat id in a valid token: no such chat there.
        const elsewhere = signLinkToken(secret, { scope: 'rate', organizationId: org(b), subject: 'rmail_es_1' }, 3600);
        expect((await t.server.inject({ url: `/rate/${elsewhere}` })).statusCode).to.equal(404);
        expect((await form(`/rate/${elsewhere}`, 'score=5')).statusCode).to.equal(404);
    });

    it('mails nobody when the widget is still connected as the chat ends, or when the customer gave no email; mails when the abandon timer ends it', async () => {
        // Connected at the end: the widget asks itself.
        const connected = await acceptedChat(a, 'rmail_conn_1');
        expect((await putEmail('rmail_conn_1', connected, { email: 'still.here@example.test' })).statusCode).to.equal(200);
        const customer = await connectCustomer(t.url, connected, 'rmail_conn_1', undefined, false);
        clients.push(customer.client);
        await t.server.app.services.livechat.end(org(a), 'rmail_conn_1', 'agent');
        // No email given, widget closed.
        const silent = await acceptedChat(a, 'rmail_none_1');
        await widgetOpenedThenClosed(silent, 'rmail_none_1');
        await t.server.app.services.livechat.end(org(a), 'rmail_none_1', 'agent');
        // Abandoned (what customer-presence's timer calls): the widget is gone, so the link is mailed.
        const gone = await acceptedChat(a, 'rmail_gone_1', 'de');
        expect((await putEmail('rmail_gone_1', gone, { email: 'weg@example.test' })).statusCode).to.equal(200);
        await widgetOpenedThenClosed(gone, 'rmail_gone_1');
        const before = smtp.received.length;
        await t.server.app.services.livechat.end(org(a), 'rmail_gone_1', 'customer', 'customer_abandoned');
        await smtp.waitFor(before + 1);
        expect(smtp.received.slice(before).map((m) => m.to[0])).to.deep.equal(['weg@example.test']);
        const [mail] = await outboxOf('weg@example.test', 1);
        expect(mail.subject).to.match(/^Wie war Ihr Chat mit /);
        // Never a second mail for one chat: the job again (a retry, another node) finds it mailed. Then one more chat
        // mailed: the jobs run in order, so once its mail came, every earlier job is done.
        await t.server.app.jobs.add('livechat.rating-mail', { organizationId: org(a), sessionId: 'rmail_gone_1' });
        const last = await acceptedChat(a, 'rmail_last_1');
        expect((await putEmail('rmail_last_1', last, { email: 'last@example.test' })).statusCode).to.equal(200);
        await widgetOpenedThenClosed(last, 'rmail_last_1');
        await t.server.app.services.livechat.end(org(a), 'rmail_last_1', 'agent');
        await smtp.waitFor(before + 2);
        await t.server.app.jobs.drain();
        expect(smtp.received.slice(before).map((m) => m.to[0])).to.deep.equal(['weg@example.test', 'last@example.test']);
        await outboxOf('last@example.test', 1);
        expect(await outbox('weg@example.test')).to.have.length(1);
        expect(await outbox('still.here@example.test')).to.have.length(0);
        const rows = await db()('chat_sessions').whereIn('session_id', ['rmail_conn_1', 'rmail_none_1']).select('rating_mailed_at');
        expect(rows.map((r: { rating_mailed_at: unknown }) => r.rating_mailed_at)).to.deep.equal([null, null]);
    });

    it('covers the email given in a live chat by the customer\'s export and erasure', async () => {
        const token = await acceptedChat(a, 'rmail_pd_1');
        expect((await putEmail('rmail_pd_1', token, { email: 'private.person@example.test' })).statusCode).to.equal(200);
        const exported = await t.server.inject({ method: 'POST', url: '/api/privacy/customers/export', headers: bearer(a.admin.token), payload: { email: 'Private.Person@example.test' } });
        expect(exported.statusCode, exported.payload).to.equal(200);
        expect(exported.payload).to.include('rmail_pd_1');
        const erased = await t.server.inject({ method: 'POST', url: '/api/privacy/customers/erase', headers: bearer(a.admin.token), payload: { email: 'private.person@example.test', confirm: true } });
        expect(erased.statusCode, erased.payload).to.equal(200);
        expect(await db()('chat_sessions').where({ session_id: 'rmail_pd_1' })).to.have.length(0);
    });
});
