/**
 * What the AI agent says itself (issue 27): its replies that are not the store's knowledge — not knowing and offering
 * a person or the leave-a-message form, the phone check, the hand-off, the loyalty tools' answers, the store's
 * introduction, the budget pause — from its catalogues (plugins/ai/locales/<lang>.json, ICU MessageFormat, checked
 * and compiled by core/i18n), in the customer's language; a language it does not have gets English.
 */
import { serverCatalogues } from '../../core/i18n/catalogues';
import ar from './locales/ar.json';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import ptBR from './locales/pt-BR.json';

const messages = serverCatalogues({ en, es, fr, 'pt-BR': ptBR, de, ar });

export type AiTextKey = Exclude<keyof typeof en, `@${string}`>;

/** One of the agent's own texts in a language (a BCP 47 tag; English when unknown or absent). */
export function aiText(locale: string | null | undefined, key: AiTextKey, args?: Record<string, unknown>): string {
    return messages(locale)[key](args);
}
