import { expect } from 'chai';
import { Semaphore } from '../../plugins/auth/semaphore';

describe('the password-check semaphore', () => {
    it('runs at most its limit of tasks at once and all of them in the end, failures included', async () => {
        const semaphore = new Semaphore(2);
        let running = 0;
        let peak = 0;
        const task = (i: number) => semaphore.run(async () => {
            running += 1;
            peak = Math.max(peak, running);
            await new Promise((r) => setTimeout(r, 5));
            running -= 1;
            if (i === 3) {
                throw new Error('boom');
            }
            return i;
        });
        const results = await Promise.allSettled([0, 1, 2, 3, 4, 5, 6].map(task));
        expect(peak).to.equal(2);
        expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).to.deep.equal([0, 1, 2, 4, 5, 6]);
        expect(results[3].status).to.equal('rejected');
        // The slots are all free again.
        expect(await Promise.all([task(7), task(8)])).to.deep.equal([7, 8]);
    });
});
