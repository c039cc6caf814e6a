import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { signCustomerToken } from '../../core/auth/customer-token';
import { DEMO_KNOWLEDGE } from '../../plugins/ai/demo-data';
import { MESSAGES_PER_MINUTE } from '../../plugins/conversation';

/**
 * POST /api/widget/message (issue 23): the widget's one decision about a typed message, with the store's knowledge
 * (the AI plugin's retrieval and confidence), quick questions and country; joi on every field, a clear 4xx.
 */
describe('the widget\'s message decision route (issue 23)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    const origin = 'https://conv.localtest';
    const decide = (payload: object, headers: Record<string, string> = {}, remoteAddress = '10.31.0.1') => server.inject({
        method: 'POST', url: '/api/widget/message', payload, headers: { 'x-widget-key': a.bot.publicKey, origin, ...headers }, remoteAddress
    });
    const kindOf = async (step: string, text: string, lang = 'en') => {
        const res = await decide({ sessionId: 'widget_c_1', step, text, lang });
        expect(res.statusCode, res.payload).to.equal(200);
        return res.result as { kind: string; phone?: string; knowledge?: { title: string }; leave: boolean; questionId?: number };
    };

    before(async () => {
        t = await startTestServer({ env: { AI_MEANINGS: 'on' } });
        server = t.server;
        a = await createTenant(server, 'conv', 'conv.localtest');
        for (const entry of DEMO_KNOWLEDGE) {
            await server.app.services.ai.createKnowledge(a.organization.id, entry);
        }
    });
    after(async () => t?.close());

    it('lets the store\'s knowledge win over keywords, and finds a phone in a sentence', async () => {
        const expire = await kindOf('identifier', 'when do my points expire');
        expect(expire).to.include({ kind: 'question', leave: false });
        expect(expire.knowledge?.title).to.equal('Points expiration');
        expect(await kindOf('questions', 'when do my points expire')).to.include({ kind: 'question' });
        expect(await kindOf('questions', 'points')).to.include({ kind: 'question' });
        expect(await kindOf('questions', 'how many points do I have')).to.include({ kind: 'points' });
        expect(await kindOf('identifier', 'my number is 555-555-0100, how many points?')).to.include({ kind: 'phone', phone: '+15555550100' });
        expect(await kindOf('identifier', 'never mind, what are your store hours')).to.include({ kind: 'question', leave: true });
        expect(await kindOf('code', "I didn't get a code")).to.include({ kind: 'resend' });
        expect(await kindOf('questions', 'What are your store hours?')).to.include({ kind: 'question', questionId: (await server.app.services.questions.list(a.organization.id)).find((q) => q.question === 'What are your store hours?')!.id });
        expect(await kindOf('code', 'no me llegó el código', 'es')).to.include({ kind: 'resend' });
    });

    it('reads national numbers in the store\'s country', async () => {
        expect(await kindOf('identifier', 'es el 612 34 56 78')).to.include({ kind: 'garbage' });
        const res = await server.inject({ method: 'PATCH', url: `/api/super-admin/organizations/${a.organization.id}`, payload: { country: 'es' },
            headers: { authorization: `Bearer ${await superAdminToken(server)}` } });
        expect(res.statusCode, res.payload).to.equal(200);
        expect((res.result as { country: string }).country).to.equal('ES');
        expect(await kindOf('identifier', 'es el 612 34 56 78', 'es')).to.include({ kind: 'phone', phone: '+34612345678' });
        const bad = await server.inject({ method: 'PATCH', url: `/api/super-admin/organizations/${a.organization.id}`, payload: { country: 'XX' },
            headers: { authorization: `Bearer ${await superAdminToken(server)}` } });
        expect(bad.statusCode).to.equal(400);
        expect(JSON.parse(bad.payload).message).to.equal('"country" must be a country code such as US, ES or GB');
        await server.app.services.tenants.updateOrganization(a.organization.id, { country: 'US' });
    });

    it('without the AI agent, decides from the words alone', async () => {
        await server.app.services.ai.setEnabled(a.organization.id, false);
        try {
            const expire = await kindOf('identifier', 'when do my points expire');
            expect(expire).to.include({ kind: 'question' });
            expect(expire.knowledge).to.equal(undefined);
        }
        finally {
            await server.app.services.ai.setEnabled(a.organization.id, true);
        }
    });

    it('takes the customer token header like every widget call', async () => {
        const token = signCustomerToken(server.app.config.jwtSecret, { organizationId: a.organization.id, sessionId: 'widget_c_1' });
        const res = await decide({ sessionId: 'widget_c_1', step: 'code', text: '123 456' }, { authorization: `Bearer ${token}` });
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.deep.include({ kind: 'code', code: '123456' });
    });

    it('answers a clear 400 for every malformed field, and 401 without the widget key', async () => {
        const cases: Array<[object, RegExp]> = [
            [{ step: 'questions', text: 'hi' }, /"sessionId" is required/],
            [{ sessionId: 'widget_c_1', text: 'hi' }, /"step" is required/],
            [{ sessionId: 'widget_c_1', step: 'live_chat', text: 'hi' }, /"step" must be one of/],
            [{ sessionId: 'widget_c_1', step: 'questions', text: '   ' }, /"text" must not be empty/],
            [{ sessionId: 'widget_c_1', step: 'questions', text: 'x'.repeat(2001) }, /"text" must be at most 2000 characters/],
            [{ sessionId: 'widget_c_1', step: 'questions', text: 'hi', lang: 'english please' }, /"lang" must be a language tag/],
            [{ sessionId: 'bad id!', step: 'questions', text: 'hi' }, /"sessionId" must be 1 to 100 letters/],
            [{ sessionId: 'widget_c_1', step: 'questions', text: 'hi', extra: 1 }, /"extra" is not allowed/]
        ];
        for (const [payload, message] of cases) {
            const res = await decide(payload);
            expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
            expect(JSON.parse(res.payload).message).to.match(message);
        }
        const bare = await server.inject({ method: 'POST', url: '/api/widget/message', payload: { sessionId: 'widget_c_1', step: 'questions', text: 'hi' } });
        expect(bare.statusCode).to.equal(401);
    });

    it('limits a session to a number of messages a minute, with a code the widget shows in the customer\'s language', async () => {
        let last = 0;
        let body: { code?: string } = {};
        for (let i = 0; i <= MESSAGES_PER_MINUTE; i++) {
            const res = await decide({ sessionId: 'widget_c_flood', step: 'questions', text: 'hi' }, {}, '10.31.0.9');
            last = res.statusCode;
            body = JSON.parse(res.payload);
        }
        expect(last).to.equal(429);
        expect(body.code).to.equal('conversation.too_fast');
    });

    it('says a malformed phone once, not once per broken rule (one error line)', async () => {
        const res = await server.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { identifier: 'never mind what are your store hours' },
            headers: { 'x-widget-key': a.bot.publicKey, origin } });
        expect(res.statusCode).to.equal(400);
        expect(JSON.parse(res.payload).message).to.equal('Please enter a valid phone number');
    });
});

async function superAdminToken(server: Server): Promise<string> {
    const users = server.app.services.users;
    const existing = (await users.list()).find((u) => u.role === 'super_admin');
    const user = existing ?? await users.create({ email: 'root@conv.test', password: 'correct-horse-battery', role: 'super_admin', organizationId: null });
    const { signUserToken } = await import('../../core/auth/tokens');
    return signUserToken(server.app.config.jwtSecret, { id: user.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
}
