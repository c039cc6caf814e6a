import { Tag } from '@blueprintjs/core';
import { LANGUAGE_NAMES, matchLanguage, SHIPPED_LANGUAGES, ShippedLanguage } from '../../../../core/shared/languages';
import { useT } from '../../i18n';

/** A language by its own name ('Español'), for a tag the widget sent ('es-MX' → Español); the tag itself otherwise. */
export function languageName(tag: string): string {
    const shipped = matchLanguage(tag, SHIPPED_LANGUAGES);
    return shipped ? LANGUAGE_NAMES[shipped as ShippedLanguage] : tag;
}

/**
 * The language a customer chats in (issue 27), as the console shows it beside the chat: a short tag (ES, PT-BR) with
 * the language's own name for assistive technology and on hover.
 */
export function LanguageTag({ lang }: { lang: string }) {
    const t = useT();
    const label = t('console.language', { name: languageName(lang) });
    return (
        <Tag minimal round className="lc-chat-lang" data-testid="chat-language" title={label} aria-label={label}>
            <span aria-hidden="true">{lang.toUpperCase()}</span>
        </Tag>
    );
}
