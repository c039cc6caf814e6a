import { expect } from 'chai';
import type Hapi from '@hapi/hapi';
import { startOpenRealtime } from '../helpers/open-realtime';
import { sleep, until } from '../helpers/wait';

const Nes = require('@hapi/nes/lib/client');
Nes.Client.WebSocket = require('ws');

/**
 * The heartbeat is nes' protocol (a ping each interval, closed when not answered within timeout), but
 * spread over the interval instead of every socket at once.
 */
describe('realtime heartbeat', function () {
    this.timeout(20000);
    const interval = 600;
    const timeout = 300;
    let server: Hapi.Server;
    let url: string;
    const clients: any[] = [];

    before(async () => {
        ({ server, url } = await startOpenRealtime({ heartbeat: { interval, timeout } }));
    });
    after(async () => {
        for (const c of clients) {
            await c.disconnect().catch(() => {});
        }
        await server.stop({ timeout: 1000 });
    });

    async function connect(): Promise<{ client: any; pings: number[] }> {
        const client = new Nes.Client(url);
        client.onError = () => {};
        const pings: number[] = [];
        const onMessage = client._onMessage.bind(client);
        client._onMessage = (message: any) => {
            if (JSON.parse(message.data).type === 'ping') {
                pings.push(Date.now());
            }
            return onMessage(message);
        };
        await client.connect({ reconnect: false, auth: { headers: { authorization: 'x' } } });
        clients.push(client);
        return { client, pings };
    }

    it('pings every socket about once per interval, not all at the same moment', async () => {
        const sockets = await Promise.all(Array.from({ length: 40 }, () => connect()));
        const start = Date.now();
        await sleep(interval * 3 + 100);
        const counts = sockets.map((s) => s.pings.length);
        expect(Math.min(...counts), `pings per socket in 3 intervals: ${counts}`).to.be.at.least(2);
        expect(Math.max(...counts), `pings per socket in 3 intervals: ${counts}`).to.be.at.most(4);
        // Where in the interval each socket's first ping fell: spread over many slices, not one burst.
        const phases = new Set(sockets.map((s) => Math.floor(((s.pings[0] - start) % interval) / (interval / 10))));
        expect(phases.size, 'distinct tenths of the interval holding a first ping').to.be.at.least(5);
        for (const s of sockets) {
            expect(s.client._ws?.readyState, 'answering sockets stay open').to.equal(1);
        }
    });

    it('closes a socket that does not answer its ping within the timeout, and keeps the others', async () => {
        const live = await connect();
        const silent = await connect();
        // The silent client receives pings but never answers them (a dead peer behind a proxy, say).
        const send = silent.client._send.bind(silent.client);
        silent.client._send = (request: any, track: boolean) => request.type === 'ping' ? Promise.resolve() : send(request, track);
        let closed = false;
        silent.client.onDisconnect = () => {
            closed = true;
        };
        await until(() => closed, interval + timeout + 1000, 'the silent socket was not closed');
        expect(live.client._ws?.readyState).to.equal(1);
        await sleep(interval);
        expect(live.client._ws?.readyState, 'still open an interval later').to.equal(1);
    });
});
