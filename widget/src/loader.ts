/**
 * The script a merchant page loads (async) from /widget-{subdomain}.js: a launcher button in a Shadow DOM on a
 * host element of its own (an unknown tag, `all: initial`, fixed and zero-size) that page CSS cannot reach.
 * Nothing else is fetched until the customer hovers, focuses or clicks the launcher, unless this browser tab
 * has an open conversation with the store and came here by a reload, back/forward or a link of the same site
 * (then the panel comes back at once; see mayHaveConversation). On a page whose host is not a
 * registered domain of the store the widget stays away, with one console warning. Budget: 4 KB gzip (DESIGN §9).
 */
import type { WidgetConfig } from './config';
import type { PanelController } from './panel';
import type { FlowState } from './flow';
import { adoptStyles, LOADER_CSS } from './styles';
import { LAUNCHER, languageOf, loadMessages, sideOf } from './languages';

declare let __webpack_public_path__: string;

const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';
const CLOSE_ICON = 'M6 6l12 12M18 6L6 18';
const HOST_TAG = 'loyalty-chat-widget';

/** Text for an HTML attribute. */
function attr(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The host of an origin such as `https://chat.example.com:8443` (no URL object: this runs before the launcher shows). */
function hostOf(origin: string): string {
    return (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(origin)?.[1] ?? '').toLowerCase();
}

/** The page is one of the store's registered domains (or a subdomain of one), or the API's own site. */
export function pageAllowed(host: string, config: WidgetConfig): boolean {
    host = host.toLowerCase();
    const domains = [...(config.domains ?? []), hostOf(config.apiOrigin)].filter(Boolean);
    return domains.some((d) => host === d || host.endsWith('.' + d));
}

function storage(): Storage | null {
    try {
        return window.sessionStorage;
    }
    catch {
        return null;
    }
}

/**
 * Whether this tab may hold a conversation with the store from an earlier page: after a reload or back/forward,
 * or on a page reached from a page of the same site (a link, a form). Reading sessionStorage is a synchronous
 * round trip to the browser process (a millisecond or more while the page loads, which Lighthouse's mobile profile
 * charges fourfold): the loader's largest single cost and the cause of its slow runs (bench/RESULTS.md), which a
 * landing page (from a search, an ad, another site, a typed address) need not pay before the launcher shows. On
 * such a page the saved conversation is read when the customer touches the launcher; an open live chat then
 * resumes at that moment (until then the agent may see the customer as disconnected).
 */
function mayHaveConversation(): boolean {
    try {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        return !nav || nav.type !== 'navigate' || document.referrer.startsWith(location.origin + '/');
    }
    catch {
        return true;
    }
}

function readSaved(key: string): FlowState | null {
    try {
        return JSON.parse(storage()?.getItem(key) || 'null') as FlowState | null;
    }
    catch {
        return null;     // unreadable: start fresh
    }
}

function boot(config: WidgetConfig): void {
    // Chunks come from the API origin, not from the merchant's site.
    __webpack_public_path__ = config.apiOrigin.replace(/\/+$/, '') + '/widget/';
    const key = `lc-flow:${config.subdomain}`;
    // undefined: not read yet (see mayHaveConversation).
    const saved = mayHaveConversation() ? readSaved(key) : undefined;

    const host = document.createElement(HOST_TAG);
    host.setAttribute('data-loyalty-chat', config.subdomain);
    // Inline !important beats any page rule (`div{…}`, `body > *{min-height:100vh}`): the host takes no room.
    // Through the CSSOM (style.cssText), which a merchant's Content-Security-Policy allows where a style attribute
    // (setAttribute, or style="…" in markup) is blocked by a `style-src` without 'unsafe-inline'.
    host.style.cssText = 'all:initial!important;position:fixed!important;top:0!important;left:0!important;width:0!important;' +
        'height:0!important;overflow:visible!important;z-index:2147483000!important;display:block!important;margin:0!important;' +
        'padding:0!important;border:0!important';
    const root = host.attachShadow({ mode: 'open' });
    // The customer's language (languages.ts); a conversation read only later may bring its own.
    let lang = languageOf(config, saved && saved.lang);
    // The launcher's label: on the merchant page its one text of every language (LAUNCHER); once the panel is there,
    // the panel's (in the language the customer may have switched to, with the unread count).
    let texts: PanelController | null = null;
    const label = (open: boolean, count = 0) => (texts ? texts.label(open, count) : LAUNCHER[lang].launcherOpen({ store: config.storeName }));
    // The store's look: colour and side (the panel follows the same side). A right-to-left language mirrors the side.
    const look = config.look;
    const color = look?.color && /^#[0-9a-f]{6}$/i.test(look.color) ? `background:${look.color};` : '';
    // One string for the launcher: a single call into the DOM instead of a dozen (its parse is the browser's HTML
    // parser, cheaper on a phone than building the nodes one by one from script). No style="…" in it: see above.
    root.innerHTML = `<button type="button" class="lc-launcher" aria-expanded="false" aria-label="${attr(label(false))}">` +
        `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${CHAT_ICON}"/></svg></button>` +
        '<span class="lc-unread" hidden></span>';
    const button = root.firstChild as HTMLButtonElement;
    const unread = root.lastChild as HTMLSpanElement;
    const icon = button.firstChild!.firstChild as SVGPathElement;
    // After the markup (which replaces the root's children): in a browser without constructable stylesheets
    // this appends a <style> element.
    adoptStyles(root, LOADER_CSS);
    // Through the CSSOM (see above); again when the customer switches between a left-to-right and a right-to-left language.
    const place = () => {
        const left = sideOf(look?.position, lang) === 'left';
        host.setAttribute('data-side', left ? 'left' : 'right');
        button.style.cssText = color + (left ? 'right:auto;left:20px' : '');
        unread.style.cssText = left ? 'right:auto;left:62px' : '';
    };
    place();

    let isOpen = false;
    let panel: Promise<PanelController> | null = null;
    const load = (): Promise<PanelController> => {
        if (panel) {
            return panel;
        }
        const conversation = saved === undefined ? readSaved(key) : saved;
        lang = languageOf(config, conversation && conversation.lang);
        // The panel and another language's texts in parallel: one round trip either way.
        panel = Promise.all([import(/* webpackChunkName: "panel" */ './panel'), loadMessages(lang)]).then(([m, messages]) => m.mount({
            config,
            root,
            saved: conversation,
            lang,
            messages,
            onLanguage(next) {
                lang = next;
                place();
                button.setAttribute('aria-label', label(isOpen));
            },
            save(state) {
                try {
                    storage()?.setItem(key, JSON.stringify(state));
                }
                catch { /* full or blocked: the conversation lives in memory */ }
            },
            onToggle(open) {
                const focusBack = isOpen && !open;
                isOpen = open;
                button.setAttribute('aria-expanded', String(open));
                button.setAttribute('aria-label', label(open));
                icon.setAttribute('d', open ? CLOSE_ICON : CHAT_ICON);
                if (focusBack) {
                    button.focus();
                }
            },
            onUnread(count) {
                unread.hidden = !count || isOpen;
                unread.textContent = count > 9 ? '9+' : String(count);
                button.setAttribute('aria-label', label(isOpen, isOpen ? 0 : count));
            }
        }));
        panel.then((p) => {
            texts = p;
        }, (err) => {
            console.warn('loyalty-chat: the chat panel could not be loaded', err);
            panel = null;
        });
        return panel;
    };
    // What the launcher shows decides (a conversation read only now may come back open: the click then keeps it open).
    button.onclick = () => {
        const opening = !isOpen;
        load().then((p) => (opening ? p.open() : p.close())).catch(() => undefined);
    };
    // The panel's code starts loading when a pointer (a finger too: pointerenter comes first) or the keyboard
    // reaches the launcher, so that the click finds it ready.
    button.onpointerenter = button.onfocus = () => {
        button.onpointerenter = button.onfocus = null;
        void load().catch(() => undefined);
    };

    const attach = () => {
        document.body.appendChild(host);
        if (saved && (saved.open || saved.live || saved.messages.length)) {
            void load().catch(() => undefined);     // a conversation of this tab: it comes back as it was
        }
    };
    if (document.body) {
        attach();
    }
    else {
        document.addEventListener('DOMContentLoaded', attach);
    }
}

const w = window as unknown as { __loyaltyChatWidget?: WidgetConfig };
const config = w.__loyaltyChatWidget;
delete w.__loyaltyChatWidget;
if (config && config.key) {
    if (!pageAllowed(location.hostname, config)) {
        console.warn(`loyalty-chat: this page (${location.hostname}) is not a registered domain of ${config.storeName}; the chat widget is not shown.`);
    }
    // The same store's snippet pasted twice still makes one widget.
    else if (!document.querySelector(`[data-loyalty-chat="${config.subdomain}"]`)) {
        boot(config);
    }
}
