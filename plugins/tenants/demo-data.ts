/** The demo tenant created by `loyalty-chat seed --demo` and by the first `serve` on an empty database. */
export const DEMO_ORG = { name: 'Demo Store', domain: 'localhost', subdomain: 'demo', subscriptionPlan: 'pro', storeName: 'Demo Store' };

/** Fixed demo logins outside production (shown in the super-admin demo box); random ones in production. */
export const DEMO_USERS = [
    { email: 'super@demo.local', password: 'superadmin-demo', role: 'super_admin' as const, name: 'Demo Super Admin' },
    { email: 'admin@demo.local', password: 'admin-demo-2024', role: 'admin' as const, name: 'Demo Agent' },
    { email: 'org@demo.local', password: 'org-demo-2024', role: 'org_user' as const, name: 'Demo Owner' }
];
