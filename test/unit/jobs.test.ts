import { expect } from 'chai';
import pino from 'pino';
import { BullQueue, JobQueue, MemoryQueue } from '../../core/jobs';
import { usingRedis } from '../helpers/server';

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
