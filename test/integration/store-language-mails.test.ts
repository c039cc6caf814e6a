import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connectAgent, NesClient, request, setAvailable } from '../helpers/livechat-client';

/**
 * DESIGN §10, who reads what (issue 27): the store's own mails (a left message's notification, a chat's transcript)
 * are in the store's default language whatever the customer's; the reply to the customer is in the customer's.
 */
describe('mails to the store in the store\'s default language, to the customer in theirs (issue 27)', function () {
    let t: TestServer;
    let shop: Tenant;
    let agent: { client: NesClient };

    before(async () => {
        t = await startTestServer({ listen: true });
        shop = await createTenant(t.server, 'tiendamail', 'tiendamail.test');
        await t.server.inject({ method: 'POST', url: '/api/chat/email-settings', headers: bearer(shop.admin.token), payload: { emailNotificationsEnabled: true, emailRecipient: 'caja@tiendamail.test' } });
        // A Spanish store that also speaks English and German.
        const res = await t.server.inject({ method: 'PUT', url: '/api/widget/languages', headers: bearer(shop.admin.token), payload: { enabled: ['es', 'en', 'de'], default: 'es' } });
        expect(res.statusCode, res.payload).to.equal(200);
    });
    after(async () => {
        agent?.client.disconnect();
        await t?.close();
    });

    it('a German customer\'s left message reaches the Spanish store in Spanish; the agent\'s reply reaches the customer in German', async () => {
        // First asked of the AI agent, in German: the store's mail says so in Spanish, with the customer's words as they were.
        const asked = await t.server.inject({
            method: 'POST', url: '/api/ai/chat', headers: { 'x-widget-key': shop.bot.publicKey },
            payload: { sessionId: 'widget_1700000000000_germancustomer01', message: 'Habt ihr die Jacke in M?', lang: 'de' }
        });
        expect(asked.statusCode, asked.payload).to.equal(200);
        const left = await t.server.inject({
            method: 'POST', url: '/api/chat/offline-message', headers: { 'x-widget-key': shop.bot.publicKey },
            payload: { sessionId: 'widget_1700000000000_germancustomer01', email: 'udo@example.test', name: 'Udo', message: 'Habt ihr die Jacke in M?', lang: 'de' }
        });
        expect(left.statusCode, left.payload).to.be.oneOf([200, 201]);
        const [toStore] = await t.server.app.services.mail.list({ to: 'caja@tiendamail.test' });
        expect(toStore.subject).to.equal('Mensaje fuera de línea de udo@example.test (Store tiendamail)');
        expect(toStore.body).to.include('Un cliente escribió cuando no había ningún agente disponible.').and.include('Responder a: udo@example.test')
            .and.include('Nombre: Udo').and.include('Habt ihr die Jacke in M?').and.include('consola del chat en directo');
        expect(toStore.body).to.not.include('A customer wrote');
        expect(toStore.body).to.include('Antes de escribir, preguntó al asistente:\nCliente: Habt ihr die Jacke in M?\nAsistente: ');

        const list = await t.server.inject({ method: 'GET', url: '/api/chat/left-messages?state=open', headers: bearer(shop.admin.token) });
        const sessionId = (list.result as any).messages[0].sessionId;
        const answered = await t.server.inject({ method: 'POST', url: `/api/chat/left-messages/${sessionId}/reply`, headers: bearer(shop.admin.token), payload: { message: 'Ja, in M!' } });
        expect(answered.statusCode, answered.payload).to.equal(201);
        const [toCustomer] = await t.server.app.services.mail.list({ to: 'udo@example.test' });
        expect(toCustomer.subject).to.equal('Re: Deine Nachricht an Store tiendamail');
        expect(toCustomer.body).to.include('Hallo Udo,');
    });

    it('an English-speaking customer\'s chat transcript reaches the Spanish store in Spanish', async () => {
        agent = await connectAgent(t.url, shop);
        await setAvailable(t.server, shop, true);
        const sid = 'widget_1700000000001_englishcustomer1';
        const created = await t.server.inject({
            method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': shop.bot.publicKey },
            payload: { sessionId: sid, phoneNumber: null, customerMessage: 'Where is my order?', lang: 'en' }
        });
        expect(created.statusCode, created.payload).to.be.oneOf([200, 201]);
        await request(agent.client, 'POST', `/api/chat/session/${sid}/accept`);
        await request(agent.client, 'POST', `/api/chat/session/${sid}/messages`, { message: 'It ships today.', clientMessageId: 'tm-1' });
        expect((await t.server.app.services.livechat.getSession(shop.organization.id, sid)).lang).to.equal('en');
        await t.server.app.services.livechat.sendTranscript(shop.organization.id, sid);
        const [transcript] = (await t.server.app.services.mail.list({ to: 'caja@tiendamail.test' })).filter((m) => m.subject.startsWith('Transcripción'));
        expect(transcript.subject).to.match(/^Transcripción del chat: Unknown \(\w{8}\)$/);
        expect(transcript.body).to.include('Transcripción del chat en directo — Store tiendamail').and.include('Horas en: America/New_York')
            .and.match(/\] Cliente: Where is my order\?/).and.match(/\] Agente: It ships today\./);
    });
});
