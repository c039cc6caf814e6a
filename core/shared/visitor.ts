/**
 * Telling customers apart (issue 23): a customer without a verified phone is "Visitor 4821" on every staff screen.
 * The number comes from the widget session id alone (FNV-1a, 32 bits, onto 1000–9999), so the same visitor keeps it
 * across their chats and left messages (a later chat of one widget session, `…~2`, shares its base id), and the
 * server and the admin app agree without storing it. Two visitors may share a number (1 in 9,000); the label is to
 * tell the customers of one day apart, not an identity.
 */
export function visitorNumber(widgetSessionId: string): number {
    const base = /^(.*)~[1-9][0-9]*$/.exec(widgetSessionId)?.[1] ?? widgetSessionId;
    let hash = 0x811c9dc5;
    for (let i = 0; i < base.length; i += 1) {
        hash ^= base.charCodeAt(i);
        hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return 1000 + (hash % 9000);
}

/** The English label API users and the store's mails read; the admin app shows its catalogue's `chat.visitor`. */
export function visitorLabel(widgetSessionId: string): string {
    return `Visitor ${visitorNumber(widgetSessionId)}`;
}
