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

/**
 * The store's mail about a left message (DESIGN §10: in the store's default language): who wrote, how to reach them,
 * where from, the message, what they asked the AI agent before (a follow-up such as "and to Canada?" means little
 * alone; Intercom's and Crisp's notifications carry the conversation too), and that it waits in the console.
 */
export function storeLeftMessageMail(locale: string | null | undefined, args: {
    store: string; email: string; name: string | null; phone: string; visitorNumber: number; pageUrl: string | null; sessionId: string; message: string;
    /** What the customer asked the AI agent in the same widget session before writing, oldest first (the last few turns). */
    earlier?: ReadonlyArray<{ question: string; answer: string }>;
}): { subject: string; text: string } {
    const m = messages(locale);
    const line = (text: string) => {
        const one = text.replace(/\s+/g, ' ').trim();
        return one.length > EARLIER_ANSWER_CHARS ? `${one.slice(0, EARLIER_ANSWER_CHARS - 1)}…` : one;
    };
    const earlier = args.earlier?.length
        ? ['', m.storeOfflineEarlier(), ...args.earlier.flatMap((turn) => [`${m.transcriptCustomer()}: ${line(turn.question)}`, `${m.transcriptAssistant()}: ${line(turn.answer)}`])]
        : [];
    return {
        subject: m.storeOfflineSubject({ email: args.email, store: args.store }),
        text: [m.storeOfflineIntro(), m.storeReplyTo({ email: args.email }),
            ...(args.name ? [m.storeName({ name: args.name })] : []),
            m.storePhone({ phone: args.phone }), m.storeVisitor({ n: String(args.visitorNumber) }),
            ...(args.pageUrl ? [m.storePage({ page: args.pageUrl })] : []),
            m.storeSession({ session: args.sessionId }), '', args.message, ...earlier, '',
            m.storeOfflineConsole(), ''].join('\n')
    };
}

/** An earlier answer of the AI agent in the store's left-message mail is cut to this many characters (the console has it whole). */
const EARLIER_ANSWER_CHARS = 300;

/** A chat's transcript for the store (DESIGN §10: in the store's default language; times already in its zone). */
export function transcriptMail(locale: string | null | undefined, args: {
    store: string; sessionId: string; phone: string; visitorNumber: number; started: string; accepted: string; ended: string; reason: string; zone: string;
    messages: Array<{ time: string; sender: 'customer' | 'agent' | 'system'; text: string; files?: string[] }>;
    /** The conversation in the console (login needed); shown when a message carried files (issue 29). */
    conversationUrl?: string;
}): { subject: string; text: string } {
    const m = messages(locale);
    const who = { customer: m.transcriptCustomer(), agent: m.transcriptAgent(), system: m.transcriptSystem() };
    const lines = [
        m.transcriptTitle({ store: args.store }).trim(),
        m.storeSession({ session: args.sessionId }),
        m.transcriptPhone({ phone: args.phone }),
        m.storeVisitor({ n: String(args.visitorNumber) }),
        m.transcriptStarted({ time: args.started }),
        m.transcriptAccepted({ time: args.accepted }),
        m.transcriptEnded({ time: args.ended, reason: args.reason }),
        m.transcriptZone({ zone: args.zone }),
        '',
        ...args.messages.map((msg) => `[${msg.time}] ${who[msg.sender]}: ${[msg.text, ...(msg.files ?? []).map((name) => m.transcriptFile({ name }))].filter(Boolean).join(' ')}`)
    ];
    // Files are never linked in a mail (DESIGN §10): the conversation is, in the console, behind the login.
    if (args.conversationUrl && args.messages.some((msg) => msg.files?.length)) {
        lines.push('', m.transcriptFilesLink({ url: args.conversationUrl }));
    }
    return { subject: m.transcriptSubject({ phone: args.phone, session: args.sessionId.slice(-8) }), text: lines.join('\n') + '\n' };
}

/**
 * The mail with a link to rate a chat (issue 28; DESIGN §10: to the address the customer gave, in the conversation's
 * language): thanks, the link on its own line, how long it works, and why this mail came.
 */
export function ratingLinkMail(locale: string | null | undefined, args: { store: string; url: string; days: number }): { subject: string; text: string } {
    const m = messages(locale);
    return {
        subject: m.rateMailSubject({ store: args.store }),
        text: [m.rateMailGreeting(), '', m.rateMailIntro({ store: args.store }), '', args.url, '',
            m.rateMailExpiry({ days: args.days }), '', m.rateMailWhy({ store: args.store }), ''].join('\n')
    };
}

/** The rate page's texts (`GET /rate/{token}`), in the chat's language. */
export function ratePageTexts(locale: string | null | undefined): ReturnType<typeof messages> {
    return messages(locale);
}
