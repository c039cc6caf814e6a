/**
 * What the live chat plugin writes to a customer (issue 23): an agent's reply to a left message, mailed in the
 * language the customer wrote in (DESIGN §10), from its catalogues (plugins/livechat/locales/<lang>.json, ICU
 * MessageFormat, checked and compiled by core/i18n); a language it does not have gets English.
 */
import { serverCatalogues } from '../../core/i18n/catalogues';
import ar from './locales/ar.json';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import ptBR from './locales/pt-BR.json';

const messages = serverCatalogues({ en, es, fr, 'pt-BR': ptBR, de, ar });

/** The reply mail's subject and text: greeting, the agent's words, signature, the customer's message quoted. */
export function leftMessageReplyMail(locale: string | null | undefined, args: { store: string; agent?: string | null; name?: string | null; reply: string; original: string }): { subject: string; text: string } {
    const m = messages(locale);
    const quoted = args.original.split('\n').map((line) => `> ${line}`);
    return {
        subject: m.replySubject({ store: args.store }),
        text: [
            args.name ? m.replyGreetingName({ name: args.name }) : m.replyGreeting(),
            '',
            args.reply,
            '',
            args.agent ? m.replySignature({ agent: args.agent, store: args.store }) : m.replySignatureStore({ store: args.store }),
            '',
            m.replyQuote(),
            ...quoted,
            '',
            m.replyFooter({ store: args.store }),
            ''
        ].join('\n')
    };
}
