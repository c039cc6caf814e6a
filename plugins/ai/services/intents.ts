/**
 * What a question asks for beyond the store's knowledge: a tier-2 tool on the customer's own loyalty account
 * (points, orders, recommendations) or a human. Recognised by patterns, before retrieval; the tools check
 * the verified phone themselves (ai-service.ts), whatever the question says.
 */
export type Intent = 'points' | 'orders' | 'recommendations' | 'human';

const PATTERNS: Array<[Intent, RegExp]> = [
    ['human', /\b(human|agent|live (help|chat|support|person)|support team|representative|real person|someone real|speak to (someone|a person)|talk to (someone|a person|somebody)|customer service)\b/],
    ['points', /\bhow many (loyalty |reward )?points (do|have) i (have|got)\b|\bhow many (loyalty |reward )?points (are )?(in|on) my\b|\b(points?|rewards?|my) balance\b|\bcheck (on )?my (loyalty |reward )?(points|rewards|account)\b|\b(what'?s|what is|what are|show( me)?|see|tell me) my (loyalty |reward |current )?(points|rewards)\b|\bmy points (total|balance)\b|\bpoints (do|have) i (have|got)\b/],
    ['orders', /\b(my|last|recent|previous|past) (\w+ )?(orders|purchases)\b|\bmy last (order|purchase)\b|\border history\b|\bwhat (did|have) i (buy|bought|order|ordered|purchase|purchased)\b/],
    ['recommendations', /\b(recommend|recommendations?|suggest|suggestions?)\b|\bwhat should i (buy|get|try)\b/]
];

export function intentOf(question: string): Intent | null {
    const q = question.toLowerCase().replace(/[’‘]/g, '\'');
    for (const [intent, pattern] of PATTERNS) {
        if (!pattern.test(q)) {
            continue;
        }
        return intent;
    }
    return null;
}
