import type { Server } from '@hapi/hapi';
import type { Tenant } from './server';

export interface TenancyRequest { method: string; url: string; payload?: unknown; headers: Record<string, string> }
/** Creates an object in organization B and returns the request that organization A's credentials make for it. */
export type TenancyCase = (ctx: { server: Server; a: Tenant; b: Tenant }) => Promise<TenancyRequest>;

async function questionOfB(server: Server, b: Tenant): Promise<number> {
    const q = await server.app.services.questions.create(b.organization.id, { question: 'Only for B?', answer: 'Secret answer of B' });
    return q.id;
}

export const cases: Record<string, TenancyCase> = {
    'questions.question.update': async ({ server, a, b }) => ({
        method: 'PUT',
        url: `/api/questions/${await questionOfB(server, b)}`,
        payload: { answer: 'changed by A' },
        headers: { authorization: 'Bearer ' + a.admin.token }
    }),
    'questions.question.delete': async ({ server, a, b }) => ({
        method: 'DELETE',
        url: `/api/questions/${await questionOfB(server, b)}`,
        headers: { authorization: 'Bearer ' + a.admin.token }
    })
};
