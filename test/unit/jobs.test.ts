import { expect } from 'chai';
import pino from 'pino';
import { BullQueue, JobQueue, MemoryQueue } from '../../core/jobs';
import { ADD_TIMEOUT_MS } from '../../core/jobs/bull-queue';
import { usingRedis } from '../helpers/server';
import { PrivateRedis, startPrivateRedis } from '../helpers/private-redis';
import { sleep, until } from '../helpers/wait';

const backends: Array<[string, () => JobQueue]> = [['in-process', () => new MemoryQueue(pino({ level: 'silent' }))]];
if (usingRedis) {
    backends.push(['Bull on Redis', () => new BullQueue(process.env.REDIS_URL!, `lcjobs${Date.now()}`, pino({ level: 'silent' }))]);
}

for (const [name, make] of backends) {
    describe(`the ${name} job queue`, () => {
        it('runs every added job with its data through the defined processor', async () => {
            const queue = make();
            const seen: number[] = [];
            queue.define<{ n: number }>('collect', async ({ n }) => {
                seen.push(n);
            });
            await queue.start();
            for (let n = 0; n < 5; n++) {
                await queue.add('collect', { n });
            }
            const deadline = Date.now() + 5000;
            while (seen.length < 5 && Date.now() < deadline) {
                await new Promise((r) => setTimeout(r, 10));
            }
            await queue.stop();
            expect(seen.sort()).to.deep.equal([0, 1, 2, 3, 4]);
        });

        it('retries a failing job until it succeeds', async () => {
            const queue = make();
            let calls = 0;
            queue.define('flaky', async () => {
                calls++;
                if (calls < 2) {
                    throw new Error('first try fails');
                }
            });
            await queue.start();
            await queue.add('flaky', {}, { attempts: 3 });
            const deadline = Date.now() + 5000;
            while (calls < 2 && Date.now() < deadline) {
                await new Promise((r) => setTimeout(r, 10));
            }
            await queue.stop();
            expect(calls).to.equal(2);
        });

        it('refuses a job with no processor', async () => {
            const queue = make();
            let error: Error | null = null;
            try {
                await queue.add('nothing', {});
            }
            catch (err) {
                error = err as Error;
            }
            await queue.stop();
            expect(error?.message).to.match(/No processor for job nothing/);
        });
    });
}

describe('the Bull job queue while its Redis fails', function () {
    this.timeout(30000);
    let redis: PrivateRedis;
    let logs: Array<{ level: number; msg: string }>;
    let queue: BullQueue | null = null;
    const seen: number[] = [];
    const warned = (msg: string) => logs.filter((l) => l.level === 40 && l.msg === msg).length;

    before(async () => {
        redis = await startPrivateRedis();
    });
    beforeEach(async () => {
        await redis.ensureUp();
        logs = [];
        seen.length = 0;
        const log = pino({ level: 'debug' }, { write: (line: string) => logs.push(JSON.parse(line)) });
        queue = new BullQueue(redis.url, `lcjobs${Date.now()}`, log);
        queue.define<{ n: number }>('collect', async ({ n }) => {
            seen.push(n);
        });
        await queue.start();
    });
    afterEach(async () => {
        await redis.ensureUp();
        await queue?.stop();
    });
    after(async () => redis?.stop());

    it('runs a job added while Redis is down in this process, within the add timeout, and logs a warning', async () => {
        await redis.kill();
        const started = Date.now();
        await queue!.add('collect', { n: 1 });
        expect(Date.now() - started).to.be.below(ADD_TIMEOUT_MS + 250);
        await until(() => seen.length === 1, 2000, 'the job');
        expect(seen).to.deep.equal([1]);
        expect(warned('job runs in this process')).to.equal(1);
        await queue!.add('collect', { n: 2 });
        await until(() => seen.length === 2, 2000, 'the second job');
        expect(warned('job runs in this process'), 'one warning per outage').to.equal(1);
    });

    it('keeps the delay of a delayed job that runs in this process', async () => {
        await redis.kill();
        await queue!.add('collect', { n: 1 }, { delay: 700 });
        await sleep(400);
        expect(seen, 'not before its delay').to.deep.equal([]);
        await until(() => seen.length === 1, 2000, 'the delayed job');
    });

    it('answers within the add timeout while Redis hangs, and runs the job once, through Redis, when it answers again', async () => {
        redis.pause();
        const started = Date.now();
        await queue!.add('collect', { n: 1 });
        expect(Date.now() - started).to.be.below(ADD_TIMEOUT_MS + 250);
        await sleep(300);
        expect(seen, 'waits for Redis\'s answer').to.deep.equal([]);
        redis.resume();
        await until(() => seen.length === 1, 5000, 'the job');
        await sleep(500);
        expect(seen).to.deep.equal([1]);
        expect(warned('job runs in this process'), 'not run here').to.equal(0);
    });

    it('runs a job that a hung Redis never answered in this process when the queue stops, so it is not lost', async () => {
        redis.pause();
        await queue!.add('collect', { n: 7 });
        await queue!.stop();
        queue = null;
        expect(seen).to.deep.equal([7]);
    });

    it('goes back to Redis once it answers again', async () => {
        await redis.kill();
        await queue!.add('collect', { n: 1 });
        await redis.restart();
        await until(() => logs.some((l) => l.msg === 'Redis takes jobs again'), 5000, 'the recovery');
        const before = logs.filter((l) => l.msg === 'job runs in this process').length;
        await queue!.add('collect', { n: 2 });
        await until(() => seen.length === 2, 5000, 'the job through Redis');
        expect(logs.filter((l) => l.msg === 'job runs in this process').length, 'not run here').to.equal(before);
    });
});
