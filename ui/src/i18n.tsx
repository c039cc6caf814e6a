/**
 * The admin app's texts (issue 27): catalogues in ui/locales/<lang>.json (ICU MessageFormat, compiled to functions
 * at build time by config/messages-loader.js: no message parser in the bundle; checked against English by the build
 * and test/unit/catalogues.test.ts). Components read them with `useT()` (`t('shell.logout')`,
 * `t('shell.signedInAs', { email })`) or `<T id="…" />`.
 *
 * The agent's language: a profile setting once staff have one (`I18nProvider lang`), else the browser's languages,
 * else English. English is in the main bundle; other languages will be chunks of their own, fetched when chosen.
 */
import { createContext, ReactNode, useContext, useEffect, useMemo } from 'react';
import { chooseLanguage } from '../../core/shared/languages';
import en from '../locales/en.json';

export type AdminTextKey = Exclude<keyof typeof en, `@${string}`>;
export type Translate = (key: AdminTextKey, args?: Record<string, unknown>) => string;
type Messages = Record<AdminTextKey, (args?: Record<string, unknown>) => string>;

/** The webpack messages rule made each JSON a module of functions (the JSON type gives the keys). */
const CATALOGUES: Record<string, Messages> = { en: en as unknown as Messages };

/** The languages the admin app ships. */
export const ADMIN_LANGUAGES = Object.keys(CATALOGUES);

/** The agent's language: their profile's when set, else the browser's first shipped one, else English. */
export function adminLanguage(profile?: string | null): string {
    const browser = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
    return chooseLanguage([profile, ...browser], ADMIN_LANGUAGES, 'en');
}

function translator(lang: string): Translate {
    const messages = CATALOGUES[lang] ?? CATALOGUES.en;
    return (key, args) => messages[key](args);
}

const I18nContext = createContext<{ lang: string; t: Translate }>({ lang: 'en', t: translator('en') });

export function I18nProvider({ lang, children }: { lang: string; children: ReactNode }) {
    const value = useMemo(() => ({ lang, t: translator(lang) }), [lang]);
    useEffect(() => {
        document.documentElement.lang = lang;
    }, [lang]);
    return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The text lookup of the agent's language. */
export function useT(): Translate {
    return useContext(I18nContext).t;
}

export function useLanguage(): string {
    return useContext(I18nContext).lang;
}

/** A text as an element: `<T id="shell.logout" />`. */
export function T({ id, values }: { id: AdminTextKey; values?: Record<string, unknown> }) {
    return <>{useT()(id, values)}</>;
}
