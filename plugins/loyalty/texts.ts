/**
 * What the loyalty plugin writes to a customer (issue 27), from its catalogues (plugins/loyalty/locales/<lang>.json,
 * ICU MessageFormat, checked and compiled by core/i18n): the text message with the one-time code, in the six shipped
 * languages; a language it does not have gets English.
 */
import { serverCatalogues } from '../../core/i18n/catalogues';
import ar from './locales/ar.json';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import ptBR from './locales/pt-BR.json';

const messages = serverCatalogues({ en, es, fr, 'pt-BR': ptBR, de, ar });

/** The SMS carrying a verification code, in the customer's language (a BCP 47 tag; English when unknown). */
export function smsCodeText(locale: string | null | undefined, args: { store: string; code: string; minutes: number }): string {
    return messages(locale).smsCode(args);
}
