import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connectAgent, NesClient, setAvailable } from '../helpers/livechat-client';
import { aiText } from '../../plugins/ai/texts';

interface Answer {
    answer: string;
    code?: string;
    fallbackAction: string | null;
    suggestions?: Array<{ key: string; title: string }>;
    sources: Array<{ id: number; title: string; kind: string }>;
}

/**
 * The AI agent in the customer's language (issue 27): knowledge entries carry a language, the agent answers from the
 * customer's language's entries first and falls back to the store's default language's, and its own replies (not
 * knowing, offering a person or a message, the phone check) come from plugins/ai/locales in the customer's language.
 */
describe('the AI agent in the customer\'s language (issue 27)', function () {
    this.timeout(30000);
    let t: TestServer;
    let server: Server;
    let a: Tenant;
    const clients: NesClient[] = [];
    const admin = () => bearer(a.admin.token);
    const ask = async (sessionId: string, message: string, lang?: string): Promise<Answer> => {
        const res = await server.inject({
            method: 'POST', url: '/api/ai/chat', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId, message, ...(lang ? { lang } : {}) }
        });
        expect(res.statusCode, res.payload).to.equal(200);
        return JSON.parse(res.payload) as Answer;
    };

    before(async () => {
        t = await startTestServer({ listen: true, env: { AI_MEANINGS: 'on' } });
        server = t.server;
        a = await createTenant(server, 'ailang');
        const create = async (payload: Record<string, unknown>) => {
            const res = await server.inject({ method: 'POST', url: '/api/ai/knowledge', headers: admin(), payload });
            expect(res.statusCode, res.payload).to.equal(201);
            return JSON.parse(res.payload) as { id: number; lang: string | null };
        };
        // The store's default language is English: an entry without a language is English.
        await create({ title: 'Shipping times', content: 'We ship every order within 3 to 5 business days; shipping is free over $50.' });
        await create({ title: 'Opening hours', content: 'Our stores are open Monday to Saturday from 9 am to 8 pm.' });
        await create({ title: 'Plazos de envío', content: 'Enviamos cada pedido en un plazo de 3 a 5 días hábiles; el envío es gratis a partir de 50 $.', lang: 'es' });
    });
    after(async () => {
        for (const c of clients) {
            await c.disconnect();
        }
        await t?.close();
    });

    it('stores an entry\'s language (null: the store\'s default), refuses one that is not shipped, and edits it', async () => {
        const list = JSON.parse((await server.inject({ url: '/api/ai/knowledge', headers: admin() })).payload) as Array<{ id: number; title: string; lang: string | null }>;
        expect(list.find((e) => e.title === 'Plazos de envío')?.lang).to.equal('es');
        expect(list.find((e) => e.title === 'Shipping times')?.lang).to.equal(null);

        const bad = await server.inject({ method: 'POST', url: '/api/ai/knowledge', headers: admin(), payload: { title: 'X', content: 'Y', lang: 'xx' } });
        expect(bad.statusCode).to.equal(400);
        expect(JSON.parse(bad.payload).message).to.match(/"lang" must be one of en, es, fr, pt-BR, de, ar/);
        const after = JSON.parse((await server.inject({ url: '/api/ai/knowledge', headers: admin() })).payload) as unknown[];
        expect(after).to.have.length(list.length);

        const created = JSON.parse((await server.inject({ method: 'POST', url: '/api/ai/knowledge', headers: admin(), payload: { title: 'Cadeaux', content: 'Emballage cadeau offert.', lang: 'fr', isActive: false } })).payload) as { id: number; lang: string };
        expect(created.lang).to.equal('fr');
        const edited = await server.inject({ method: 'PUT', url: `/api/ai/knowledge/${created.id}`, headers: admin(), payload: { lang: null } });
        expect(edited.statusCode).to.equal(200);
        expect(JSON.parse(edited.payload).lang).to.equal(null);
        const badEdit = await server.inject({ method: 'PUT', url: `/api/ai/knowledge/${created.id}`, headers: admin(), payload: { lang: 'klingon' } });
        expect(badEdit.statusCode).to.equal(400);
        expect((await server.inject({ method: 'DELETE', url: `/api/ai/knowledge/${created.id}`, headers: admin() })).statusCode).to.equal(204);

        const badChat = await server.inject({ method: 'POST', url: '/api/ai/chat', headers: { 'x-widget-key': a.bot.publicKey }, payload: { sessionId: 'widget_lang_bad', message: 'hi', lang: 'not a tag!' } });
        expect(badChat.statusCode).to.equal(400);
        expect(JSON.parse(badChat.payload).message).to.match(/"lang" must be a language tag/);
    });

    it('answers a Spanish customer from the Spanish entry, and an English one from the English entry', async () => {
        const es = await ask('widget_lang_es', '¿Cuánto tarda el envío de mi pedido?', 'es');
        expect(es.fallbackAction).to.equal(null);
        expect(es.sources.map((s) => s.title)).to.deep.equal(['Plazos de envío']);
        expect(es.answer).to.match(/^Enviamos cada pedido/);

        const en = await ask('widget_lang_en', 'How many days until my order ships?', 'en');
        expect(en.sources.map((s) => s.title)).to.deep.equal(['Shipping times']);
        // The same English question from a Spanish-speaking widget finds nothing Spanish and gets the default language's entry.
        const mixed = await ask('widget_lang_es2', 'How many days until my order ships?', 'es-MX');
        expect(mixed.sources.map((s) => s.title)).to.deep.equal(['Shipping times']);
    });

    it('gives a French customer the default language\'s entry when the store wrote none in French, and its own texts in French', async () => {
        const fr = await ask('widget_lang_fr', 'What are your opening hours?', 'fr');
        expect(fr.fallbackAction).to.equal(null);
        // The store's entry or its pre-made question of the same meaning (both English, both the store's own texts).
        expect(fr.sources.map((s) => s.title).join(' | ')).to.be.oneOf(['Opening hours', 'What are your store hours?']);
        // Nothing about it anywhere: the agent's own reply, in French.
        const unknown = await ask('widget_lang_fr', 'Vendez-vous des cartes-cadeaux ?', 'fr');
        expect(unknown.fallbackAction).to.equal('leave_message');
        // Nothing close enough to suggest either: the form is all there is below, and the text says only that.
        expect(unknown.suggestions ?? []).to.deep.equal([]);
        expect(unknown.answer).to.equal(aiText('fr', 'offerMessageAlone')).and.match(/^Je ne suis pas sûr/).and.not.match(/questions/);
    });

    it('writes the agent\'s own replies in Arabic for an Arabic customer: not knowing, offering a person, the phone check', async () => {
        const noAgent = await ask('widget_lang_ar', 'هل تبيعون بطاقات الهدايا؟', 'ar');
        expect(noAgent).to.include({ fallbackAction: 'leave_message', code: 'ai.offer_message' });
        expect(noAgent.answer).to.equal('لست متأكدًا من ذلك، ولا يتوفر أحد من فريقنا الآن. اترك لنا رسالة أدناه وسنرد عليك عبر البريد الإلكتروني.');

        const agent = await connectAgent(t.url, a);
        clients.push(agent.client);
        await setAvailable(server, a, true);
        const offered = await ask('widget_lang_ar2', 'هل تبيعون بطاقات الهدايا؟', 'ar');
        expect(offered).to.include({ fallbackAction: 'offer_live_chat', code: 'ai.offer_person' });
        expect(offered.answer).to.equal(aiText('ar', 'offerPerson')).and.match(/هل تود التحدث مع أحد أعضاء فريقنا؟/);
        await setAvailable(server, a, false);

        const points = await ask('widget_lang_ar3', 'How many points do I have?', 'ar');
        expect(points.fallbackAction).to.equal('verify_phone');
        expect(points.answer).to.equal(aiText('ar', 'verifyPhone')).and.match(/^للاطلاع على ذلك/);
        // Without a language the store's default (English) speaks, as before.
        const english = await ask('widget_lang_none', 'Do you sell gift cards?');
        // The demo store's gift-wrap and loyalty entries are close enough to suggest: the text points at them.
        expect(english.suggestions?.length).to.be.greaterThan(0);
        expect(english.answer).to.equal(aiText('en', 'offerMessage')).and.match(/^I'm not sure/);
    });

    it('reads a store whose default language is Spanish: entries without a language are Spanish', async () => {
        const b = await createTenant(server, 'ailangb');
        await server.app.services.tenants.updateLanguages(b.organization.id, { enabled: ['es', 'en'], default: 'es' });
        await server.app.services.ai.createKnowledge(b.organization.id, { title: 'Devoluciones', content: 'Aceptamos devoluciones durante 30 días con el ticket de compra.' });
        await server.app.services.ai.createKnowledge(b.organization.id, { title: 'Returns', content: 'We accept returns within 30 days with the receipt.', lang: 'en' });
        const chat = (message: string, lang: string) => server.inject({ method: 'POST', url: '/api/ai/chat', headers: { 'x-widget-key': b.bot.publicKey }, payload: { sessionId: `widget_lb_${lang}`, message, lang } });
        const es = JSON.parse((await chat('¿Aceptan devoluciones?', 'es')).payload) as Answer;
        expect(es.sources.map((s) => s.title)).to.deep.equal(['Devoluciones']);
        const en = JSON.parse((await chat('Do you accept returns?', 'en')).payload) as Answer;
        expect(en.sources.map((s) => s.title)).to.deep.equal(['Returns']);
        // A German customer asking in German: no German entry; the Spanish default's "Devoluciones" does not match German words, so the agent says so in German.
        const de = JSON.parse((await chat('Verkauft ihr Geschenkkarten?', 'de')).payload) as Answer;
        expect(de.answer).to.equal(aiText('de', 'offerMessageAlone'));
        // A Spanish question that shares one word with an entry and says the rest its own way: read by words alone
        // (no word vectors or sentence meanings in Spanish), it is too far to answer, near enough to suggest.
        await server.app.services.ai.createKnowledge(b.organization.id, { title: 'Guía de tallas', content: 'Nuestra guía de tallas está en cada ficha de producto. Si dudas entre dos tallas, elige la mayor.' });
        const size = JSON.parse((await chat('¿qué talla debo elegir?', 'es')).payload) as Answer;
        expect(size.fallbackAction).to.equal('leave_message');
        expect(size.suggestions?.map((x) => x.title)).to.deep.equal(['Guía de tallas']);
        expect(size.answer).to.equal(aiText('es', 'offerMessage'));
        // Nothing shared at all: still nothing suggested.
        const parking = JSON.parse((await chat('¿hay aparcamiento?', 'es')).payload) as Answer;
        expect(parking.suggestions ?? []).to.deep.equal([]);
    });
    it('imports a CSV with a language per row (any case; empty: the store\'s default), refuses an unknown one naming its line and stores nothing', async () => {
        const c = await createTenant(server, 'ailangcsv');
        const headers = bearer(c.admin.token);
        const list = async () => JSON.parse((await server.inject({ url: '/api/ai/knowledge', headers })).payload) as Array<{ title: string; lang: string | null; isActive: boolean }>;
        const csv = [
            'title,content,Language,isActive',
            'Parking,Free parking behind the store.,,',
            'Aparcamiento,Aparcamiento gratuito detrás de la tienda.,ES,true',
            'Stationnement,Stationnement gratuit derrière le magasin.,fr,',
            'Estacionamento,Estacionamento gratuito atrás da loja.,pt-br,false',
            'Parkplatz,Kostenlose Parkplätze hinter dem Geschäft.,De,',
            'موقف السيارات,موقف مجاني خلف المتجر.,AR,',
            'Returns,Within 30 days.,en,'
        ].join('\n');
        const res = await server.inject({ method: 'POST', url: '/api/ai/knowledge/import', headers, payload: { format: 'csv', text: csv } });
        expect(res.statusCode, res.payload).to.equal(201);
        expect(JSON.parse(res.payload).created).to.equal(7);
        const byTitle = Object.fromEntries((await list()).map((e) => [e.title, e]));
        expect(Object.fromEntries(Object.entries(byTitle).map(([title, e]) => [title, e.lang]))).to.deep.equal({
            Parking: null, Aparcamiento: 'es', Stationnement: 'fr', Estacionamento: 'pt-BR', Parkplatz: 'de', 'موقف السيارات': 'ar', Returns: 'en'
        });
        expect(byTitle.Estacionamento.isActive).to.equal(false);

        // The import's own language (the request's lang) is what an empty cell takes; a row's language wins over it.
        const withLang = await server.inject({ method: 'POST', url: '/api/ai/knowledge/import', headers, payload: { format: 'csv', lang: 'es', text: 'title,content,language\nHorario,De 9 a 20 h.,\nHours,9 am to 8 pm.,EN\n' } });
        expect(withLang.statusCode, withLang.payload).to.equal(201);
        const after = Object.fromEntries((await list()).map((e) => [e.title, e.lang]));
        expect([after.Horario, after.Hours]).to.deep.equal(['es', 'en']);

        // An unknown language: that row is named, and nothing of the file is stored (the import is all or nothing).
        const count = (await list()).length;
        for (const bad of ['it', 'pt-PT', 'english']) {
            const refused = await server.inject({
                method: 'POST', url: '/api/ai/knowledge/import', headers,
                payload: { format: 'csv', text: `title,content,language\nGift cards,We sell gift cards.,en\nCarte cadeau,Nous vendons des cartes.,fr\nBuoni regalo,Vendiamo buoni regalo.,${bad}\n` }
            });
            expect(refused.statusCode, refused.payload).to.equal(400);
            expect(JSON.parse(refused.payload).message).to.equal(`Line 4: the language "${bad}" is not one of en, es, fr, pt-BR, de, ar (empty: the store's default language)`);
        }
        expect(await list()).to.have.length(count);
        expect((await list()).map((e) => e.title)).to.not.include('Gift cards');
    });
});
