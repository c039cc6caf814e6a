import type { LiveChat, LiveChatOptions } from './live-chat';

/**
 * The live chat as a feature chunk of its own (DESIGN §10: the base panel is what every customer loads; a feature
 * comes when used): this facade answers at once, fetches live-chat.ts with the nes client (`feature-live-chat`)
 * on its first call — a customer asking for a person, or a live chat resumed after a reload — and hands every call
 * to it in the order they were made.
 */
export function lazyLiveChat(options: LiveChatOptions): LiveChat {
    let chat: Promise<LiveChat> | null = null;
    const load = () => (chat ??= import(/* webpackChunkName: "feature-live-chat" */ './live-chat').then((m) => m.createLiveChat(options)));
    return {
        checkAvailability: () => load().then((c) => c.checkAvailability()),
        start: (details) => load().then((c) => c.start(details)),
        resume: (saved) => load().then((c) => c.resume(saved)),
        send: (text, attachments) => void load().then((c) => c.send(text, attachments)),
        typing: () => void load().then((c) => c.typing()),
        end: () => load().then((c) => c.end())
    };
}
