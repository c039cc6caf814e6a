/** The demo tenant created by `loyalty-chat seed --demo` and by the first `serve` on an empty database. */
export const DEMO_ORG = { name: 'Demo Store', domain: 'localhost', subdomain: 'demo', subscriptionPlan: 'pro', storeName: 'Demo Store' };

/** Its bot instance: the widget of the demo storefront. */
export const DEMO_BOT = { name: 'Demo Store widget', description: 'The widget on the demo storefront' };
