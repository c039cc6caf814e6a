/**
 * What a question asks for beyond the store's knowledge: a tier-2 tool on the customer's own loyalty account
 * (points, orders, recommendations) or a human. Recognised by patterns, before retrieval; the tools check
 * the verified phone themselves (ai-service.ts), whatever the question says.
 */
export type Intent = 'points' | 'orders' | 'recommendations' | 'human';

const PATTERNS: Array<[Intent, RegExp]> = [
    ['human', /\b(human|agent|live (help|chat|support|person)|support team|representative|real person|someone real|speak to (someone|a person)|talk to (someone|a person|somebody)|customer service)\b/],
    ['points', /\b(how many|my|check( my)?|what'?s my|what is my|show( me)? my|see my)\b[^.?!]{0,30}\b(points?|rewards? balance|balance)\b|\bpoints? balance\b|\bbalance\b/],
    ['orders', /\b(my|last|recent|previous|past)\b[^.?!]{0,20}\b(orders?|purchases?)\b|\border history\b|\bwhat (did|have) i (buy|bought|order|ordered|purchase|purchased)\b/],
    ['recommendations', /\b(recommend|recommendations?|suggest|suggestions?)\b|\bwhat should i (buy|get|try)\b/]
];

/** Questions about the program in general, never about the customer's own account ("how do I earn points?"). */
const GENERAL = /\b(how (do|can|to)|when do|do (my )?points|expire|earn|redeem|worth|join|sign up|track)\b/;

export function intentOf(question: string): Intent | null {
    const q = question.toLowerCase().replace(/[’‘]/g, '\'');
    for (const [intent, pattern] of PATTERNS) {
        if (!pattern.test(q)) {
            continue;
        }
        if ((intent === 'points' || intent === 'orders') && GENERAL.test(q) && !/\bhow many points do i have\b|\bbalance\b/.test(q)) {
            continue;
        }
        return intent;
    }
    return null;
}
