import { AnalyticsService } from '../services/analytics-service';

const DAY = 86400000;
const AREAS = ['212', '646', '718', '917', '305', '415'];

export interface GenerateOptions {
    organizationId: number;
    /** How many events to write (at least this many; a visit's events are kept together). */
    events: number;
    /** Spread over the last `days` days. */
    days: number;
    /** The store's domains (the first gets most visits). */
    domains: string[];
    /** Bot instance the events name, if any. */
    botInstanceId?: number | null;
    /**
     * The store's loyalty members (services.loyalty.members): the only phones that are sent a code, shown points (their
     * own balance) or shown orders (only members who have some). Every other phone is "Customer not found". None: no
     * points or orders events at all.
     */
    members: ReadonlyArray<{ phone: string; points: number; orders: number }>;
    seed?: number;
    now?: number;
    /** Events per transaction (default 5000). */
    batchSize?: number;
    onProgress?: (written: number) => void;
}

/** A deterministic random generator (a linear congruential one), so a demo or bench run can be repeated. */
export function seeded(seed: number): () => number {
    let s = seed >>> 0 || 1;
    return () => {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        return s / 4294967296;
    };
}

/**
 * Realistic demo analytics (`loyalty-chat analytics generate`, the bench): widget visits spread over the days
 * with a daytime peak, each loading the widget, often opening it, clicking questions, checking points with a
 * code (sometimes a wrong code or an unknown number), viewing orders or asking for a human. Points and orders are the
 * store's members' own (o.members): no phone the store does not know is ever shown points or orders. Written through
 * the ingest path, so the rollups are kept as for real events. Returns the number of events written.
 */
export async function generateEvents(service: AnalyticsService, o: GenerateOptions): Promise<number> {
    const rnd = seeded(o.seed ?? 1);
    const now = o.now ?? Date.now();
    const memberPhones = new Set(o.members.map((m) => m.phone));
    // Numbers the store does not know (a typo, a friend's phone): only ever "Customer not found".
    const strangers = Array.from({ length: Math.max(50, Math.round(o.events / 250)) }, () =>
        `+1${AREAS[Math.floor(rnd() * AREAS.length)]}555${String(Math.floor(rnd() * 10000)).padStart(4, '0')}`)
        .filter((phone) => !memberPhones.has(phone));
    const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
    const batchSize = o.batchSize ?? 5000;
    let rows: Array<Record<string, unknown>> = [];
    let written = 0;
    let visit = 0;
    const flush = async () => {
        if (rows.length) {
            await service.ingest(rows);
            written += rows.length;
            rows = [];
            o.onProgress?.(written);
        }
    };
    while (written + rows.length < o.events) {
        visit += 1;
        // Days evenly, hours around 14:00 local-ish (a triangular spread over the day).
        const dayStart = now - Math.floor(rnd() * o.days) * DAY;
        let t = dayStart - DAY / 2 + Math.floor(((rnd() + rnd()) / 2) * DAY);
        if (t > now - 10 * 60_000) {
            t -= DAY;               // later today has not happened yet: the same hour yesterday
        }
        t = Math.max(t, now - o.days * DAY + 1000);
        const domain = rnd() < 0.7 ? o.domains[0] : pick(o.domains);
        const sessionId = `widget_${t}_${visit.toString(36)}`;
        const add = (action: string, extra: Record<string, unknown> = {}) => {
            t += 5000 + Math.floor(rnd() * 60000);
            rows.push(AnalyticsService.toRow({
                organizationId: o.organizationId, botInstanceId: o.botInstanceId ?? null, sessionId, action, domain,
                createdAt: Math.min(t, now - 1), ...extra
            }));
        };
        add('widget_loaded');
        if (rnd() < 0.6) {
            add('widget_opened');
            if (rnd() < 0.45) {
                add('question_clicked', { questionId: 1 + Math.floor(rnd() * 5) });
                if (rnd() < 0.3) {
                    add('question_clicked', { questionId: 1 + Math.floor(rnd() * 5) });
                }
            }
            if (rnd() < 0.35) {
                if (!o.members.length || rnd() < 0.1) {
                    // Not a member: the code is never sent (the widget's "Customer not found"); half of them typos.
                    const typo = rnd() < 0.5;
                    add('verification_failed', { phoneNumber: typo ? null : pick(strangers), success: false, errorMessage: 'Customer not found' });
                }
                else {
                    const member = pick(o.members as Array<{ phone: string; points: number; orders: number }>);
                    const phone = member.phone;
                    add('verification_sent', { phoneNumber: phone, success: true });
                    if (rnd() < 0.2) {
                        add('code_verification_failed', { phoneNumber: phone, success: false, errorMessage: 'Invalid or expired code' });
                    }
                    if (rnd() < 0.85) {
                        add('points_retrieved', { phoneNumber: phone, success: true, pointsRetrieved: member.points });
                        if (member.orders > 0 && rnd() < 0.15) {
                            const ok = rnd() < 0.9;
                            add('order_history_viewed', { phoneNumber: phone, success: ok, errorMessage: ok ? null : 'Provider timeout' });
                        }
                    }
                }
            }
            if (rnd() < 0.08) {
                add('live_chat_requested');
            }
        }
        if (rows.length >= batchSize) {
            await flush();
        }
    }
    await flush();
    return written;
}
