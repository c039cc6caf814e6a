import Bull from 'bull';
import type { Logger } from 'pino';
import type { AddOptions, JobQueue, Processor } from './index';

/** Bull on Redis: jobs survive a restart and are shared by every node. */
export class BullQueue implements JobQueue {
    readonly backend = 'bull' as const;
    private readonly queues = new Map<string, { queue: Bull.Queue; fn: Processor; concurrency: number }>();
    private started = false;

    constructor(private readonly redisUrl: string, private readonly prefix: string, private readonly log: Logger) {}

    define<T>(name: string, processor: Processor<T>, options: { concurrency?: number } = {}): void {
        if (this.queues.has(name)) {
            throw new Error(`Job ${name} is already defined`);
        }
        const queue = new Bull(name, this.redisUrl, { prefix: `${this.prefix}:bull` });
        queue.on('error', (err) => this.log.error({ err, job: name }, 'queue error'));
        queue.on('failed', (job, err) => this.log.warn({ err, job: name, attempt: job.attemptsMade }, 'job failed'));
        this.queues.set(name, { queue, fn: processor as Processor, concurrency: options.concurrency ?? 1 });
    }

    async add<T>(name: string, data: T, options: AddOptions = {}): Promise<void> {
        const entry = this.queues.get(name);
        if (!entry) {
            throw new Error(`No processor for job ${name}`);
        }
        await entry.queue.add(data, {
            delay: options.delay,
            attempts: options.attempts ?? 3,
            jobId: options.jobId,
            backoff: { type: 'exponential', delay: 200 },
            removeOnComplete: true,
            removeOnFail: 100
        });
    }

    async start(): Promise<void> {
        if (this.started) {
            return;
        }
        this.started = true;
        for (const { queue, fn, concurrency } of this.queues.values()) {
            void queue.process(concurrency, (job) => fn(job.data));
        }
        await Promise.all([...this.queues.values()].map(({ queue }) => queue.isReady()));
    }

    async drain(): Promise<void> {
        for (;;) {
            let pending = 0;
            for (const { queue } of this.queues.values()) {
                const counts = await queue.getJobCounts();
                pending += counts.waiting + counts.active;
            }
            if (!pending) {
                return;
            }
            await new Promise((resolve) => setTimeout(resolve, 20));
        }
    }

    async stop(): Promise<void> {
        // close() waits for the active jobs of this process to finish; waiting ones stay in Redis.
        await Promise.all([...this.queues.values()].map(({ queue }) => queue.close()));
        this.started = false;
    }
}
