import { DEFAULT_QUESTIONS as DEFAULTS } from '../../core/shared/default-questions';

/** The widget's texts: SPEC §8 error catalogue and the built-in default questions (SPEC §9). */
export const TEXT = {
    greeting: (store: string) => `Hi! Welcome to ${store} support. How can I help you today? Choose a question below or type your message.`,
    askPhone: 'Please enter the phone number linked to your loyalty account.',
    codeSent: 'I sent a 6-digit verification code to your phone. Please enter it below.',
    points: (points: number) => `You have ${points.toLocaleString('en-US')} loyalty points. Is there anything else I can help you with?`,
    notFound: "I couldn't find that phone number in our system. You can sign up for our loyalty program in any store!",
    verifyError: (message: string) => `Error: ${message}`,
    verifyNetwork: "Sorry, I'm having trouble connecting. Please try again.",
    wrongCode: (message: string) => `Error: ${message}. Please try entering the code again.`,
    codeNetwork: "Sorry, I'm having trouble verifying the code. Please try again.",
    offlineSent: 'Thanks! Your message was sent to the store, which will answer by email.',
    liveUnavailable: "I'm sorry, but our live support team is currently unavailable. Please try again later or continue with the pre-made questions for quick help.",
    liveError: "Sorry, I couldn't connect you to live support right now. Please try again later.",
    liveChecking: 'Let me check if a member of our team is available...',
    liveWaiting: 'Connecting you with a member of our team. Please wait a moment...',
    liveConnected: "You're connected! A member of our team will reply here shortly.",
    liveEnded: 'The live chat has ended. You can continue with the questions below.',
    fallback: "I'm not sure about that one. Please choose one of the questions below, or type 'agent' to talk to a member of our team.",
    moreHelp: 'What else can I help you with?',
    aiNotResolved: "Sorry I couldn't help. Choose a question below, or type 'agent' to talk to a member of our team.",
    /** The store's AI question budget is spent for now (the answer's code 'ai_budget_reached'). */
    aiBudget: 'Our assistant is taking a short break. You can still choose a question below or ask for a member of our team.'

};

export type QuestionKind = 'answer' | 'loyalty_check' | 'live_support';

export interface FaqItem {
    id: number;
    question: string;
    answer: string;
    /** What choosing it does; never guessed from the text (issue 11). */
    kind: QuestionKind;
}

/**
 * The five built-in default questions (the server's and the admin app's list, core/shared) with the ids 1 to 5
 * of SPEC §3, used when loading the store's questions fails (SPEC §8).
 */
export const DEFAULT_QUESTIONS: FaqItem[] = DEFAULTS.map((q, index) => ({ id: index + 1, question: q.question, answer: q.answer, kind: q.kind }));

/** Typed words that ask for a person (SPEC §4). */
export const LIVE_WORDS = /\b(human|agent|live help|support|representative)\b/i;
/** Typed (not chosen) text that asks for the points check. */
export const LOYALTY_WORDS = /\b(loyalty points|my points|check (my )?points)\b/i;
