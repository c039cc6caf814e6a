import Bull from 'bull';
import type { Logger } from 'pino';
import type { AddOptions, JobQueue, Processor } from './index';
import { MemoryQueue } from './memory-queue';

/** add() answers within this many ms whatever Redis does. */
export const ADD_TIMEOUT_MS = 750;
/**
 * A job whose add Redis has not answered (a hung server) waits this long for the late answer (Redis took it:
 * Bull runs it) before it runs in this process anyway.
 */
export const UNANSWERED_WAIT_MS = 30_000;
/** While Redis fails, its connections are probed this often to notice that it answers again. */
const PROBE_INTERVAL_MS = 500;
/** start() and stop() wait at most this long for Redis. */
const START_STOP_TIMEOUT_MS = 2000;

interface Entry { queue: Bull.Queue; fn: Processor; concurrency: number }

function timeout(ms: number): { promise: Promise<'timeout'>; cancel(): void } {
    let timer: NodeJS.Timeout | undefined;
    const promise = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), ms);
    });
    return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Bull on Redis: jobs survive a restart and are shared by every node. Bounded: while Redis is down, add()
 * runs the job in this process (the same processor, its delay kept) through an in-process runner and logs a
 * warning; when Redis does not answer within ADD_TIMEOUT_MS, add() answers anyway and the job waits for
 * Redis's late answer, running here if Redis refuses it or stays silent (so no job is lost, and a job a hung
 * Redis took late is not run twice). Every processor must be safe to run on any node (they are: analytics
 * ingest, transcripts, the live-chat wait timeout).
 */
export class BullQueue implements JobQueue {
    readonly backend = 'bull' as const;
    private readonly queues = new Map<string, Entry>();
    /** Runs the jobs Redis cannot take. */
    private readonly fallback: MemoryQueue;
    /** Adds Redis has not answered in time: each can be told to run its job here now (see stop). */
    private readonly unanswered = new Set<() => void>();
    private started = false;
    /** Redis fails: jobs run here until a probe of every queue's connection answers. */
    private failing = false;
    private ranHere = 0;
    private probeTimer: NodeJS.Timeout | null = null;
    private probing = false;

    constructor(private readonly redisUrl: string, private readonly prefix: string, private readonly log: Logger) {
        this.fallback = new MemoryQueue(log);
    }

    define<T>(name: string, processor: Processor<T>, options: { concurrency?: number } = {}): void {
        if (this.queues.has(name)) {
            throw new Error(`Job ${name} is already defined`);
        }
        const queue = new Bull(name, this.redisUrl, {
            prefix: `${this.prefix}:bull`,
            // Reconnect at least every 2 s (Bull's default backs off to 20 s, so jobs would stay local that long);
            // commands queued while disconnected fail after one reconnect attempt (Bull keeps its blocking
            // connections at null, as it requires).
            redis: { retryStrategy: (times: number) => Math.min(times * 100, 2000), maxRetriesPerRequest: 1 }
        });
        queue.on('error', (err) => this.log.warn({ err: err.message, job: name }, 'queue error'));
        queue.on('failed', (job, err) => this.log.warn({ err, job: name, attempt: job.attemptsMade }, 'job failed'));
        this.queues.set(name, { queue, fn: processor as Processor, concurrency: options.concurrency ?? 1 });
        this.fallback.define(name, processor, options);
    }

    async add<T>(name: string, data: T, options: AddOptions = {}): Promise<void> {
        const entry = this.queues.get(name);
        if (!entry) {
            throw new Error(`No processor for job ${name}`);
        }
        // Down (once started, a connection that is not ready is down): not sent at all, so it cannot also reach Redis later.
        if (this.failing || (this.started && entry.queue.client.status !== 'ready')) {
            this.fail();
            return this.runHere(name, data, options, Date.now(), 'Redis is unavailable');
        }
        const addedAt = Date.now();
        const outcome = entry.queue.add(data, {
            delay: options.delay,
            attempts: options.attempts ?? 3,
            jobId: options.jobId,
            backoff: { type: 'exponential', delay: 200 },
            removeOnComplete: true,
            removeOnFail: options.personalData ? true : 100
        }).then(() => 'added' as const, (err: Error) => err);
        const late = timeout(ADD_TIMEOUT_MS);
        const first = await Promise.race([outcome, late.promise]);
        late.cancel();
        if (first === 'added') {
            return;
        }
        this.fail();
        if (first instanceof Error) {
            return this.runHere(name, data, options, addedAt, first.message);
        }
        // Sent, unanswered: Redis may still take it. Answer now; the job runs here only if Redis refuses it or stays silent.
        this.log.warn({ job: name, ms: ADD_TIMEOUT_MS }, 'Redis did not answer a job add in time: the job runs here unless Redis takes it late');
        void this.awaitLateAnswer(name, data, options, addedAt, outcome);
    }

    private async awaitLateAnswer<T>(name: string, data: T, options: AddOptions, addedAt: number, outcome: Promise<'added' | Error>): Promise<void> {
        let now!: () => void;
        const forced = new Promise<'now'>((resolve) => {
            now = () => resolve('now');
        });
        this.unanswered.add(now);
        const silent = timeout(UNANSWERED_WAIT_MS);
        const result = await Promise.race([outcome, silent.promise, forced]);
        silent.cancel();
        this.unanswered.delete(now);
        if (result === 'added') {
            return;
        }
        const reason = result instanceof Error ? result.message
            : 'Redis did not answer the add (if it takes it later, the job runs twice)';
        await this.runHere(name, data, options, addedAt, reason).catch((err) => this.log.error({ err, job: name }, 'job lost'));
    }

    /** The job through the in-process runner; a delayed job keeps what is left of its delay. */
    private async runHere<T>(name: string, data: T, options: AddOptions, addedAt: number, reason: string): Promise<void> {
        // One warning per outage (its count comes with the recovery's), not one per job.
        if (this.ranHere++ === 0) {
            this.log.warn({ job: name, reason }, 'job runs in this process');
        }
        else {
            this.log.debug({ job: name, reason }, 'job runs in this process');
        }
        const delay = options.delay ? Math.max(0, options.delay - (Date.now() - addedAt)) : undefined;
        await this.fallback.add(name, data, { delay, attempts: options.attempts, jobId: options.jobId });
    }

    /** Redis fails: jobs run here until every queue's connection answers a PING. */
    private fail(): void {
        if (this.failing) {
            return;
        }
        this.failing = true;
        this.log.warn('Redis does not take jobs: they run in this process until it answers');
        this.probeTimer = setInterval(() => this.probe(), PROBE_INTERVAL_MS);
        this.probeTimer.unref();
    }

    private probe(): void {
        if (this.probing) {
            return;
        }
        this.probing = true;
        Promise.all([...this.queues.values()].map(({ queue }) => queue.client.ping()))
            .then(() => {
                if (this.probeTimer) {
                    clearInterval(this.probeTimer);
                    this.probeTimer = null;
                }
                this.failing = false;
                this.log.warn({ ranHere: this.ranHere }, 'Redis takes jobs again');
                this.ranHere = 0;
            })
            .catch(() => { /* not yet */ })
            .finally(() => {
                this.probing = false;
            });
    }

    async start(): Promise<void> {
        if (this.started) {
            return;
        }
        for (const { queue, fn, concurrency } of this.queues.values()) {
            void queue.process(concurrency, (job) => fn(job.data)).catch((err) => this.log.warn({ err }, 'queue processing stopped'));
        }
        await this.fallback.start();
        const ready = Promise.all([...this.queues.values()].map(async ({ queue }) => {
            await queue.isReady();
            const client = queue.client;
            if (client.status !== 'ready') {
                await new Promise((resolve) => client.once('ready', resolve));
            }
        }));
        const late = timeout(START_STOP_TIMEOUT_MS);
        const first = await Promise.race([ready, late.promise]);
        late.cancel();
        this.started = true;
        if (first === 'timeout') {
            this.fail();
        }
    }

    async drain(): Promise<void> {
        for (;;) {
            await this.fallback.drain();
            let pending = this.unanswered.size;
            if (!this.failing) {
                for (const { queue } of this.queues.values()) {
                    const counts = await queue.getJobCounts();
                    pending += counts.waiting + counts.active;
                }
            }
            if (!pending) {
                return;
            }
            await new Promise((resolve) => setTimeout(resolve, 20));
        }
    }

    async stop(): Promise<void> {
        if (this.probeTimer) {
            clearInterval(this.probeTimer);
            this.probeTimer = null;
        }
        // Adds Redis never answered run here before the in-process runner stops (not lost).
        for (const now of [...this.unanswered]) {
            now();
        }
        await new Promise((resolve) => setImmediate(resolve));
        await this.fallback.stop();
        // close() waits for the active jobs of this process to finish; waiting ones stay in Redis. Bounded: with
        // Redis down, the connections are dropped.
        const closing = Promise.all([...this.queues.values()].map(({ queue }) => queue.close()));
        const late = timeout(START_STOP_TIMEOUT_MS);
        if (await Promise.race([closing, late.promise]) === 'timeout') {
            this.log.warn('Redis did not answer while the job queue stopped: connections dropped');
            for (const { queue } of this.queues.values()) {
                for (const client of (queue as unknown as { clients: Array<{ disconnect(): void }> }).clients) {
                    client.disconnect();
                }
            }
        }
        late.cancel();
        this.started = false;
    }
}
