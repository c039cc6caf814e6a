import { DEFAULT_QUESTIONS as DEFAULTS } from '../../core/shared/default-questions';
import en from '../locales/en.json';

/**
 * The widget's texts (issue 27): the catalogue of the customer's language (widget/locales/<lang>.json, ICU
 * MessageFormat compiled to functions at build time by config/messages-loader.js; English = SPEC §8 word for word).
 * English comes with the panel; another language is set by the loader before the panel mounts (languages.ts).
 * Call sites use `t(key, args)`, or the older names of TEXT, which are thin lookups.
 */
export type TextKey = Exclude<keyof typeof en, `@${string}` | `error.${string}` | `rating.${string}` | `files.${string}` | `offline.${string}` | `email.${string}` | 'launcherOpen'>;
/** A language's texts; its `error.<code>` texts are read by errorText (English's are the server's own messages). */
export type Messages = Record<TextKey, (args?: Record<string, unknown>) => string>;

/** The webpack messages rule made the JSON a module of functions (the JSON type gives the keys). */
const ENGLISH = en as unknown as Messages;
let current: Messages = ENGLISH;
let currentLanguage = 'en';

/** The language the panel shows (null messages: English, which the panel carries). */
export function setLanguage(lang: string, messages: Messages | null): void {
    current = messages ?? ENGLISH;
    currentLanguage = messages ? lang : 'en';
}

export function language(): string {
    return currentLanguage;
}

export function t(key: TextKey, args?: Record<string, unknown>): string {
    return current[key](args);
}

/**
 * A server error as the customer reads it: the catalogue's text for its code (the server sends a stable `code`
 * beside its English `message`), else the server's message (a code this widget does not know yet).
 */
export function errorText(error: { code?: string; message: string; args?: Record<string, unknown> }): string {
    const text = error.code ? (current as Record<string, Messages[TextKey] | undefined>)[`error.${error.code}`] : undefined;
    return text ? text(error.args) : error.message;
}

/** The SPEC §8 names of the texts, as lookups in the current language. */
export const TEXT = {
    greeting: (store: string) => t('greeting', { store }),
    get askPhone() { return t('askPhone'); },
    get codeSent() { return t('codeSent'); },
    points: (points: number) => t('points', { points }),
    get notFound() { return t('notFound'); },
    verifyError: (message: string) => t('verifyError', { message }),
    get verifyNetwork() { return t('verifyNetwork'); },
    wrongCode: (message: string) => t('wrongCode', { message }),
    get codeNetwork() { return t('codeNetwork'); },
    get offlineSent() { return t('offlineSent'); },
    get liveUnavailable() { return t('liveUnavailable'); },
    get liveError() { return t('liveError'); },
    get liveChecking() { return t('liveChecking'); },
    get liveWaiting() { return t('liveWaiting'); },
    get liveConnected() { return t('liveConnected'); },
    get liveEnded() { return t('liveEnded'); },
    get fallback() { return t('fallback'); },
    get moreHelp() { return t('moreHelp'); },
    get aiNotResolved() { return t('aiNotResolved'); }
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
