/**
 * How the widget applies its styles, and the loader's styles (the panel's live in app.ts: this module is in the
 * loader too). They go into the Shadow DOM as constructable stylesheets (`adoptedStyleSheets`), which a merchant's
 * Content-Security-Policy does not govern, where a <style> element is blocked by a `style-src` without
 * 'unsafe-inline'. Browsers without them (Safari before 16.4) get a <style> element as before.
 */
export function adoptStyles(root: ShadowRoot, css: string): void {
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
        try {
            const sheet = new CSSStyleSheet();
            sheet.replaceSync(css);
            root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
            return;
        }
        catch { /* an older implementation: fall back */ }
    }
    const style = document.createElement('style');
    style.textContent = css;
    root.append(style);
}

/** The launcher button (loader). */
export const LOADER_CSS = `
:host{all:initial!important;position:fixed!important;width:0!important;height:0!important}
.lc-launcher{position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;
  background:#2563eb;color:#fff;cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.25);display:flex;align-items:center;
  justify-content:center;z-index:2147483000;padding:0;transition:transform .15s ease}
.lc-launcher:hover{transform:scale(1.06)}
.lc-launcher:focus-visible{outline:3px solid #1d4ed8;outline-offset:3px;box-shadow:0 0 0 3px #fff}
.lc-unread{position:fixed;right:14px;bottom:62px;min-width:22px;height:22px;border-radius:11px;background:#b91c1c;color:#fff;
  font:700 12px/22px system-ui,sans-serif;text-align:center;padding:0 5px;z-index:2147483001;pointer-events:none}
.lc-unread[hidden]{display:none}
.lc-launcher svg{width:26px;height:26px;fill:none;stroke:#fff;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
`;
