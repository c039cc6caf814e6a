/**
 * The script a merchant page loads (async) from /widget-{subdomain}.js: a floating button in a Shadow DOM.
 * The chat panel (app chunk) is fetched when the page is idle or on the first click. Budget: 4 KB gzip (DESIGN §9).
 */
import type { WidgetConfig } from './config';
import { track } from './config';
import type { PanelController } from './app';
import { adoptStyles, LOADER_CSS } from './styles';

declare let __webpack_public_path__: string;

const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';
const CLOSE_ICON = 'M6 6l12 12M18 6L6 18';

function icon(path: string): string {
    return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`;
}

function boot(config: WidgetConfig): void {
    // Chunks come from the API origin, not from the merchant's site.
    __webpack_public_path__ = config.apiOrigin.replace(/\/+$/, '') + '/widget/';
    const sessionId = `widget_${Date.now()}_${Math.random().toString(36).slice(2, 11)}`;

    const host = document.createElement('div');
    host.setAttribute('data-loyalty-chat', config.subdomain);
    const root = host.attachShadow({ mode: 'open' });
    adoptStyles(root, LOADER_CSS);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'lc-launcher';
    button.setAttribute('aria-label', `Open chat with ${config.storeName} support`);
    button.setAttribute('aria-expanded', 'false');
    button.innerHTML = icon(CHAT_ICON);
    root.append(button);

    let panel: Promise<PanelController> | null = null;
    const load = (): Promise<PanelController> => {
        panel ??= import(/* webpackChunkName: "app" */ './app').then((m) => m.mount({
            config,
            sessionId,
            root,
            onToggle(open) {
                button.setAttribute('aria-expanded', String(open));
                button.setAttribute('aria-label', open ? `Close chat with ${config.storeName} support` : `Open chat with ${config.storeName} support`);
                button.innerHTML = icon(open ? CLOSE_ICON : CHAT_ICON);
                if (!open) {
                    button.focus();
                }
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

    const attach = () => {
        document.body.appendChild(host);
        track(config, sessionId, { action: 'widget_loaded', success: true });
        const idle = (window as any).requestIdleCallback as ((fn: () => void, o?: { timeout: number }) => void) | undefined;
        const prefetch = () => load().catch(() => undefined);
        if (idle) {
            idle(prefetch, { timeout: 4000 });
        }
        else {
            setTimeout(prefetch, 2000);
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
// The same store's snippet pasted twice still makes one widget.
if (config && config.key && !document.querySelector(`[data-loyalty-chat="${config.subdomain}"]`)) {
    boot(config);
}
