import type { Server } from '@hapi/hapi';
import type { Tenant } from './server';
import type { TenancyCase } from './tenancy-cases-tenants';

/** Photos and files in live chat (issue 29): organization A's staff reach none of B's chats' files. */
let counter = 0;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');

async function acceptedChatOfB(server: Server, b: Tenant): Promise<string> {
    counter += 1;
    const sessionId = `tenancy_files_${counter}_${Date.now()}`;
    await server.app.services.livechat.createSession({
        organizationId: b.organization.id, botInstanceId: b.bot.id, sessionId, phoneNumber: '+15555550199', customerMessage: 'secret of B', domain: null
    });
    await server.app.services.livechat.accept(b.organization.id, b.admin.id, sessionId);
    return sessionId;
}

const admin = (a: Tenant) => ({ authorization: `Bearer ${a.admin.token}` });

export const cases: Record<string, TenancyCase> = {
    'livechat.file.upload': async ({ server, a, b }) =>
        ({ method: 'POST', url: `/api/chat/session/${await acceptedChatOfB(server, b)}/files?name=x.pdf`, headers: { ...admin(a), 'content-type': 'application/pdf' }, payload: PDF }),
    'livechat.file.link': async ({ server, a, b }) => {
        const sessionId = await acceptedChatOfB(server, b);
        const file = await server.app.services.livechatFiles.upload(b.organization.id, sessionId, { sender: 'agent', userId: b.admin.id }, PDF, 'secret-of-b.pdf');
        return { method: 'GET', url: `/api/chat/session/${sessionId}/files/${file.id}/link`, headers: admin(a) };
    }
};
