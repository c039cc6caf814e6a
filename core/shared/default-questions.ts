/**
 * The five default questions of SPEC §9 (loyalty points, redeeming points in store, live support, store hours,
 * earning points) with the FAQ content of SPEC §9: what a new store starts with, and what the admin app and
 * the widget fall back to when the store's questions cannot be loaded. One module, imported by the server,
 * the admin app and the widget; it must stay free of imports.
 */
export interface DefaultQuestion {
    question: string;
    answer: string;
    /** What the widget does with it (core/types/api.ts QuestionKind; repeated here: this module imports nothing). */
    kind: 'answer' | 'loyalty_check' | 'live_support';
}

export const DEFAULT_QUESTIONS: readonly DefaultQuestion[] = [
    { question: 'Check my loyalty points', answer: 'Sure! Please enter the phone number linked to your loyalty account and I will text you a 6-digit code (for example 123456) to verify it.', kind: 'loyalty_check' },
    { question: 'How do I redeem points in store?', answer: 'Tell the cashier your phone number at checkout and choose how many points to apply. Every 100 points take $5 off your purchase.', kind: 'answer' },
    { question: 'Talk to live support', answer: 'I can connect you with a member of our team. One moment while I check who is available.', kind: 'live_support' },
    { question: 'What are your store hours?', answer: 'We are open Monday-Saturday 9AM-8PM and Sunday 10AM-6PM.', kind: 'answer' },
    { question: 'How do I earn points?', answer: 'You earn 1 point for every $1 spent, plus bonus points during promotions.', kind: 'answer' }
];
