import { expect } from 'chai';
import type Hapi from '@hapi/hapi';
import type { Realtime, RealtimeSocket } from '../../core/realtime/socket-server';
import type { Caller } from '../../core/types/auth';
import { until } from '../helpers/wait';
import { startOpenRealtime } from '../helpers/open-realtime';
import { hello, openRaw } from '../helpers/raw-socket';

const Nes = require('@hapi/nes/lib/client');
Nes.Client.WebSocket = require('ws');

/**
 * A socket that closes while the server is still accepting it (a page reloaded right after its widget connected; the
 * accepting handler awaits the database): nes calls onDisconnection before onConnection has ended. What the handler
 * counts once it ends (a customer's socket of a chat, an agent's tab) must be undone, or the chat's customer is never
 * marked gone and the identity's sockets never drop below its limit (most likely what failed a CI run: a closed widget never marked gone).
 */
describe('realtime: a socket that closes while it is being accepted', function () {
    this.timeout(20000);
    let server: Hapi.Server;
    let url: string;
    let gate: Promise<void> | null = null;
    let entered = 0;
    let realtime: Realtime;
    const open = new Set<string>();
    const disconnections: Array<{ id: string; caller: Caller | null }> = [];

    before(async () => {
        ({ server, realtime, url } = await startOpenRealtime({
            maxPerIdentity: 1,
            // Like livechat's: something to await (the store's row), then the socket counts.
            onConnection: async (socket: RealtimeSocket) => {
                entered += 1;
                await gate;
                open.add(socket.id);
            },
            onDisconnection: (socket: RealtimeSocket, caller: Caller | null) => {
                disconnections.push({ id: socket.id, caller });
                if (caller) {
                    open.delete(socket.id);
                }
            }
        }, (r) => r.subscription('/things', { scope: ['widget'] })));
    });
    after(async () => {
        await server.stop({ timeout: 1000 });
    });

    it('tells the handler of the close once its onConnection has ended, subscribes nothing, and keeps the identity\'s count', async () => {
        let release!: () => void;
        gate = new Promise<void>((resolve) => {
            release = resolve;
        });
        // A raw nes hello with a subscription, then the socket closes before the server answers it.
        const raw = await openRaw(url);
        raw.send({ ...hello('x'), id: 1, subs: ['/things'] });
        await until(() => entered === 1, 2000, 'onConnection');
        raw.ws.close();
        await until(() => disconnections.length === 1, 2000, 'nes\' onDisconnection');
        expect(disconnections[0].caller, 'nes calls it before the socket counted').to.equal(null);
        release();
        await until(() => disconnections.length === 2, 2000, 'the late onDisconnection');
        expect(disconnections[1].caller).to.deep.include({ kind: 'widget', organizationId: 1 });
        expect([...open], 'what the handler counted is undone').to.deep.equal([]);
        gate = null;

        // The identity's one allowed socket is still free, and a subscription reaches only the live socket.
        const client = new Nes.Client(url);
        client.onError = () => {};
        await client.connect({ reconnect: false, auth: { headers: { authorization: 'x' } } });
        expect(open.size).to.equal(1);
        const got: unknown[] = [];
        await client.subscribe('/things', (m: unknown) => got.push(m));
        await realtime.publish('/things', { n: 1 });
        await until(() => got.length === 1, 2000, 'the publish');
        await client.disconnect();
        await until(() => open.size === 0 && realtime.connectionCount() === 0, 2000, 'the last close');
    });
});
