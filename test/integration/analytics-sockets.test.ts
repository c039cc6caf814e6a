import { expect } from 'chai';
import Redis from 'ioredis';
import { PrivateRedis, startPrivateRedis } from '../helpers/private-redis';
import { NodeCount, SocketCounts } from '../../plugins/analytics/lib/socket-counts';

/** SPEC §3 'Websocket stats' across nodes: each node's customer sockets in a Redis key with a 30 s TTL, summed by any node. */
describe('websocket counts across nodes (analytics)', function () {
    this.timeout(30000);
    let redis: PrivateRedis;
    let a: Redis;
    let b: Redis;

    before(async () => {
        redis = await startPrivateRedis();
        a = new Redis(redis.url);
        b = new Redis(redis.url);
    });
    after(async () => {
        a?.disconnect();
        b?.disconnect();
        await redis?.stop();
    });

    it('sums the customer sockets every live node publishes, per organization, and drops a node that stopped', async () => {
        let onA: NodeCount[] = [{ organizationId: 1, count: 3, last: 1000 }, { organizationId: 2, count: 1, last: 500 }];
        const onB: NodeCount[] = [{ organizationId: 1, count: 2, last: 2000 }];
        const nodeA = new SocketCounts(a, 'lc-test', 'node-a', () => onA);
        const nodeB = new SocketCounts(b, 'lc-test', 'node-b', () => onB);
        await nodeB.publish();
        expect(await nodeA.total(1)).to.deep.equal({ count: 5, last: 2000 });
        expect(await nodeA.total(2)).to.deep.equal({ count: 1, last: 500 });
        expect(await nodeB.total(3)).to.deep.equal({ count: 0, last: null });
        const ttl = await a.ttl('lc-test:ws-counts:node-b');
        expect(ttl).to.be.within(1, 30);
        onA = [{ organizationId: 1, count: 4, last: 3000 }];
        expect(await nodeB.total(1), 'node A has not refreshed yet').to.deep.equal({ count: 5, last: 2000 });
        await nodeA.publish();
        expect(await nodeB.total(1)).to.deep.equal({ count: 6, last: 3000 });
        await a.del('lc-test:ws-counts:node-b');      // node B's key expired: it stopped refreshing
        expect(await nodeA.total(1)).to.deep.equal({ count: 4, last: 3000 });
        expect(await a.smembers('lc-test:ws-counts-nodes')).to.deep.equal(['node-a']);
        await nodeA.withdraw();
        expect(await a.exists('lc-test:ws-counts:node-a')).to.equal(0);
    });

    it('answers this node\'s own counts without Redis', async () => {
        const alone = new SocketCounts(null, 'lc-test', 'solo', () => [{ organizationId: 7, count: 2, last: 42 }]);
        await alone.publish();
        expect(await alone.total(7)).to.deep.equal({ count: 2, last: 42 });
    });
});
