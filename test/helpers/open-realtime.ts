import Hapi from '@hapi/hapi';
import pino from 'pino';
import { MemoryPubSub } from '../../core/realtime/pubsub';
import { Realtime, RealtimeOptions } from '../../core/realtime/socket-server';

/**
 * The realtime layer alone on a hapi server (unit tests of core/realtime): every socket is let in as one widget caller
 * (an auth scheme that accepts anything), on /ws, with wide limits unless `options` say otherwise. `setup` runs before
 * the server starts (subscriptions).
 */
export async function startOpenRealtime(options: Partial<RealtimeOptions> = {}, setup?: (realtime: Realtime) => void): Promise<{ server: Hapi.Server; realtime: Realtime; url: string }> {
    const server = Hapi.server({ port: 0, host: '127.0.0.1' });
    (server.app as any).log = pino({ level: 'silent' });
    server.auth.scheme('open', () => ({ authenticate: async (_request, h) => h.authenticated({ credentials: { caller: { kind: 'widget', botInstanceId: 1, organizationId: 1 }, scope: ['widget'] } }) }));
    (server.app as any).config = { trustProxy: false };
    server.auth.strategy('open', 'open');
    const realtime = new Realtime(server, new MemoryPubSub(), pino({ level: 'silent' }));
    await realtime.register({
        path: '/ws', auth: { strategies: ['open'], access: [{ scope: ['widget'] }] }, authTimeoutMs: 5000, maxPayload: 65536, maxFramesPerSecond: 100,
        maxPerIp: 1000, maxPerIdentity: 1000,
        ...options
    });
    setup?.(realtime);
    await server.start();
    return { server, realtime, url: `ws://127.0.0.1:${server.info.port}/ws` };
}
