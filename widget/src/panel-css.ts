/** The chat panel's styles (not in styles.ts, which the loader shares: they load with the panel). */
export const PANEL_CSS = `
.lc-panel{position:fixed;right:20px;bottom:88px;width:370px;height:560px;max-height:calc(100vh - 110px);
  display:flex;flex-direction:column;background:#fff;color:#111827;border-radius:14px;overflow:hidden;
  box-shadow:0 12px 40px rgba(0,0,0,.28);z-index:2147483000;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  text-align:start}
.lc-panel[hidden]{display:none}
.lc-left{right:auto;left:20px}
.lc-panel *{box-sizing:border-box}
.lc-head{display:flex;align-items:center;gap:8px;padding:12px 14px;background:var(--lc-accent,#1d4ed8);color:#fff}
.lc-title{flex:1;margin:0;font-size:16px;font-weight:600;color:#fff}
.lc-badge{background:#fff;color:#166534;border-radius:999px;padding:2px 8px;font-size:12px;font-weight:600}
.lc-badge[hidden]{display:none}
.lc-x{border:0;background:transparent;color:#fff;font-size:22px;line-height:1;cursor:pointer;padding:2px 6px;border-radius:6px}
.lc-msgs{flex:1;min-height:120px;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px;background:#f9fafb}
.lc-msg{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere;display:flex;flex-direction:column;gap:2px}
.lc-bot,.lc-agent{align-self:flex-start;background:#fff;border:1px solid #e5e7eb;color:#111827}
.lc-agent{border-color:#bfdbfe}
.lc-user{align-self:flex-end;background:var(--lc-accent,#1d4ed8);color:#fff}
.lc-error{align-self:flex-start;background:#fef2f2;border:1px solid #fecaca;color:#dc2626}
.lc-author{font-size:12px;font-weight:600;color:#1e3a8a}
.lc-time{font-size:11px;opacity:.9;align-self:flex-end}
.lc-offline{display:flex;flex-direction:column;gap:6px;flex-shrink:0;padding:10px 12px;background:#fff;border:1px solid #e5e7eb;border-radius:12px}
.lc-offline div{display:flex;flex-wrap:wrap;gap:6px}
.lc-offline label{display:flex;flex-direction:column;gap:2px;font-size:14px;color:#1f2937}
.lc-offline input,.lc-offline textarea{font:inherit;font-size:16px;padding:6px;border:1px solid #6b7280;border-radius:6px;width:100%;resize:vertical}
.lc-offline-error{color:#b91c1c;margin:0;font-size:14px}
.lc-typing{align-self:flex-start;color:#4b5563;font-size:20px;letter-spacing:2px}
.lc-queue{margin:0;padding:6px 14px;border-top:1px solid #e5e7eb;background:#eff6ff;color:#1e3a8a;font-size:13px}
.lc-quick{display:flex;flex-wrap:wrap;gap:6px;padding:8px 14px;border-top:1px solid #e5e7eb;background:#fff}
.lc-quick[hidden]{display:none}
.lc-chip{border:1px solid var(--lc-accent,#1d4ed8);background:#fff;color:var(--lc-accent,#1d4ed8);border-radius:999px;padding:6px 12px;cursor:pointer;font:inherit;font-size:13px}
.lc-chip:disabled{opacity:.5;cursor:default}
.lc-bar{display:flex;gap:8px;padding:6px 14px;background:#fff;border-top:1px solid #e5e7eb}
.lc-link{border:1px solid #d1d5db;background:#fff;border-radius:6px;padding:4px 10px;cursor:pointer;color:#374151;font-size:12px}
.lc-link[hidden]{display:none}
.lc-lang{margin-inline-start:auto;max-width:45%;border:1px solid #d1d5db;background:#fff;border-radius:6px;padding:2px 4px;color:#374151;font:inherit;font-size:12px}
.lc-form{display:flex;gap:8px;padding:10px 14px;border-top:1px solid #e5e7eb;background:#fff}
.lc-input{flex:1;min-width:0;border:1px solid #6b7280;border-radius:8px;padding:8px 10px;font:inherit;font-size:16px;color:#111827;background:#fff;resize:none;height:40px}
.lc-input:disabled{background:#f3f4f6}
.lc-input::placeholder{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.lc-input[aria-invalid=true]{border-color:#dc2626}
.lc-send{border:0;border-radius:8px;background:var(--lc-accent,#1d4ed8);color:#fff;padding:0 14px;cursor:pointer;font-weight:600}
.lc-send:disabled{opacity:.5;cursor:default}
.lc-count{margin:0;padding:4px 14px 8px;background:#fff;color:#b91c1c;font-size:12px}
.lc-note{margin:0;padding:2px 14px 4px;background:#fff;color:#4b5563;font-size:12px;line-height:1.4}
.lc-note a{color:var(--lc-accent,#1d4ed8)}
.lc-panel :focus-visible,.lc-msgs:focus-visible{outline:3px solid var(--lc-accent,#1d4ed8);outline-offset:2px}
.lc-head :focus-visible{outline-color:#fff}
@media (max-width:480px){
  .lc-panel,.lc-left{right:0;bottom:0;left:0;top:0;width:100%;height:100%;max-height:none;border-radius:0}
}
`;
