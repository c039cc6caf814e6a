import type { Server } from '@hapi/hapi';
import type { Tenant } from './server';

// The real nes client, as the widget and the agent console use it (ws in Node).
const Nes = require('@hapi/nes/lib/client');
Nes.Client.WebSocket = require('ws');

export type NesClient = any;

export interface Inbox {
    messages: any[];
    waitFor(predicate: (m: any) => boolean, ms?: number): Promise<any>;
}

export function inbox(): Inbox {
    const messages: any[] = [];
    return {
        messages,
        async waitFor(predicate, ms = 5000) {
            const until = Date.now() + ms;
            for (;;) {
                const found = messages.find(predicate);
                if (found) {
                    return found;
                }
                if (Date.now() > until) {
                    throw new Error(`timed out waiting; got ${JSON.stringify(messages.map((m) => m.type + ':' + (m.message ?? '')))}`);
                }
                await new Promise((r) => setTimeout(r, 20));
            }
        }
    };
}

export function wsUrl(httpUrl: string): string {
    return httpUrl.replace(/^http/, 'ws') + '/ws';
}

/** Connects a client with a Bearer token (admin or customer) and optional Origin. */
export async function connect(url: string, token: string, options: { origin?: string; reconnect?: boolean } = {}): Promise<NesClient> {
    const client = new Nes.Client(wsUrl(url), options.origin ? { ws: { headers: { origin: options.origin } } } : {});
    client.onError = () => {};      // reconnect attempts after a test closed its server are expected
    await client.connect({ auth: { headers: { authorization: `Bearer ${token}` } }, reconnect: options.reconnect ?? false, delay: 100, maxDelay: 500 });
    return client;
}

/** An agent socket subscribed to its organization's feed. */
export async function connectAgent(url: string, tenant: Tenant, box: Inbox = inbox(), origin?: string): Promise<{ client: NesClient; box: Inbox }> {
    const client = await connect(url, tenant.admin.token, { origin, reconnect: true });
    await client.subscribe(`/agents/${tenant.organization.id}`, (m: any) => box.messages.push(m));
    return { client, box };
}

export async function setAvailable(server: Server, tenant: Tenant, available = true): Promise<void> {
    const res = await server.inject({ method: 'POST', url: '/api/chat/agent/availability', headers: { authorization: `Bearer ${tenant.admin.token}` }, payload: { available } });
    if (res.statusCode !== 200) {
        throw new Error(res.payload);
    }
}

/** The widget's create-session call; answers the body (sessionId, token, …). */
export async function createSession(server: Server, tenant: Tenant, sessionId: string, customerMessage = 'I need a human', phoneNumber: string | null = '+15555550100'): Promise<any> {
    const res = await server.inject({ method: 'POST', url: '/api/chat/create-session', headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId, phoneNumber, customerMessage } });
    if (res.statusCode !== 201 && res.statusCode !== 200) {
        throw new Error(`${res.statusCode} ${res.payload}`);
    }
    return res.result;
}

/** A customer socket subscribed to its session. */
export async function connectCustomer(url: string, token: string, sessionId: string, box: Inbox = inbox(), reconnect = true): Promise<{ client: NesClient; box: Inbox }> {
    const client = await connect(url, token, { reconnect });
    await client.subscribe(`/chat/sessions/${sessionId}`, (m: any) => box.messages.push(m));
    return { client, box };
}

export function request(client: NesClient, method: string, path: string, payload?: unknown): Promise<{ payload: any; statusCode: number }> {
    return client.request({ method, path, payload });
}

/** Disconnects and forgets every client in the list (a file's afterEach/after): one that already failed is let go. */
export async function disconnectAll(clients: NesClient[]): Promise<void> {
    for (const c of clients.splice(0)) {
        await c.disconnect().catch(() => {});
    }
}
