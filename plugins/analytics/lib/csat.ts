import type { CsatReport } from '../../../core/types/api';
import { dayKey, daysBetween, DayRange } from './time';

/** What live chat tells the report (its declared service livechatRatings.qualityFacts; analytics never reads its tables). */
export interface QualityFactsInput {
    ratings: Array<{ score: number; agentId: number | null; at: number }>;
    handled: Array<{ agentId: number; handlingMs: number | null }>;
    firstResponses: Array<{ agentId: number; valueMs: number }>;
}

const mean = (values: number[]) => (values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100 : 0);

/** The middle value (the mean of the two middle ones for an even count), or null for none. */
export function median(values: number[]): number | null {
    if (!values.length) {
        return null;
    }
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The CSAT report (issue 28) of one store's range: every rating given in the range's local days (the store's zone),
 * its distribution and daily trend, and the one per-agent report (DESIGN §10): ratings, chats handled, median first
 * response and median handling time, in seconds. Agents are named by `names` (a removed user keeps a placeholder).
 */
export function csatReport(facts: QualityFactsInput, range: DayRange, timeZone: string, names: Map<number, string>): CsatReport {
    const distribution: CsatReport['distribution'] = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
    const days = new Map(daysBetween(range.fromDay, range.toDay).map((date) => [date, [] as number[]]));
    for (const r of facts.ratings) {
        distribution[String(r.score) as keyof CsatReport['distribution']] += 1;
        days.get(dayKey(r.at, timeZone))?.push(r.score);
    }
    const agents = new Map<number, { scores: number[]; chats: number; first: number[]; handling: number[] }>();
    const agent = (id: number) => {
        let a = agents.get(id);
        if (!a) {
            a = { scores: [], chats: 0, first: [], handling: [] };
            agents.set(id, a);
        }
        return a;
    };
    for (const r of facts.ratings) {
        if (r.agentId !== null) {
            agent(r.agentId).scores.push(r.score);
        }
    }
    for (const c of facts.handled) {
        const a = agent(c.agentId);
        a.chats += 1;
        if (c.handlingMs !== null) {
            a.handling.push(c.handlingMs);
        }
    }
    for (const f of facts.firstResponses) {
        agent(f.agentId).first.push(f.valueMs);
    }
    const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));
    const scores = facts.ratings.map((r) => r.score);
    return {
        responses: scores.length,
        average: mean(scores),
        distribution,
        byAgent: [...agents].map(([agentId, a]) => ({
            agentId,
            name: names.get(agentId) ?? `#${agentId}`,
            responses: a.scores.length,
            average: mean(a.scores),
            chats: a.chats,
            medianFirstResponseSeconds: seconds(median(a.first)),
            medianHandlingSeconds: seconds(median(a.handling))
        })).sort((x, y) => y.chats - x.chats || y.responses - x.responses || x.name.localeCompare(y.name)),
        daily: [...days].map(([date, list]) => ({ date, responses: list.length, average: mean(list) })),
        range: { startDate: range.fromDay, endDate: range.toDay, timeZone }
    };
}
