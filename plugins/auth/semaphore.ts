/**
 * At most `limit` tasks at once; the rest wait in order. Password checks use scrypt with 8 MiB each
 * (OWASP parameters; an older hash's up to 128 MiB), so a burst of logins from many addresses must not run them all at once.
 */
export class Semaphore {
    private active = 0;
    private readonly waiting: (() => void)[] = [];

    constructor(private readonly limit: number) {}

    async run<T>(task: () => Promise<T>): Promise<T> {
        if (this.active >= this.limit) {
            await new Promise<void>((resolve) => this.waiting.push(resolve));
        }
        else {
            this.active += 1;
        }
        try {
            return await task();
        }
        finally {
            const next = this.waiting.shift();
            if (next) {
                next();         // hands the slot over: active stays the same
            }
            else {
                this.active -= 1;
            }
        }
    }
}
