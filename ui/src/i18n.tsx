/**
 * The admin app's texts (issue 27): catalogues in ui/locales/<lang>.json (ICU MessageFormat, compiled to functions
 * at build time by config/messages-loader.js: no message parser in the bundle; checked against English by the build
 * and test/unit/catalogues.test.ts). Components read them with `useT()` (`t('shell.logout')`,
 * `t('shell.signedInAs', { email })`) or `<T id="…" />`.
 *
 * The agent's language: their profile's (remembered on this browser, so the login pages speak it too), else the browser's
 * languages, else English. English is in the main bundle; every other language is a chunk of its own, fetched before the
 * app first renders in it or when the agent chooses it.
 */
import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { chooseLanguage } from '../../core/shared/languages';
import en from '../locales/en.json';

export type AdminTextKey = Exclude<keyof typeof en, `@${string}`>;
export type Translate = (key: AdminTextKey, args?: Record<string, unknown>) => string;
type Messages = Record<AdminTextKey, (args?: Record<string, unknown>) => string>;

/** The webpack messages rule made each JSON a module of functions (the JSON type gives the keys). */
const ENGLISH = en as unknown as Messages;

/** The other languages: each a chunk of its own, fetched when an agent's language is it (adding one: a line here). */
const CHUNKS: Record<string, () => Promise<{ default: unknown }>> = {
    es: () => import(/* webpackChunkName: "lang-es" */ '../locales/es.json'),
    fr: () => import(/* webpackChunkName: "lang-fr" */ '../locales/fr.json'),
    'pt-BR': () => import(/* webpackChunkName: "lang-pt-BR" */ '../locales/pt-BR.json'),
    de: () => import(/* webpackChunkName: "lang-de" */ '../locales/de.json'),
    ar: () => import(/* webpackChunkName: "lang-ar" */ '../locales/ar.json')
};

/** The languages the admin app ships. */
export const ADMIN_LANGUAGES = ['en', ...Object.keys(CHUNKS)];

/** Pseudo-localized English (src/pseudo.ts): what the tests at phone width choose to see truncation and overflow. */
export const PSEUDO = 'en-XA';
CHUNKS[PSEUDO] = () => import(/* webpackChunkName: "lang-pseudo" */ './pseudo').then((m) => ({ default: m.pseudoMessages(ENGLISH) }));

const loaded = new Map<string, Messages>([['en', ENGLISH]]);

/** Where the agent's choice is remembered on this browser (the login pages, before the profile is known, speak it too). */
const STORAGE_KEY = 'lc-admin-lang';

function remembered(): string | null {
    try {
        return localStorage.getItem(STORAGE_KEY);
    }
    catch {
        return null;
    }
}

/** The agent's language: their profile's when set (remembered on this browser), else the browser's first shipped one, else English. */
export function adminLanguage(profile?: string | null): string {
    const browser = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
    const wish = profile ?? remembered();
    return wish === PSEUDO ? PSEUDO : chooseLanguage([wish, ...browser], ADMIN_LANGUAGES, 'en');
}

/** Fetches a language's catalogue (English: at hand); a language that cannot be loaded stays English. */
export function loadLanguage(lang: string): Promise<void> {
    const chunk = CHUNKS[lang];
    if (loaded.has(lang) || !chunk) {
        return Promise.resolve();
    }
    return chunk().then((m) => {
        loaded.set(lang, m.default as Messages);
    }, (err) => console.warn(`the ${lang} texts could not be loaded: English instead`, err));
}

function translator(lang: string): Translate {
    const messages = loaded.get(lang) ?? ENGLISH;
    return (key, args) => messages[key](args);
}

interface I18n {
    lang: string;
    t: Translate;
    /** The agent chose a language (null: the browser's): remembered on this browser, fetched, then shown. */
    setLanguage(lang: string | null): void;
}

const I18nContext = createContext<I18n>({ lang: 'en', t: translator('en'), setLanguage: () => undefined });

export function I18nProvider({ lang: initial, children }: { lang: string; children: ReactNode }) {
    const [lang, setLang] = useState(initial);
    const setLanguage = useCallback((choice: string | null) => {
        try {
            if (choice) {
                localStorage.setItem(STORAGE_KEY, choice);
            }
            else {
                localStorage.removeItem(STORAGE_KEY);
            }
        }
        catch { /* storage blocked: this page only */ }
        const next = adminLanguage(choice);
        void loadLanguage(next).then(() => setLang(next));
    }, []);
    const shown = loaded.has(lang) ? lang : 'en';
    const value = useMemo(() => ({ lang: shown, t: translator(shown), setLanguage }), [shown, setLanguage]);
    useEffect(() => {
        document.documentElement.lang = shown;
        // Arabic reads right to left: the whole app mirrors (Blueprint follows the document's direction).
        document.documentElement.dir = /^(ar|he|fa|ur)\b/i.test(shown) ? 'rtl' : 'ltr';
    }, [shown]);
    return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The text lookup of the agent's language. */
export function useT(): Translate {
    return useContext(I18nContext).t;
}

export function useLanguage(): string {
    return useContext(I18nContext).lang;
}

export function useSetLanguage(): (lang: string | null) => void {
    return useContext(I18nContext).setLanguage;
}

/** A text as an element: `<T id="shell.logout" />`. */
export function T({ id, values }: { id: AdminTextKey; values?: Record<string, unknown> }) {
    return <>{useT()(id, values)}</>;
}
