/** The demo storefront's styles, served at /storefront.css: the page has no inline style (its CSP allows none). */
export const STOREFRONT_CSS = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f9fafb}
header{display:flex;flex-wrap:wrap;align-items:center;gap:16px;padding:16px 24px;background:#fff;border-bottom:1px solid #e5e7eb}
header .brand{font-weight:700;font-size:20px;margin-right:auto}
header nav{display:flex;flex-wrap:wrap;gap:16px}
header a{color:#2563eb;text-decoration:none;font-size:14px}
header a:hover{text-decoration:underline}
.cart{border:1px solid #d1d5db;background:#fff;border-radius:6px;padding:6px 12px;font:inherit;cursor:default}
main{max-width:860px;margin:0 auto;padding:48px 24px}
h1{font-size:36px;margin:0 0 16px}
.lead{font-size:18px;line-height:1.6;color:#4b5563}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:16px;margin-top:32px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:10px;padding:20px}
.card h2{font-size:17px;margin:0 0 8px}
code{background:#eef2ff;border-radius:4px;padding:1px 5px;font-size:13px}
footer{text-align:center;color:#9ca3af;font-size:13px;padding:32px}
`;

/** The demo storefront of SPEC §2: a plain server-rendered page hosting the demo widget. */
export function storefrontHtml(): string {
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo Store</title>
<link rel="stylesheet" href="/storefront.css">
</head>
<body>
<header>
  <div class="brand">Demo Store</div>
  <nav aria-label="Site">
    <a href="/test">Test Dashboard</a>
    <a href="/analytics">Analytics</a>
    <a href="/admin-chat">Live Chat</a>
    <a href="/admin-questions">Manage Questions</a>
    <a href="/admin-login">Admin Login</a>
  </nav>
  <button class="cart" type="button">Cart (2)</button>
</header>
<main>
  <h1>Your loyalty points, one chat away</h1>
  <p class="lead">This is a demo storefront. The chat button in the bottom-right corner is the loyalty-chat widget,
  loaded with one <code>&lt;script async&gt;</code> tag. Ask it a question, check your loyalty points with a
  text-message code, or talk to a member of our team.</p>
  <div class="cards">
    <section class="card">
      <h2>Check your points</h2>
      <p>Enter your phone number and the code we text you: the widget calls <code>POST /api/loyalty/verify</code>
      to send the code and <code>POST /api/loyalty/view</code> to show your points.</p>
    </section>
    <section class="card">
      <h2>Quick answers</h2>
      <p>Store hours, how to earn and redeem points: the store's own questions, one tap away.</p>
    </section>
    <section class="card">
      <h2>Try it</h2>
      <p>Demo members: <code>+1 555 555 0100</code>, <code>+1 555 555 0101</code>. Read the code with
      <code>loyalty-chat outbox</code>.</p>
    </section>
  </div>
</main>
<footer>Demo Store &middot; powered by loyalty-chat</footer>
<script src="/widget-demo.js" async></script>
</body>
</html>
`;
}
