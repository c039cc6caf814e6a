/**
 * The widget's languages (issue 27), in the loader: which language a customer gets, the launcher's label in every
 * shipped language (the loader shows it before anything else loads), and where the other languages' texts come
 * from. English comes with the chat panel (texts.ts); every other language is a chunk of its own (≤ 8 KB gzip),
 * fetched together with the panel when it is the chosen one.
 *
 * The choice, among the languages the store enabled (config.languages, default: every shipped language): the
 * conversation's own (kept with it in sessionStorage, so a reload or the next page keeps it), the merchant page's
 * `<html lang>`, the browser's languages in order, else the store's default (English).
 */
import { chooseLanguage } from '../../core/shared/languages';
import type { WidgetConfig } from './config';
import type { Messages } from './texts';
import launcherAr from '../locales/ar.json?launcher';
import launcherDe from '../locales/de.json?launcher';
import launcherEn from '../locales/en.json?launcher';
import launcherEs from '../locales/es.json?launcher';
import launcherFr from '../locales/fr.json?launcher';
import launcherPtBR from '../locales/pt-BR.json?launcher';

export type LauncherTexts = typeof launcherEn;

/** Adding a language: its catalogue in widget/locales, one line here and one in CHUNKS. */
export const LAUNCHER: Record<string, LauncherTexts> = { en: launcherEn, es: launcherEs, fr: launcherFr, 'pt-BR': launcherPtBR, de: launcherDe, ar: launcherAr };

const CHUNKS: Record<string, () => Promise<{ default: unknown }>> = {
    es: () => import(/* webpackChunkName: "lang-es" */ '../locales/es.json'),
    fr: () => import(/* webpackChunkName: "lang-fr" */ '../locales/fr.json'),
    'pt-BR': () => import(/* webpackChunkName: "lang-pt-BR" */ '../locales/pt-BR.json'),
    de: () => import(/* webpackChunkName: "lang-de" */ '../locales/de.json'),
    ar: () => import(/* webpackChunkName: "lang-ar" */ '../locales/ar.json')
};

/** The store's default language when its settings name none. */
export const DEFAULT_LANGUAGE = 'en';

/** The store's enabled languages that this widget ships (every shipped one when the settings name none). */
export function enabledLanguages(config: WidgetConfig): string[] {
    const shipped = Object.keys(LAUNCHER);
    const enabled = (config.languages?.enabled || shipped).filter((l) => l in LAUNCHER);
    return enabled.length ? enabled : shipped;
}

export function languageOf(config: WidgetConfig, conversation?: string | null): string {
    const settings = config.languages || {};
    let browser: readonly string[] = [];
    try {
        browser = navigator.languages || [navigator.language];
    }
    catch { /* no navigator: the page and the default decide */ }
    return chooseLanguage([conversation, document.documentElement.lang].concat(browser), enabledLanguages(config),
        settings.default || DEFAULT_LANGUAGE);
}

/**
 * The texts of a language other than English (null for English, which the panel carries). A language that cannot be
 * loaded gives null too: the chat opens in English rather than not at all.
 */
export function loadMessages(lang: string): Promise<Messages | null> {
    const chunk = CHUNKS[lang];
    return chunk ? chunk().then((m) => m.default as Messages, () => null) : Promise.resolve(null);
}

/** A language written right to left (of the shipped ones, Arabic): the panel and the launcher's side are mirrored. */
export function isRtl(lang: string): boolean {
    return /^(ar|he|fa|ur)\b/i.test(lang);
}

/** The launcher's and the panel's side: the store's, mirrored for a right-to-left language. */
export function sideOf(position: string | undefined | null, lang: string): 'left' | 'right' {
    return (position === 'left') !== isRtl(lang) ? 'left' : 'right';
}
