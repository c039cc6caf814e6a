import type { Server } from '@hapi/hapi';
import type { Tenant } from './server';
import { signCustomerToken } from '../../core/auth/customer-token';

export interface TenancyRequest { method: string; url: string; payload?: unknown; headers: Record<string, string> }
/** Creates an object in organization B and returns the request that organization A's credentials make for it. */
export type TenancyCase = (ctx: { server: Server; a: Tenant; b: Tenant }) => Promise<TenancyRequest>;

let counter = 0;

/** A chat of organization B (accepted by B's admin when asked), named so A could guess it. */
async function chatOfB(server: Server, b: Tenant, accepted = false): Promise<string> {
    counter += 1;
    const sessionId = `tenancy_chat_${counter}_${Date.now()}`;
    await server.app.services.livechat.createSession({
        organizationId: b.organization.id, botInstanceId: b.bot.id, sessionId, phoneNumber: '+15555550199',
        customerMessage: 'secret of B', domain: null
    });
    if (accepted) {
        await server.app.services.livechat.accept(b.organization.id, b.admin.id, sessionId);
    }
    return sessionId;
}

/** A message left with organization B's widget form (no agent available), named so A could guess it. */
async function leftMessageOfB(server: Server, b: Tenant): Promise<string> {
    counter += 1;
    const { session } = await server.app.services.livechat.offlineMessage({
        organizationId: b.organization.id, botInstanceId: b.bot.id, sessionId: `tenancy_left_${counter}_${Date.now()}`,
        email: 'customer-of-b@example.test', message: 'secret of B', phoneNumber: null, domain: null
    });
    return session.sessionId;
}

const admin = (a: Tenant) => ({ authorization: `Bearer ${a.admin.token}` });

/** A PDF in one of organization B's chats (issue 29). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');

export const cases: Record<string, TenancyCase> = {
    // Photos and files (issue 29): A's staff neither upload to nor read from B's chats.
    'livechat.file.upload': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b, true)}/files?name=x.pdf`, headers: { ...admin(a), 'content-type': 'application/pdf' }, payload: PDF }),
    'livechat.file.link': async ({ server, a, b }) => {
        const sessionId = await chatOfB(server, b, true);
        const file = await server.app.services.livechatFiles.upload(b.organization.id, sessionId, { sender: 'agent', userId: b.admin.id }, PDF, 'secret-of-b.pdf');
        return { method: 'GET', url: `/api/chat/session/${sessionId}/files/${file.id}/link`, headers: admin(a) };
    },
    'livechat.session.get': async ({ server, a, b }) =>
        ({ method: 'GET', url: `/api/chat/session/${await chatOfB(server, b)}`, headers: admin(a) }),
    'livechat.message.list': async ({ server, a, b }) =>
        ({ method: 'GET', url: `/api/chat/session/${await chatOfB(server, b)}/messages`, headers: admin(a) }),
    'livechat.message.send': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b, true)}/messages`, headers: admin(a), payload: { message: 'hi', clientMessageId: 'x1' } }),
    'livechat.session.typing': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b, true)}/typing`, headers: admin(a) }),
    'livechat.session.accept': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b)}/accept`, headers: admin(a) }),
    'livechat.session.end': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b, true)}/end`, headers: admin(a) }),
    // A's customer holding a token for a chat id that only B has (ids are unique per store): B's chat is not found.
    'livechat.session.rate': async ({ server, a, b }) => {
        const sessionId = await chatOfB(server, b, true);
        await server.app.services.livechat.end(b.organization.id, sessionId, 'agent');
        const token = signCustomerToken(server.app.config.jwtSecret, { organizationId: a.organization.id, sessionId, chatId: sessionId });
        return { method: 'POST', url: `/api/chat/session/${sessionId}/rating`, headers: { authorization: `Bearer ${token}` }, payload: { score: 5, comment: 'secret of B' } };
    },
    // The same for the email a customer gives in a live chat (issue 28): B's open chat is not found, nothing is stored.
    'livechat.session.email': async ({ server, a, b }) => {
        const sessionId = await chatOfB(server, b, true);
        const token = signCustomerToken(server.app.config.jwtSecret, { organizationId: a.organization.id, sessionId, chatId: sessionId });
        return { method: 'PUT', url: `/api/chat/session/${sessionId}/email`, headers: { authorization: `Bearer ${token}` }, payload: { email: 'secret-of-b@example.test' } };
    },
    'livechat.session.star': async ({ server, a, b }) =>
        ({ method: 'PATCH', url: `/api/chat/session/${await chatOfB(server, b)}/star`, headers: admin(a), payload: { isStarred: true } }),
    'livechat.session.archive': async ({ server, a, b }) =>
        ({ method: 'PATCH', url: `/api/chat/session/${await chatOfB(server, b)}/archive`, headers: admin(a), payload: { isArchived: true } }),
    'livechat.session.read': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b, true)}/read`, headers: admin(a), payload: { seq: 1 } }),
    'livechat.left-message.reply': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/left-messages/${await leftMessageOfB(server, b)}/reply`, headers: admin(a), payload: { message: 'hi', clientMessageId: 'x1' } }),
    'livechat.left-message.update': async ({ server, a, b }) =>
        ({ method: 'PATCH', url: `/api/chat/left-messages/${await leftMessageOfB(server, b)}`, headers: admin(a), payload: { state: 'done' } }),
    'livechat.session.context': async ({ server, a, b }) =>
        ({ method: 'GET', url: `/api/chat/session/${await chatOfB(server, b)}/context`, headers: admin(a) }),
    // issue 26: A's admin cannot set the capacity of B's agent, transfer B's chat, nor read or write notes on B's chats
    'livechat.team.update': async ({ b, a }) =>
        ({ method: 'PUT', url: `/api/chat/team/${b.admin.id}`, headers: admin(a), payload: { capacity: 5 } }),
    'livechat.session.transfer': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b, true)}/transfer`, headers: admin(a), payload: { toAgentId: a.admin.id, note: 'to A' } }),
    'livechat.note.list': async ({ server, a, b }) => {
        const sessionId = await chatOfB(server, b, true);
        await server.app.services.livechatRouting.addNote(b.organization.id, sessionId, b.admin.id, { text: 'secret note of B' });
        return { method: 'GET', url: `/api/chat/session/${sessionId}/notes`, headers: admin(a) };
    },
    'livechat.note.create': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await chatOfB(server, b, true)}/notes`, headers: admin(a), payload: { text: 'a note from A' } })
};
