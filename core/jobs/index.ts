import type { Logger } from 'pino';

export type Processor<T = any> = (data: T) => Promise<void>;

export interface AddOptions {
    /** Delay in milliseconds before the job runs. */
    delay?: number;
    /** Attempts before the job is given up (default 3). */
    attempts?: number;
    /** A job id: a second add with the same id is ignored while the first is pending. */
    jobId?: string;
    /**
     * The payload holds customers' data (DESIGN §10): a job that failed for good is removed, not kept for inspection
     * (Bull keeps the last 100 failed jobs otherwise), so nothing of an erased customer stays in the queue.
     */
    personalData?: boolean;
}

/**
 * The job queue every feature uses: Bull on Redis when REDIS_URL is set, an in-process runner otherwise.
 * Both call the same processors, defined once per queue name.
 */
export interface JobQueue {
    readonly backend: 'memory' | 'bull';
    define<T>(name: string, processor: Processor<T>, options?: { concurrency?: number }): void;
    add<T>(name: string, data: T, options?: AddOptions): Promise<void>;
    start(): Promise<void>;
    /** Stops taking jobs and waits for the running and already queued in-process jobs to finish. */
    stop(): Promise<void>;
    /** Resolves when nothing is queued or running (in-process); used by tests and shutdown. */
    drain(): Promise<void>;
}

export { MemoryQueue } from './memory-queue';
export { BullQueue } from './bull-queue';

export function backoff(attempt: number): number {
    return Math.min(100 * 2 ** attempt, 5000);
}

export type { Logger };
