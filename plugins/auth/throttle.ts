import type { Request, Server } from '@hapi/hapi';
import { Limit } from '../../core/http/rate-limit';

export const TOO_MANY_LOGINS = 'Too many failed login attempts. Please try again later.';

/**
 * Login throttling (DESIGN §7): at most 5 failed logins per client IP in 5 minutes and 10 per email in
 * 15 minutes, on every login endpoint together. Only failures count; once a key is exhausted every login
 * for it answers 429 with Retry-After until the window ends, even with the right password. Shared by all
 * nodes through Redis when REDIS_URL is set.
 */
export class LoginThrottle {
    private readonly byIp: Limit;
    private readonly byEmail: Limit;

    constructor(private readonly server: Server) {
        this.byIp = new Limit(server.app, { name: 'login-ip', points: 5, duration: 5 * 60 });
        this.byEmail = new Limit(server.app, { name: 'login-email', points: 10, duration: 15 * 60 });
    }

    /** The client address: the first X-Forwarded-For hop when TRUST_PROXY is on, else the socket's. */
    clientIp(request: Request): string {
        if (this.server.app.config.trustProxy) {
            const forwarded = request.headers['x-forwarded-for'];
            const first = typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : '';
            if (first) {
                return first;
            }
        }
        return request.info.remoteAddress;
    }

    private static emailKey(email: string): string {
        return email.trim().toLowerCase();
    }

    /**
     * Reserves one failure for the IP and the email before the password is checked, so a burst of parallel
     * guesses cannot slip past the limit; throws 429 + Retry-After when either has none left. Call the
     * returned function when the login succeeds: it gives the reservation back (only failures count).
     */
    async begin(request: Request, email: string): Promise<() => Promise<void>> {
        const ip = this.clientIp(request);
        const mail = LoginThrottle.emailKey(email);
        await this.byIp.consume(ip, TOO_MANY_LOGINS);
        try {
            await this.byEmail.consume(mail, TOO_MANY_LOGINS);
        }
        catch (err) {
            await this.byIp.limiter.reward(ip, 1);
            throw err;
        }
        return async () => {
            await Promise.all([this.byIp.limiter.reward(ip, 1), this.byEmail.limiter.reward(mail, 1)]);
        };
    }
}
