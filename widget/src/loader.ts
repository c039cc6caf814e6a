/**
 * The script a merchant page loads (async) from /widget-{subdomain}.js: a launcher button in a Shadow DOM on a
 * host element of its own (an unknown tag, `all: initial`, fixed and zero-size) that page CSS cannot reach.
 * Nothing else is fetched until the customer hovers, focuses or clicks the launcher, unless this browser tab
 * has an open conversation with the store (then the panel comes back at once). On a page whose host is not a
 * registered domain of the store the widget stays away, with one console warning. Budget: 4 KB gzip (DESIGN §9).
 */
import type { WidgetConfig } from './config';
import type { PanelController } from './panel';
import type { FlowState } from './flow';
import { adoptStyles, LOADER_CSS } from './styles';

declare let __webpack_public_path__: string;

const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';
const CLOSE_ICON = 'M6 6l12 12M18 6L6 18';
const HOST_TAG = 'loyalty-chat-widget';

function icon(path: string): string {
    return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`;
}

function hostOf(url: string): string {
    try {
        return new URL(url).hostname.toLowerCase();
    }
    catch {
        return '';
    }
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

function boot(config: WidgetConfig): void {
    // Chunks come from the API origin, not from the merchant's site.
    __webpack_public_path__ = config.apiOrigin.replace(/\/+$/, '') + '/widget/';
    const key = `lc-flow:${config.subdomain}`;
    let saved: FlowState | null = null;
    try {
        saved = JSON.parse(storage()?.getItem(key) || 'null');
    }
    catch { /* unreadable: start fresh */ }

    const host = document.createElement(HOST_TAG);
    host.setAttribute('data-loyalty-chat', config.subdomain);
    // Inline !important beats any page rule (`div{…}`, `body > *{min-height:100vh}`): the host takes no room.
    const hostStyle: Record<string, string> = {
        all: 'initial', position: 'fixed', top: '0', left: '0', width: '0', height: '0', overflow: 'visible',
        'z-index': '2147483000', display: 'block', margin: '0', padding: '0', border: '0'
    };
    for (const name in hostStyle) {
        host.style.setProperty(name, hostStyle[name], 'important');
    }
    const root = host.attachShadow({ mode: 'open' });
    adoptStyles(root, LOADER_CSS);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'lc-launcher';
    const unread = document.createElement('span');
    unread.className = 'lc-unread';
    unread.hidden = true;
    const label = (open: boolean, count = 0) => `${open ? 'Close' : 'Open'} chat with ${config.storeName} support${count ? `, ${count} unread` : ''}`;
    button.setAttribute('aria-label', label(false));
    button.setAttribute('aria-expanded', 'false');
    button.innerHTML = icon(CHAT_ICON);
    root.append(button, unread);
    // The store's look: colour and side (the panel follows the same side).
    const look = config.look;
    if (look?.color) {
        button.style.background = look.color;
    }
    if (look?.position === 'left') {
        host.setAttribute('data-side', 'left');
        button.style.right = unread.style.right = 'auto';
        button.style.left = '20px';
        unread.style.left = '62px';
    }

    let isOpen = false;
    let panel: Promise<PanelController> | null = null;
    const load = (): Promise<PanelController> => {
        panel ??= import(/* webpackChunkName: "panel" */ './panel').then((m) => m.mount({
            config,
            root,
            saved,
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
                button.innerHTML = icon(open ? CLOSE_ICON : CHAT_ICON);
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
        panel.catch((err) => {
            console.warn('loyalty-chat: the chat panel could not be loaded', err);
            panel = null;
        });
        return panel;
    };
    button.addEventListener('click', () => {
        load().then((p) => p.toggle()).catch(() => undefined);
    });
    for (const type of ['pointerenter', 'focus', 'touchstart']) {
        button.addEventListener(type, () => void load().catch(() => undefined), { once: true, passive: true });
    }

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
