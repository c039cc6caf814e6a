import { expect } from 'chai';
import Redis from 'ioredis';
import type { Config } from '../../config';
import { REDIS_CLIENT_OPTIONS } from '../../core/server';
import { Limit } from '../../core/http/rate-limit';
import { PrivateRedis, startPrivateRedis } from '../helpers/private-redis';

/** consume, answering 'ok' or the status code it threw, and how long it took. */
async function consume(limit: Limit, key: string): Promise<{ result: 'ok' | number; ms: number }> {
    const started = Date.now();
    try {
        await limit.consume(key);
        return { result: 'ok', ms: Date.now() - started };
    }
    catch (err) {
        return { result: (err as { output?: { statusCode: number } }).output?.statusCode ?? -1, ms: Date.now() - started };
    }
}

describe('a Redis-backed rate limit (the server\'s Redis client options) while Redis fails', function () {
    this.timeout(30000);
    let redis: PrivateRedis;
    let client: Redis;
    const config = { redisPrefix: 'lcrl' } as Config;

    before(async () => {
        redis = await startPrivateRedis();
    });
    beforeEach(async () => {
        await redis.ensureUp();
        client = new Redis(redis.url, REDIS_CLIENT_OPTIONS);
        client.on('error', () => {});
        await new Promise((resolve) => client.once('ready', resolve));
    });
    afterEach(async () => {
        await redis.ensureUp();
        client.disconnect();
    });
    after(async () => redis?.stop());

    it('counts in Redis while it answers', async () => {
        const limit = new Limit({ redis: client, config }, { name: 'well', points: 3, duration: 60 });
        expect((await consume(limit, 'k')).result).to.equal('ok');
        expect(await client.keys('lcrl:rl:well*')).to.have.length(1);
    });

    it('counts in memory at once while Redis is killed, and still refuses past the limit', async () => {
        const limit = new Limit({ redis: client, config }, { name: 'killed', points: 3, duration: 60 });
        await redis.kill();
        const answers = [];
        for (let i = 0; i < 4; i++) {
            answers.push(await consume(limit, 'k'));
        }
        expect(answers.map((a) => a.result)).to.deep.equal(['ok', 'ok', 'ok', 429]);
        // Not 'ready' any more: no command is even queued (rejectIfRedisNotReady).
        expect(Math.max(...answers.map((a) => a.ms))).to.be.below(REDIS_CLIENT_OPTIONS.commandTimeout + 200);
        expect(Math.max(...answers.slice(1).map((a) => a.ms))).to.be.below(50);
    });

    it('counts in memory within the command timeout while Redis hangs, and still refuses past the limit', async () => {
        const limit = new Limit({ redis: client, config }, { name: 'hung', points: 3, duration: 60 });
        redis.pause();
        const answers = [];
        for (let i = 0; i < 4; i++) {
            answers.push(await consume(limit, 'k'));
        }
        expect(answers.map((a) => a.result)).to.deep.equal(['ok', 'ok', 'ok', 429]);
        expect(Math.max(...answers.map((a) => a.ms))).to.be.below(REDIS_CLIENT_OPTIONS.commandTimeout + 200);
    });

    it('takes events that come before the connection is ready at start-up', async () => {
        const fresh = new Redis(redis.url, REDIS_CLIENT_OPTIONS);
        fresh.on('error', () => {});
        try {
            expect(fresh.status).to.not.equal('ready');
            const limit = new Limit({ redis: fresh, config }, { name: 'early', points: 3, duration: 60 });
            const early = await consume(limit, 'k');
            expect(early.result).to.equal('ok');
            expect(early.ms).to.be.below(REDIS_CLIENT_OPTIONS.commandTimeout + 200);
            expect(await fresh.ping(), 'and the client connects as usual').to.equal('PONG');
            expect((await consume(limit, 'k')).result).to.equal('ok');
            expect(await fresh.keys('lcrl:rl:early*')).to.have.length(1);
        }
        finally {
            fresh.disconnect();
        }
    });
});
