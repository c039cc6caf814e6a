import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import pino from 'pino';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { importCustomers, lastCode } from '../helpers/loyalty';
import { signCustomerToken } from '../../core/auth/customer-token';

const PHONE_A = '+15555550100';
const PHONE_B = '+15555550101';

/**
 * The customer's credential (issue 25, fix 3; DESIGN §10): tier-2 data (points, orders, recommendations) needs a
 * secret the customer's widget holds, the one customer token, upgraded by a successful SMS code check to name the
 * verified phone for CUSTOMER_VERIFIED_MINUTES. A widget session id alone, which anyone with the public key may
 * send, reads nothing.
 */
describe('the customer token: tier-2 data only with the token the code check gave', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    let logFile: string;
    /** Every token the server answered, to look for in the log. */
    const issued: string[] = [];

    const widget = (tenant: Tenant, token?: string | null) => ({ 'x-widget-key': tenant.bot.publicKey, ...(token ? bearer(token) : {}) });
    /** Proves a phone in a widget session as the widget does; answers the view call's body (points, token). */
    async function verify(tenant: Tenant, sessionId: string, phone: string, token?: string | null): Promise<{ points: number; token: string }> {
        const sent = await server.inject({ method: 'POST', url: '/api/loyalty/verify', headers: widget(tenant), payload: { identifier: phone, sessionId } });
        expect(sent.statusCode, sent.payload).to.equal(200);
        const code = await lastCode(server, phone);
        const view = await server.inject({ method: 'POST', url: '/api/loyalty/view', headers: widget(tenant, token), payload: { identifier: phone, code, sessionId } });
        expect(view.statusCode, view.payload).to.equal(200);
        const body = JSON.parse(view.payload);
        issued.push(body.token);
        return body;
    }
    const ask = async (tenant: Tenant, sessionId: string, token?: string | null, message = 'How many points do I have?') => {
        const res = await server.inject({ method: 'POST', url: '/api/ai/chat', headers: widget(tenant, token), payload: { sessionId, message } });
        expect(res.statusCode, res.payload).to.equal(200);
        return JSON.parse(res.payload) as { answer: string; fallbackAction: string | null };
    };
    const claims = (token: string) => jwt.decode(token) as Record<string, unknown>;

    before(async () => {
        logFile = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-token-')), 'server.log');
        t = await startTestServer({ env: { LOG_LEVEL: 'debug' }, logger: pino({ level: 'debug' }, pino.destination({ dest: logFile, sync: true })) });
        server = t.server;
        a = await createTenant(server, 'tokena');
        b = await createTenant(server, 'tokenb');
        await importCustomers(server, a.organization.id, [
            [PHONE_A, 'Ada Lovelace', 'ada@example.com', 'L-100', 1250],
            [PHONE_B, 'Bob Other', 'bob@example.com', 'L-101', 777]
        ]);
        await importCustomers(server, b.organization.id, [[PHONE_A, 'Ada at B', 'ada@b.example.com', 'B-100', 5]]);
    });
    after(async () => {
        await t?.close();
        Fs.rmSync(Path.dirname(logFile), { recursive: true, force: true });
    });

    it('answers, on a good code, a token naming the verified phone for 30 minutes; tier-2 answers with it, and a second client with the same key and session id but no token gets verify_phone', async () => {
        const before = Date.now();
        const view = await verify(a, 'widget_1_tokA1', PHONE_A);
        expect(view.points).to.equal(1250);
        expect(view.token).to.be.a('string');
        const c = claims(view.token);
        expect(c).to.include({ org: a.organization.id, sid: 'widget_1_tokA1', ph: PHONE_A, aud: 'loyalty-chat:customer' });
        expect(Number(c.pvu) * 1000).to.be.within(before + 30 * 60_000 - 2000, Date.now() + 30 * 60_000 + 2000);
        expect(Number(c.exp) - Number(c.iat), 'the token itself keeps its 4 h').to.equal(4 * 3600);

        expect((await ask(a, 'widget_1_tokA1', view.token)).answer).to.equal('You have 1,250 points.');
        const stranger = await ask(a, 'widget_1_tokA1');
        expect(stranger.fallbackAction).to.equal('verify_phone');
        expect(stranger.answer).to.not.contain('1,250');
        const orders = await ask(a, 'widget_1_tokA1', null, 'What were my last orders?');
        expect(orders.fallbackAction).to.equal('verify_phone');
    });

    it('gives verify_phone for a token whose phone claim is older than the window, and for a broken token (never a 401)', async () => {
        const secret = t.config.jwtSecret;
        const stale = signCustomerToken(secret, { organizationId: a.organization.id, sessionId: 'widget_1_tokA2', phone: { number: PHONE_A, until: Date.now() - 1000 } });
        expect((await ask(a, 'widget_1_tokA2', stale)).fallbackAction).to.equal('verify_phone');
        const fresh = signCustomerToken(secret, { organizationId: a.organization.id, sessionId: 'widget_1_tokA2', phone: { number: PHONE_A, until: Date.now() + 60_000 } });
        expect((await ask(a, 'widget_1_tokA2', fresh)).answer).to.equal('You have 1,250 points.');
        const forged = jwt.sign({ org: a.organization.id, sid: 'widget_1_tokA2', ph: PHONE_A, pvu: Math.floor(Date.now() / 1000) + 600 }, 'not-the-server-secret-at-all-0123456789',
            { algorithm: 'HS256', issuer: 'loyalty-chat', audience: 'loyalty-chat:customer', expiresIn: 600 });
        for (const token of [forged, 'not.a.token', a.admin.token]) {
            const res = await ask(a, 'widget_1_tokA2', token);
            expect(res.fallbackAction, token.slice(0, 12)).to.equal('verify_phone');
        }
    });

    it('reads nothing with a token of another store or another session', async () => {
        const ofB = await verify(b, 'widget_1_tokX', PHONE_A);
        const asB = await ask(a, 'widget_1_tokX', ofB.token);
        expect(asB.fallbackAction).to.equal('verify_phone');
        expect(asB.answer).to.not.match(/points\./);
        const ofA = await verify(a, 'widget_1_tokA3', PHONE_A);
        const otherSession = await ask(a, 'widget_1_tokA4', ofA.token);
        expect(otherSession.fallbackAction).to.equal('verify_phone');
        expect(otherSession.answer).to.not.contain('1,250');
    });

    it('does not change what session A\'s token reads when phone B is verified in a second session, or later in the same one', async () => {
        const first = await verify(a, 'widget_1_tokS1', PHONE_A);
        const second = await verify(a, 'widget_1_tokS2', PHONE_B);
        expect((await ask(a, 'widget_1_tokS1', first.token)).answer).to.equal('You have 1,250 points.');
        expect((await ask(a, 'widget_1_tokS2', second.token)).answer).to.equal('You have 777 points.');
        // The same session proves phone B: a new token names B; the earlier one still names A, nothing else.
        const again = await verify(a, 'widget_1_tokS1', PHONE_B, first.token);
        expect(claims(again.token)).to.include({ sid: 'widget_1_tokS1', ph: PHONE_B });
        expect((await ask(a, 'widget_1_tokS1', again.token)).answer).to.equal('You have 777 points.');
        expect((await ask(a, 'widget_1_tokS1', first.token)).answer).to.equal('You have 1,250 points.');
    });

    it('keeps one token: create-session given the session\'s token renews it with its phone claim, and the chat takes it', async () => {
        const view = await verify(a, 'widget_1_tokL1', PHONE_A);
        const created = await server.inject({
            method: 'POST', url: '/api/chat/create-session', headers: widget(a, view.token),
            payload: { sessionId: 'widget_1_tokL1', phoneNumber: PHONE_A, customerMessage: 'Hello' }
        });
        expect(created.statusCode, created.payload).to.equal(201);
        const renewed = (created.result as { token: string }).token;
        const c = claims(renewed);
        expect(c).to.include({ org: a.organization.id, sid: 'widget_1_tokL1', chat: 'widget_1_tokL1', ph: PHONE_A, pvu: claims(view.token).pvu });
        expect((await ask(a, 'widget_1_tokL1', renewed)).answer).to.equal('You have 1,250 points.');
        const chat = await server.inject({ method: 'GET', url: '/api/chat/session/widget_1_tokL1/messages', headers: bearer(renewed) });
        expect(chat.statusCode, chat.payload).to.equal(200);

        // Without the token (or with another session's), create-session answers a token without a phone.
        const bare = await server.inject({ method: 'POST', url: '/api/chat/create-session', headers: widget(a), payload: { sessionId: 'widget_1_tokL1', customerMessage: 'Hi' } });
        expect(claims((bare.result as { token: string }).token).ph).to.equal(undefined);
        const other = await server.inject({ method: 'POST', url: '/api/chat/create-session', headers: widget(a, view.token), payload: { sessionId: 'widget_1_tokL2', customerMessage: 'Hi' } });
        expect(other.statusCode).to.equal(201);
        expect(claims((other.result as { token: string }).token)).to.include({ sid: 'widget_1_tokL2' }).and.not.have.property('ph');
    });

    it('keeps tokens out of the log and out of the stored AI history, which holds the phone the token named', async () => {
        const view = await verify(a, 'widget_1_tokH1', PHONE_B);
        await ask(a, 'widget_1_tokH1', view.token);
        const [record] = await server.app.services.ai.history(a.organization.id, { limit: 1, sessionId: 'widget_1_tokH1' });
        expect(record.phoneNumber).to.equal(PHONE_B);
        const stranger = await ask(a, 'widget_1_tokH1');
        expect(stranger.fallbackAction).to.equal('verify_phone');
        const [second] = await server.app.services.ai.history(a.organization.id, { limit: 1, sessionId: 'widget_1_tokH1' });
        expect(second.phoneNumber, 'no phone for the tokenless question').to.equal(null);
        const log = Fs.readFileSync(logFile, 'utf8');
        expect(log).to.contain('/api/loyalty/view');
        expect(issued.length).to.be.greaterThan(5);
        for (const token of issued) {
            expect(log).not.to.contain(token);
            expect(log).not.to.contain(token.split('.')[1]);
        }
        expect(log).not.to.contain('5555550100').and.not.to.contain('5555550101');
    });

    it('refuses CUSTOMER_VERIFIED_MINUTES outside its range at start, naming the variable', async () => {
        const { loadConfig } = await import('../../config');
        expect(() => loadConfig({ CUSTOMER_VERIFIED_MINUTES: '0', JWT_SECRET: t.config.jwtSecret })).to.throw(/CUSTOMER_VERIFIED_MINUTES/);
        expect(() => loadConfig({ CUSTOMER_VERIFIED_MINUTES: '241', JWT_SECRET: t.config.jwtSecret })).to.throw(/CUSTOMER_VERIFIED_MINUTES/);
        expect(loadConfig({ JWT_SECRET: t.config.jwtSecret, DATA_DIR: t.config.dataDir }).customerVerifiedMinutes).to.equal(30);
    });
});

describe('the customer token with a short CUSTOMER_VERIFIED_MINUTES', function () {
    this.timeout(30000);
    let t: TestServer;
    let a: Tenant;

    before(async () => {
        t = await startTestServer({ env: { CUSTOMER_VERIFIED_MINUTES: '0.001' } });
        a = await createTenant(t.server, 'tokenshort');
        await importCustomers(t.server, a.organization.id, [[PHONE_A, 'Ada Lovelace', 'ada@example.com', 'L-100', 1250]]);
    });
    after(async () => {
        await t?.close();
    });

    it('stops reading the phone once the window after the code check has passed', async () => {
        const headers = { 'x-widget-key': a.bot.publicKey };
        await t.server.inject({ method: 'POST', url: '/api/loyalty/verify', headers, payload: { identifier: PHONE_A, sessionId: 'widget_1_short' } });
        const view = await t.server.inject({ method: 'POST', url: '/api/loyalty/view', headers, payload: { identifier: PHONE_A, code: await lastCode(t.server, PHONE_A), sessionId: 'widget_1_short' } });
        const token = JSON.parse(view.payload).token as string;
        await new Promise((resolve) => setTimeout(resolve, 100));
        const res = await t.server.inject({ method: 'POST', url: '/api/ai/chat', headers: { ...headers, ...bearer(token) }, payload: { sessionId: 'widget_1_short', message: 'How many points do I have?' } });
        expect(JSON.parse(res.payload).fallbackAction).to.equal('verify_phone');
    });
});
