import { expect } from 'chai';
import { until } from '../helpers/wait';
import { startTestServer, createTenant, TestServer, Tenant } from '../helpers/server';
import { connectAgent, connectCustomer, createSession, request, setAvailable } from '../helpers/livechat-client';
import { createLiveChat } from '../../widget/src/live-chat';
import { firstName } from '../../plugins/livechat/services/chat-service';

describe('live chat: the agent\'s first name on agent messages, pushed and fetched, to the widget client', function () {
    this.timeout(30000);
    let t: TestServer;
    let named: Tenant;
    let unnamed: Tenant;

    before(async () => {
        t = await startTestServer({ listen: true });
        named = await createTenant(t.server, 'namesam', 'namesam.test');
        unnamed = await createTenant(t.server, 'nameless', 'nameless.test');
        await t.server.app.db('users').where('id', named.admin.id).update({ name: '  Sam   Lee ' });
    });
    after(async () => {
        await t?.close();
    });

    it('takes the first word of the name, else the email before @', () => {
        expect(firstName('Sam Lee', 'x@y.test')).to.equal('Sam');
        expect(firstName(null, 'maria.k@store.test')).to.equal('maria.k');
        expect(firstName('   ', 'jo@store.test')).to.equal('jo');
    });

    for (const which of ['named', 'unnamed'] as const) {
        it(`gives the widget the ${which} agent's first name, live and after a resume; a customer's own message carries none`, async () => {
            const tenant = which === 'named' ? named : unnamed;
            const expected = which === 'named' ? 'Sam' : 'admin';
            const sid = `name_${which}`;
            const agent = await connectAgent(t.url, tenant);
            await setAvailable(t.server, tenant, true);
            const incoming: Array<{ message: string; agentName?: string }> = [];
            const chat = createLiveChat({
                apiOrigin: t.url, widgetKey: tenant.bot.publicKey, sessionId: sid,
                onMessage: (m) => incoming.push(m), onEnded() {}, WebSocket: require('ws'), reconnectDelay: { min: 50, max: 300 }
            });
            await chat.start({ phoneNumber: null, customerMessage: 'human please' });
            await agent.box.waitFor((m) => m.type === 'new_customer' && m.sessionId === sid);
            await request(agent.client, 'POST', `/api/chat/session/${sid}/accept`);
            await request(agent.client, 'POST', `/api/chat/session/${sid}/messages`, { message: 'Hello there', clientMessageId: 'n1' });
            await until(() => incoming.some((m) => m.message === 'Hello there'), 5000, 'agent message');
            expect(incoming.find((m) => m.message === 'Hello there')!.agentName).to.equal(expected);

            // The fetched list (resume after reload) names the agent too; the customer's message does not.
            const created = await createSession(t.server, tenant, sid);
            const customer = await connectCustomer(t.url, created.token, created.sessionId, undefined, false);
            const res = await request(customer.client, 'GET', `/api/chat/session/${created.sessionId}/messages?after=0`);
            const byText = (text: string) => res.payload.messages.find((m: any) => m.message === text);
            expect(byText('Hello there').agentName).to.equal(expected);
            expect(byText('human please')).to.not.have.property('agentName');
            await customer.client.disconnect();
            await chat.end();
            await agent.client.disconnect();
        });
    }
});
