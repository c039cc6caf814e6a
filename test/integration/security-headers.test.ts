import { expect } from 'chai';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { createSession } from '../helpers/livechat-client';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string[]> {
    expect(header, 'a Content-Security-Policy header').to.be.a('string');
    const map = new Map<string, string[]>();
    for (const part of String(header).split(';')) {
        const [name, ...values] = part.trim().split(/\s+/);
        if (name) {
            map.set(name, values);
        }
    }
    return map;
}

function expectStrictPolicy(header: unknown, host: string): Map<string, string[]> {
    const csp = directives(header);
    expect(csp.get('default-src')).to.deep.equal(["'self'"]);
    expect(csp.get('script-src')).to.deep.equal(["'self'"]);
    expect(csp.get('style-src')).to.deep.equal(["'self'"]);
    // Chat files' thumbnails (issue 29): from our own origin, and a picked file's local preview (blob:).
    expect(csp.get('img-src')).to.deep.equal(["'self'", 'data:', 'blob:']);
    expect(csp.get('connect-src')).to.deep.equal(["'self'", `ws://${host}`, `wss://${host}`]);
    expect(csp.get('frame-ancestors')).to.deep.equal(["'none'"]);
    expect(csp.get('base-uri')).to.deep.equal(["'none'"]);
    expect(csp.get('object-src')).to.deep.equal(["'none'"]);
    expect(csp.get('form-action')).to.deep.equal(["'self'"]);
    expect(String(header)).to.not.match(/unsafe-inline|unsafe-eval|\*/);
    return csp;
}

describe('security headers and CORS', function () {
    this.timeout(20000);

    describe('over plain http (no PUBLIC_URL)', () => {
        let t: TestServer;
        let alpha: Tenant;

        before(async () => {
            t = await startTestServer();
            alpha = await createTenant(t.server, 'alpha', 'alpha.test');
        });
        after(async () => {
            await t?.close();
        });

        it('sends a strict Content-Security-Policy with the admin app at /admin-login and on its other pages', async () => {
            for (const url of ['/admin-login', '/admin-chat', '/super-admin-login', '/no-such-page']) {
                const res = await t.server.inject({ url, headers: { host: 'chat.local:3000' } });
                expect(res.headers['content-type'], url).to.match(/^text\/html/);
                expectStrictPolicy(res.headers['content-security-policy'], 'chat.local:3000');
            }
        });

        it('sends the strict policy with the demo storefront at / and /demo, whose page has no inline style or script', async () => {
            for (const url of ['/', '/demo']) {
                const res = await t.server.inject({ url, headers: { host: 'chat.local:3000' } });
                expect(res.statusCode).to.equal(200);
                expectStrictPolicy(res.headers['content-security-policy'], 'chat.local:3000');
                expect(res.payload, 'no <style> element').to.not.match(/<style/i);
                expect(res.payload, 'no style attribute').to.not.match(/\sstyle=/i);
                const scripts = res.payload.match(/<script[^>]*>[\s\S]*?<\/script>/gi) ?? [];
                expect(scripts).to.have.length(1);
                expect(scripts[0]).to.equal('<script src="/widget-demo.js" async></script>');
                expect(res.payload).to.contain('<link rel="stylesheet" href="/storefront.css">');
            }
            const css = await t.server.inject('/storefront.css');
            expect(css.statusCode).to.equal(200);
            expect(css.headers['content-type']).to.match(/^text\/css/);
            expect(css.payload).to.contain('.cards{display:grid');
        });

        it('leaves a Host header that could break the policy out of it', async () => {
            const res = await t.server.inject({ url: '/admin-login', headers: { host: "evil.test; script-src 'unsafe-inline'" } });
            const csp = directives(res.headers['content-security-policy']);
            expect(csp.get('script-src')).to.deep.equal(["'self'"]);
            expect(csp.get('connect-src')).to.deep.equal(["'self'"]);
        });

        it('sends no Strict-Transport-Security over http', async () => {
            for (const url of ['/', '/admin-login', '/health', '/api/questions', '/widget-alpha.js']) {
                const res = await t.server.inject({ url, headers: { 'x-widget-key': alpha.bot.publicKey } });
                expect(res.headers, url).to.not.have.property('strict-transport-security');
                expect(res.headers['x-content-type-options'], url).to.equal('nosniff');
            }
        });

        describe('CORS of the customer-token calls', () => {
            let session: { sessionId: string; token: string };
            const messages = async () => (await t.server.app.db('chat_messages')
                .join('chat_sessions', 'chat_sessions.id', 'chat_messages.chat_session_id')
                .where('chat_sessions.session_id', session.sessionId)
                .select('chat_messages.message')).map((m: { message: string }) => m.message);
            const send = (origin: string, message: string) => t.server.inject({
                method: 'POST',
                url: `/api/chat/session/${session.sessionId}/messages`,
                headers: { authorization: `Bearer ${session.token}`, origin },
                payload: { message }
            });

            before(async () => {
                session = await createSession(t.server, alpha, 'cors_sess_1', 'Hello there');
            });

            it('answers a customer-token call from a registered domain of the store with its origin', async () => {
                const res = await send('https://shop.alpha.test', 'From the store page');
                expect(res.statusCode, res.payload).to.equal(201);
                expect(res.headers['access-control-allow-origin']).to.equal('https://shop.alpha.test');
                expect(String(res.headers.vary)).to.match(/origin/i);
                expect(res.headers).to.not.have.property('access-control-allow-credentials');
                expect(await messages()).to.include('From the store page');
            });

            it('refuses a customer-token call from another origin with 403, no Access-Control-Allow-Origin, and stores nothing', async () => {
                for (const origin of ['https://evil.test', 'https://alpha.test.evil.test', 'null']) {
                    const res = await send(origin, `From ${origin}`);
                    expect(res.statusCode, origin).to.equal(403);
                    expect(JSON.parse(res.payload).message).to.contain('is not a registered domain of this store');
                    expect(res.headers, origin).to.not.have.property('access-control-allow-origin');
                    expect(String(res.headers.vary)).to.match(/origin/i);
                }
                const end = await t.server.inject({
                    method: 'POST', url: `/api/chat/session/${session.sessionId}/end`,
                    headers: { authorization: `Bearer ${session.token}`, origin: 'https://evil.test' }, payload: { reason: 'customer_left' }
                });
                expect(end.statusCode).to.equal(403);
                expect(end.headers).to.not.have.property('access-control-allow-origin');
                expect(await messages()).to.not.include('From https://evil.test');
                const row = await t.server.app.db('chat_sessions').where({ session_id: session.sessionId }).first();
                expect(row.status, 'the other origin did not end the chat').to.equal('waiting');
            });

            it('still serves a customer-token call without Origin (not a browser)', async () => {
                const res = await t.server.inject({
                    method: 'POST', url: `/api/chat/session/${session.sessionId}/messages`,
                    headers: { authorization: `Bearer ${session.token}` }, payload: { message: 'No origin' }
                });
                expect(res.statusCode).to.equal(201);
                expect(res.headers).to.not.have.property('access-control-allow-origin');
            });

            it('treats widget-key calls the same way: the registered origin gets it, another origin a 403 without it', async () => {
                const ok = await t.server.inject({ url: '/api/questions', headers: { 'x-widget-key': alpha.bot.publicKey, origin: 'https://alpha.test' } });
                expect(ok.statusCode).to.equal(200);
                expect(ok.headers['access-control-allow-origin']).to.equal('https://alpha.test');
                const refused = await t.server.inject({ url: '/api/questions', headers: { 'x-widget-key': alpha.bot.publicKey, origin: 'https://evil.test' } });
                expect(refused.statusCode).to.equal(403);
                expect(refused.headers).to.not.have.property('access-control-allow-origin');
            });

            it('answers the preflight from any origin without allowing credentials', async () => {
                for (const origin of ['https://alpha.test', 'https://evil.test']) {
                    const res = await t.server.inject({
                        method: 'OPTIONS', url: `/api/chat/session/${session.sessionId}/messages`,
                        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' }
                    });
                    expect(res.statusCode).to.equal(204);
                    expect(res.headers['access-control-allow-origin']).to.equal(origin);
                    expect(res.headers).to.not.have.property('access-control-allow-credentials');
                }
            });
        });
    });

    describe('with an https PUBLIC_URL', () => {
        let t: TestServer;

        before(async () => {
            t = await startTestServer({ env: { PUBLIC_URL: 'https://chat.example.com' } });
        });
        after(async () => {
            await t?.close();
        });

        it('sends Strict-Transport-Security for a year on every answer', async () => {
            for (const url of ['/', '/admin-login', '/health', '/api/questions']) {
                const res = await t.server.inject(url);
                expect(res.headers['strict-transport-security'], url).to.equal('max-age=31536000; includeSubDomains');
            }
        });

        it('lets the pages reach PUBLIC_URL and its wss:// socket when served under another host name', async () => {
            const res = await t.server.inject({ url: '/', headers: { host: '10.0.0.5:3000' } });
            const csp = directives(res.headers['content-security-policy']);
            expect(csp.get('script-src')).to.deep.equal(["'self'", 'https://chat.example.com']);
            expect(csp.get('connect-src')).to.deep.equal(["'self'", 'https://chat.example.com',
                'ws://10.0.0.5:3000', 'wss://10.0.0.5:3000', 'ws://chat.example.com', 'wss://chat.example.com']);
            expect(csp.get('style-src')).to.deep.equal(["'self'"]);
        });
    });

    describe('with an http PUBLIC_URL', () => {
        let t: TestServer;

        before(async () => {
            t = await startTestServer({ env: { PUBLIC_URL: 'http://chat.example.com' } });
        });
        after(async () => {
            await t?.close();
        });

        it('sends no Strict-Transport-Security', async () => {
            const res = await t.server.inject('/admin-login');
            expect(res.headers).to.not.have.property('strict-transport-security');
        });
    });
});
