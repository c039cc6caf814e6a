import type { Logger } from 'pino';
import type { AddOptions, JobQueue, Processor } from './index';

interface Pending {
    name: string;
    data: unknown;
    attempts: number;
    attempt: number;
    jobId?: string;
}

/** In-process job runner: same contract as Bull, kept in memory, for the embedded default. */
export class MemoryQueue implements JobQueue {
    readonly backend = 'memory' as const;
    private readonly processors = new Map<string, { fn: Processor; concurrency: number; running: number; queue: Pending[] }>();
    private readonly timers = new Set<NodeJS.Timeout>();
    private readonly ids = new Set<string>();
    private started = false;
    private stopping = false;
    private idleWaiters: Array<() => void> = [];

    constructor(private readonly log: Logger) {}

    define<T>(name: string, processor: Processor<T>, options: { concurrency?: number } = {}): void {
        if (this.processors.has(name)) {
            throw new Error(`Job ${name} is already defined`);
        }
        this.processors.set(name, { fn: processor as Processor, concurrency: options.concurrency ?? 1, running: 0, queue: [] });
    }

    async add<T>(name: string, data: T, options: AddOptions = {}): Promise<void> {
        const entry = this.processors.get(name);
        if (!entry) {
            throw new Error(`No processor for job ${name}`);
        }
        if (this.stopping) {
            throw new Error('Job queue is stopping');
        }
        if (options.jobId) {
            if (this.ids.has(options.jobId)) {
                return;
            }
            this.ids.add(options.jobId);
        }
        const job: Pending = { name, data, attempts: options.attempts ?? 3, attempt: 0, jobId: options.jobId };
        if (options.delay && options.delay > 0) {
            const timer = setTimeout(() => {
                this.timers.delete(timer);
                entry.queue.push(job);
                this.pump(name);
            }, options.delay);
            timer.unref();
            this.timers.add(timer);
            return;
        }
        entry.queue.push(job);
        this.pump(name);
    }

    private pump(name: string): void {
        const entry = this.processors.get(name)!;
        if (!this.started) {
            return;
        }
        while (entry.running < entry.concurrency && entry.queue.length) {
            const job = entry.queue.shift()!;
            entry.running++;
            job.attempt++;
            entry.fn(job.data)
                .then(() => {
                    if (job.jobId) {
                        this.ids.delete(job.jobId);
                    }
                })
                .catch((err) => {
                    if (job.attempt < job.attempts) {
                        this.log.warn({ err, job: name, attempt: job.attempt }, 'job failed, retrying');
                        entry.queue.push(job);
                    }
                    else {
                        this.log.error({ err, job: name }, 'job failed');
                        if (job.jobId) {
                            this.ids.delete(job.jobId);
                        }
                    }
                })
                .finally(() => {
                    entry.running--;
                    this.pump(name);
                    this.checkIdle();
                });
        }
        this.checkIdle();
    }

    private busy(): boolean {
        for (const entry of this.processors.values()) {
            if (entry.running || entry.queue.length) {
                return true;
            }
        }
        return false;
    }

    private checkIdle(): void {
        if (!this.busy()) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            waiters.forEach((resolve) => resolve());
        }
    }

    async start(): Promise<void> {
        this.started = true;
        this.stopping = false;
        for (const name of this.processors.keys()) {
            this.pump(name);
        }
    }

    drain(): Promise<void> {
        if (!this.busy()) {
            return Promise.resolve();
        }
        return new Promise((resolve) => this.idleWaiters.push(resolve));
    }

    async stop(): Promise<void> {
        this.stopping = true;
        for (const timer of this.timers) {
            clearTimeout(timer);
        }
        this.timers.clear();
        await this.drain();
        this.started = false;
    }
}
