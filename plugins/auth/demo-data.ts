/** The demo logins of the demo tenant: fixed outside production (shown in the super-admin demo box), random in production. */
export const DEMO_USERS = [
    { email: 'super@demo.local', password: 'superadmin-demo', role: 'super_admin' as const, name: 'Demo Super Admin' },
    { email: 'admin@demo.local', password: 'admin-demo-2024', role: 'admin' as const, name: 'Demo Agent' },
    { email: 'org@demo.local', password: 'org-demo-2024', role: 'org_user' as const, name: 'Demo Owner' }
];

/** The demo super admin, whose login the super-admin login screen offers outside production. */
export const DEMO_SUPER_ADMIN = DEMO_USERS.find((u) => u.role === 'super_admin')!;
