/**
 * Choosing a language among the ones a part ships (issue 27): import-free, shared by the server's catalogues
 * (core/i18n), the widget's loader and the admin app.
 */

/**
 * The shipped language for a BCP 47 tag: the exact tag, else its language (`es-MX` → `es`), else a shipped regional
 * form of that language (`pt` → `pt-BR`); null when none fits. (Written for the widget's loader: small once minified.)
 */
export function matchLanguage(tag: string | null | undefined, shipped: readonly string[]): string | null {
    const wanted = (tag || '').trim().toLowerCase().replace(/_/g, '-');
    const primary = wanted.split('-')[0];
    let best: string | null = null;
    let score = 0;
    for (const lang of shipped) {
        const lower = lang.toLowerCase();
        const fit = !wanted ? 0 : lower === wanted ? 3 : lower === primary ? 2 : lower.split('-')[0] === primary ? 1 : 0;
        if (fit > score) {
            best = lang;
            score = fit;
        }
    }
    return best;
}

/**
 * The first of `wishes` (in order: e.g. a conversation's language, the page's `<html lang>`, the browser's
 * languages) that matches an enabled language, else the default when it is enabled, else the first enabled one.
 */
export function chooseLanguage(wishes: ReadonlyArray<string | null | undefined>, enabled: readonly string[], fallback: string): string {
    for (const wish of wishes) {
        const match = matchLanguage(wish, enabled);
        if (match) {
            return match;
        }
    }
    return matchLanguage(fallback, enabled) || enabled[0] || fallback;
}

/** The languages the product ships (every catalogue has them): a new store has them all enabled, English the default. */
export const SHIPPED_LANGUAGES = ['en', 'es', 'fr', 'pt-BR', 'de', 'ar'] as const;
export type ShippedLanguage = typeof SHIPPED_LANGUAGES[number];

/** Each language by its own name (how a customer or an agent finds theirs in a menu). */
export const LANGUAGE_NAMES: Record<ShippedLanguage, string> = {
    en: 'English', es: 'Español', fr: 'Français', 'pt-BR': 'Português (Brasil)', de: 'Deutsch', ar: 'العربية'
};
