export const PANEL_CSS = `
.lc-panel{position:fixed;right:20px;bottom:88px;width:370px;height:560px;max-height:calc(100vh - 110px);
  display:flex;flex-direction:column;background:#fff;color:#111827;border-radius:14px;overflow:hidden;
  box-shadow:0 12px 40px rgba(0,0,0,.28);z-index:2147483000;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  text-align:left;letter-spacing:normal}
.lc-panel[hidden]{display:none}
.lc-panel *{box-sizing:border-box;font:inherit}
.lc-head{display:flex;align-items:center;gap:8px;padding:12px 14px;background:#2563eb;color:#fff}
.lc-title{font-weight:600;font-size:15px;margin:0;flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.lc-badge{background:#16a34a;color:#fff;border-radius:999px;padding:2px 8px;font-size:11px;font-weight:600;white-space:nowrap}
.lc-badge[hidden]{display:none}
.lc-x{background:transparent;border:0;color:#fff;cursor:pointer;font-size:20px;line-height:1;padding:2px 6px;border-radius:6px}
.lc-x:focus-visible,.lc-panel button:focus-visible,.lc-input:focus-visible{outline:2px solid #93c5fd;outline-offset:1px}
.lc-msgs{flex:1;min-height:96px;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px;background:#f9fafb}
.lc-msg{max-width:85%;padding:8px 11px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere}
.lc-bot{align-self:flex-start;background:#fff;border:1px solid #e5e7eb}
.lc-user{align-self:flex-end;background:#2563eb;color:#fff}
.lc-error{align-self:flex-start;background:#fef2f2;border:1px solid #fecaca;color:#dc2626}
.lc-quick{display:flex;flex-wrap:wrap;gap:6px;padding:8px 14px 2px;background:#f9fafb;max-height:40%;overflow-y:auto;flex-shrink:0}
.lc-quick[hidden]{display:none}
.lc-chip{border:1px solid #bfdbfe;background:#eff6ff;color:#1d4ed8;border-radius:999px;padding:5px 10px;cursor:pointer;font-size:13px;text-align:left}
.lc-chip:hover{background:#dbeafe}
.lc-chip:disabled{opacity:.5;cursor:default}
.lc-bar{display:flex;gap:8px;padding:8px 14px;background:#f9fafb;border-top:1px solid #f3f4f6}
.lc-link{background:none;border:1px solid #d1d5db;border-radius:6px;padding:4px 10px;cursor:pointer;color:#374151;font-size:12px}
.lc-link[hidden]{display:none}
.lc-form{display:flex;gap:8px;padding:10px 14px;border-top:1px solid #e5e7eb;background:#fff}
.lc-input{flex:1;min-width:0;border:1px solid #d1d5db;border-radius:8px;padding:8px 10px;font-size:16px;color:#111827;background:#fff}
.lc-input:disabled{background:#f3f4f6}
.lc-send{border:0;border-radius:8px;background:#2563eb;color:#fff;padding:0 14px;cursor:pointer;font-weight:600}
.lc-send:disabled{opacity:.5;cursor:default}
.lc-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:480px){
  .lc-panel{right:0;bottom:0;left:0;top:0;width:100%;height:100%;max-height:none;border-radius:0}
}
`;
