import type { Logger } from 'pino';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { Limit, LimitBackend } from '../../../core/http/rate-limit';
import { aiText } from '../texts';

/** What a customer reads when the store's AI budget is spent (the widget renders the code from its catalogue). */
export const AI_BUDGET_TEXT = aiText('en', 'budget');
export const AI_BUDGET_CODE = 'ai.budget_reached' as const;

/**
 * A store's ceiling on customers' AI questions (issue 25): at most `perHour` an hour and `perDay` in 24 hours,
 * counted per organization by every node together (in memory, or on Redis when REDIS_URL is set, like every
 * limit: core/http/rate-limit.ts). Many client addresses, each under its own limit, cannot run up a paid
 * provider's cost past it. Staff testing the agent (/api/ai/test) is not counted.
 */
export class AiBudget {
    private readonly hour: RateLimiterAbstract;
    private readonly day: RateLimiterAbstract;

    constructor(backend: LimitBackend, private readonly limits: { perHour: number; perDay: number }, private readonly log: Logger) {
        this.hour = new Limit(backend, { name: 'ai-budget-hour', points: limits.perHour, duration: 3600 }).limiter;
        this.day = new Limit(backend, { name: 'ai-budget-day', points: limits.perDay, duration: 86400 }).limiter;
    }

    /** Counts one question of the organization; false when its hourly or daily budget is spent. */
    async take(organizationId: number): Promise<boolean> {
        const key = String(organizationId);
        for (const [limiter, points, window] of [[this.hour, this.limits.perHour, 'hour'], [this.day, this.limits.perDay, 'day']] as const) {
            try {
                await limiter.consume(key);
            }
            catch (err) {
                if (!(err instanceof RateLimiterRes)) {
                    throw err;
                }
                if (err.consumedPoints === points + 1) {
                    // Once per window: the operator learns that customers now get the break answer.
                    this.log.warn({ organizationId, window, budget: points }, 'AI question budget of the store reached: customers get the break answer');
                }
                return false;
            }
        }
        return true;
    }
}
