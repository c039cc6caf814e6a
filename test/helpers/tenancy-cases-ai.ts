import type { Server } from '@hapi/hapi';
import type { Tenant } from './server';
import type { TenancyCase } from './tenancy-cases-questions';

async function entryOfB(server: Server, b: Tenant): Promise<number> {
    const entry = await server.app.services.ai.createKnowledge(b.organization.id, { title: 'Only for B', content: 'Secret knowledge of B' });
    return entry.id;
}

/** An AI chat history record of organization B (a customer of B asked B's agent). */
async function historyOfB(server: Server, b: Tenant): Promise<number> {
    const answer = await server.app.services.ai.chat({ organizationId: b.organization.id, botInstanceId: b.bot.id, sessionId: 'widget_b_tenancy', domain: null, verifiedPhone: null }, 'When are you open?');
    return answer.historyId!;
}

export const cases: Record<string, TenancyCase> = {
    'ai.knowledge.update': async ({ server, a, b }) => ({
        method: 'PUT',
        url: `/api/ai/knowledge/${await entryOfB(server, b)}`,
        payload: { content: 'changed by A' },
        headers: { authorization: 'Bearer ' + a.admin.token }
    }),
    'ai.knowledge.delete': async ({ server, a, b }) => ({
        method: 'DELETE',
        url: `/api/ai/knowledge/${await entryOfB(server, b)}`,
        headers: { authorization: 'Bearer ' + a.admin.token }
    }),
    'ai.history.update': async ({ server, a, b }) => ({
        method: 'PATCH',
        url: `/api/ai/chat-history/${await historyOfB(server, b)}`,
        payload: { isResolved: true },
        headers: { authorization: 'Bearer ' + a.admin.token }
    }),
    // Ids in the body (no path parameter): one of B's answers among A's own is refused as a whole.
    'ai.history.resolve': async ({ server, a, b }) => {
        const own = await server.app.services.ai.chat({ organizationId: a.organization.id, botInstanceId: a.bot.id, sessionId: 'widget_a_tenancy', domain: null, verifiedPhone: null }, 'When are you open?');
        return {
            method: 'POST',
            url: '/api/ai/chat-history/resolve',
            payload: { ids: [own.historyId!, await historyOfB(server, b)] },
            headers: { authorization: 'Bearer ' + a.admin.token }
        };
    }
};
