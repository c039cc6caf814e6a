import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';

/** What /widget-{subdomain}.js built into the loader (null when the widget is not built in this run). */
async function servedConfig(server: Server, subdomain: string): Promise<any | null> {
    const script = await server.inject({ url: `/widget-${subdomain}.js`, headers: { host: 'chat.example.com' } });
    const match = script.statusCode === 200 ? /^window\.__loyaltyChatWidget=(\{.*?\});\n/.exec(script.payload) : null;
    return match ? JSON.parse(match[1]) : null;
}

describe('a store\'s languages and its texts per language (GET/PUT /api/widget/languages, look.texts; issue 27)', function () {
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    let b: Tenant;
    const get = (tenant: Tenant) => server.inject({ method: 'GET', url: '/api/widget/languages', headers: bearer(tenant.admin.token) });
    const put = (tenant: Tenant, payload: unknown) => server.inject({
        method: 'PUT', url: '/api/widget/languages', payload: payload as object, headers: bearer(tenant.admin.token)
    });
    const putLook = (tenant: Tenant, payload: unknown) => server.inject({
        method: 'PUT', url: `/api/widget/bots/${tenant.bot.id}/look`, payload: payload as object, headers: bearer(tenant.admin.token)
    });

    before(async () => {
        t = await startTestServer();
        server = t.server;
        a = await createTenant(server, 'langa', 'langa.test');
        b = await createTenant(server, 'langb', 'langb.test');
    });
    after(async () => t?.close());

    it('a new store has every shipped language enabled, English the default, and the widget is told so', async () => {
        const res = await get(a);
        expect(res.statusCode, res.payload).to.equal(200);
        expect(res.result).to.deep.equal({ enabled: ['en', 'es', 'fr', 'pt-BR', 'de', 'ar'], default: 'en', shipped: ['en', 'es', 'fr', 'pt-BR', 'de', 'ar'] });
        const config = await servedConfig(server, 'langa');
        if (config) {
            expect(config.languages).to.deep.equal({ enabled: ['en', 'es', 'fr', 'pt-BR', 'de', 'ar'], default: 'en' });
        }
    });

    it('saves the store\'s choice (only French), serves it to the widget, and leaves another store alone', async () => {
        const res = await put(a, { enabled: ['fr'], default: 'fr' });
        expect(res.statusCode, res.payload).to.equal(200);
        expect((await get(a)).result).to.include({ default: 'fr' }).and.to.have.deep.property('enabled', ['fr']);
        expect((await get(b)).result).to.include({ default: 'en' });
        const config = await servedConfig(server, 'langa');
        if (config) {
            expect(config.languages).to.deep.equal({ enabled: ['fr'], default: 'fr' });
        }
        // The store changes its mind: Spanish and English, Spanish the default.
        const again = await put(a, { enabled: ['es', 'en'], default: 'es' });
        expect(again.result).to.deep.include({ enabled: ['es', 'en'], default: 'es' });
        expect((await server.app.services.tenants.getOrganization(a.organization.id))!.storeName).to.equal('Store langa');
    });

    it('refuses a default that is not enabled, an unknown or repeated language, or none, with 400 and nothing stored', async () => {
        await put(a, { enabled: ['es', 'en'], default: 'es' });
        for (const [payload, message] of [
            [{ enabled: ['en', 'es'], default: 'de' }, '"default" must be one of the enabled languages'],
            [{ enabled: ['en', 'it'], default: 'en' }, '"enabled[1]" must be one of [en, es, fr, pt-BR, de, ar]'],
            [{ enabled: ['en', 'en'], default: 'en' }, '"enabled" names a language twice'],
            [{ enabled: [], default: 'en' }, '"enabled" needs at least one language; "default" must be one of the enabled languages'],
            [{ enabled: ['en'] }, '"default" is required'],
            [{ enabled: 'en', default: 'en' }, '"enabled" must be an array']
        ] as const) {
            const res = await put(a, payload);
            expect(res.statusCode, JSON.stringify(payload)).to.equal(400);
            expect((res.result as any).message).to.equal(message);
        }
        expect((await get(a)).result).to.deep.include({ enabled: ['es', 'en'], default: 'es' });
    });

    it('keeps a title and greeting per language with the look, served to the widget; an unknown language is refused', async () => {
        const res = await putLook(a, {
            title: 'Ayuda', greeting: '¡Hola! ¿Qué buscas hoy?',
            texts: { en: { title: 'Help', greeting: 'Hello! What are you looking for today?' }, ar: { greeting: 'مرحبًا بك!' } }
        });
        expect(res.statusCode, res.payload).to.equal(200);
        expect((res.result as any).look.texts).to.deep.equal({
            en: { title: 'Help', greeting: 'Hello! What are you looking for today?' }, ar: { title: null, greeting: 'مرحبًا بك!' }
        });
        const config = await servedConfig(server, 'langa');
        if (config) {
            expect(config.look.texts.ar).to.deep.equal({ title: null, greeting: 'مرحبًا بك!' });
        }
        const bad = await putLook(a, { texts: { it: { greeting: 'Ciao' } } });
        expect(bad.statusCode).to.equal(400);
        expect((bad.result as any).message).to.match(/"texts" takes the shipped languages/);
        const tooLong = await putLook(a, { texts: { es: { greeting: 'x'.repeat(501) } } });
        expect(tooLong.statusCode).to.equal(400);
        expect((await server.app.services.tenants.getBotInstance(a.bot.id))!.look.texts).to.have.keys('en', 'ar');
    });

    it('questions carry a language: the widget lists the customer\'s language\'s, else the default language\'s', async () => {
        await put(b, { enabled: ['en', 'es', 'de'], default: 'en' });
        const create = (payload: object) => server.inject({ method: 'POST', url: '/api/questions', headers: bearer(b.admin.token), payload });
        const made = await create({ question: '¿Cuál es el horario?', answer: 'De 9 a 20 h.', lang: 'es' });
        expect(made.statusCode, made.payload).to.equal(201);
        expect((made.result as any).lang).to.equal('es');
        const widget = (query: string) => server.inject({ url: `/api/questions${query}`, headers: { 'x-widget-key': b.bot.publicKey } });
        const spanish = await widget('?lang=es');
        expect(spanish.statusCode, spanish.payload).to.equal(200);
        expect((spanish.result as any[]).map((q) => q.question)).to.deep.equal(['¿Cuál es el horario?']);
        // German: the store wrote none in German, so the default language's (its five default questions, no language).
        const german = (await widget('?lang=de')).result as any[];
        expect(german).to.have.length(5);
        expect(german.every((q) => q.lang === null)).to.equal(true);
        expect((await widget('?lang=en')).result as any[]).to.have.length(5);
        // Without a language (an older widget): every active question, as before.
        expect((await widget('')).result as any[]).to.have.length(6);
        const bad = await widget('?lang=it');
        expect(bad.statusCode).to.equal(400);
        expect((bad.result as any).message).to.equal('"lang" must be one of en, es, fr, pt-BR, de, ar');
        const badCreate = await create({ question: 'Orari?', answer: 'Dalle 9.', lang: 'it' });
        expect(badCreate.statusCode).to.equal(400);
        expect((badCreate.result as any).message).to.match(/^"lang" must be one of en, es, fr, pt-BR, de, ar, or null/);
        // Back to the default language: null.
        const id = (made.result as any).id;
        const moved = await server.inject({ method: 'PUT', url: `/api/questions/${id}`, headers: bearer(b.admin.token), payload: { lang: null } });
        expect((moved.result as any).lang).to.equal(null);
        expect((await widget('?lang=es')).result as any[]).to.have.length(6);
    });
});
