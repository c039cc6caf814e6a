/**
 * The page a mailed rating link opens (issue 28): server-rendered HTML, no script (our strict CSP: no inline script or
 * style; its stylesheet is /rate.css), a plain form that posts back to its own address, so it works without
 * JavaScript, from the keyboard (a native radio group with a legend and a label on each choice) and at 390 px. Every
 * text is escaped; the store's name and the customer's comment are never HTML.
 */
import type { MessageFunction } from '../../core/i18n/catalogues';

type Texts = Record<string, MessageFunction>;

export const RATE_CSS = `*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f3f4f6}
body{margin:0;padding:24px 16px;min-height:100vh}
main{max-width:480px;margin:0 auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.store{margin:0 0 4px;font-weight:600;color:#4b5563}
h1{font-size:1.4rem;margin:0 0 16px;line-height:1.3}
fieldset{border:0;margin:0 0 16px;padding:0}
legend{padding:0;margin-bottom:8px;color:#374151}
.scores label{display:flex;align-items:center;gap:10px;min-height:44px;padding:6px 10px;border:1px solid #d1d5db;border-radius:8px;margin-bottom:6px;cursor:pointer}
.scores input{width:20px;height:20px;margin:0;accent-color:#1d4ed8}
.scores label:has(input:checked){border-color:#1d4ed8;background:#eff6ff;font-weight:600}
.scores input:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
label.comment{display:block;font-weight:600;margin-bottom:4px}
textarea{width:100%;font:inherit;padding:8px;border:1px solid #6b7280;border-radius:8px;resize:vertical}
textarea:focus-visible{outline:3px solid #1d4ed8;outline-offset:1px}
.hint{margin:4px 0 16px;font-size:.875rem;color:#4b5563}
.error{margin:0 0 16px;padding:8px 12px;border-radius:8px;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
button{font:inherit;font-weight:600;min-height:44px;padding:8px 20px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer;width:100%}
button:focus-visible{outline:3px solid #1d4ed8;outline-offset:3px}
p.done{margin:0}
`;

const isRtl = (lang: string) => /^(ar|he|fa|ur)\b/i.test(lang);

export function escapeHtml(text: string): string {
    return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' })[c]!);
}

function page(lang: string, title: string, body: string): string {
    return `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="${isRtl(lang) ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/rate.css">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The form: the store's name, "How was your chat?", 1–5 as labelled radios, an optional comment, Send. */
export function rateFormPage(input: {
    lang: string; texts: Texts; store: string; maxComment: number;
    /** A refused send: the message to show, and what the customer had chosen and written. */
    error?: string | null; score?: number | null; comment?: string | null;
}): string {
    const { texts: m } = input;
    const radios = [1, 2, 3, 4, 5].map((n) => `<label><input type="radio" name="score" value="${n}" required${input.score === n ? ' checked' : ''}> ${escapeHtml(m[`rateS${n}`]())}</label>`).join('\n');
    const body = `<p class="store">${escapeHtml(input.store)}</p>
<h1>${escapeHtml(m.rateQuestion())}</h1>
${input.error ? `<p class="error" role="alert" id="rate-error">${escapeHtml(input.error)}</p>\n` : ''}<form method="post">
<fieldset${input.error ? ' aria-describedby="rate-error"' : ''}>
<legend>${escapeHtml(m.rateGroup())}</legend>
<div class="scores">
${radios}
</div>
</fieldset>
<label class="comment" for="comment">${escapeHtml(m.rateComment())}</label>
<textarea id="comment" name="comment" rows="4" maxlength="${input.maxComment}" dir="auto" aria-describedby="comment-hint">${escapeHtml(input.comment ?? '')}</textarea>
<p class="hint" id="comment-hint">${escapeHtml(m.rateCommentHint({ max: input.maxComment }))}</p>
<button type="submit">${escapeHtml(m.rateSend())}</button>
</form>`;
    return page(input.lang, m.ratePageTitle({ store: input.store }), body);
}

/** A page that only says something (thanks, already rated, an expired or forged link). */
export function rateMessagePage(input: { lang: string; title: string; text: string; store?: string | null }): string {
    const body = `${input.store ? `<p class="store">${escapeHtml(input.store)}</p>\n` : ''}<h1>${escapeHtml(input.title)}</h1>
<p class="done" role="status">${escapeHtml(input.text)}</p>`;
    return page(input.lang, input.title, body);
}
