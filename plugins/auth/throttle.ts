import type { Request, Server } from '@hapi/hapi';
import { Limit, tooMany } from '../../core/http/rate-limit';

export const TOO_MANY_LOGINS = 'Too many failed login attempts. Please try again later.';

/**
 * Login throttling (DESIGN §7): at most 5 failed logins per client IP in 5 minutes and 10 per email in
 * 15 minutes, on every login endpoint together. Only failures count; once a key is exhausted every login
 * for it answers 429 with Retry-After until the window ends, even with the right password.
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

    /** Throws 429 + Retry-After when this IP or this email has no failures left. */
    async check(request: Request, email: string): Promise<void> {
        const [ip, mail] = await Promise.all([
            this.byIp.exhausted(this.clientIp(request)),
            this.byEmail.exhausted(LoginThrottle.emailKey(email))
        ]);
        if (ip.limited || mail.limited) {
            throw tooMany(TOO_MANY_LOGINS, Math.max(ip.limited ? ip.retryAfterMs : 0, mail.limited ? mail.retryAfterMs : 0));
        }
    }

    /** Counts one failed login for the IP and the email. Never throws a 429 itself: the next attempt does. */
    async fail(request: Request, email: string): Promise<void> {
        await Promise.all([
            this.byIp.limiter.penalty(this.clientIp(request), 1),
            this.byEmail.limiter.penalty(LoginThrottle.emailKey(email), 1)
        ]);
    }
}
