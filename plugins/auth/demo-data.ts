/** The demo logins of the demo tenant (people's names: customers call the agent by the first one, 'Sam'): fixed outside production (shown in the super-admin demo box), random in production. */
export const DEMO_USERS = [
    { email: 'super@demo.local', password: 'superadmin-demo', role: 'super_admin' as const, name: 'Jordan Lee' },
    { email: 'admin@demo.local', password: 'admin-demo-2024', role: 'admin' as const, name: 'Sam Rivera' },
    { email: 'org@demo.local', password: 'org-demo-2024', role: 'org_user' as const, name: 'Casey Morgan' }
];

/** The demo super admin, whose login the super-admin login screen offers outside production. */
export const DEMO_SUPER_ADMIN = DEMO_USERS.find((u) => u.role === 'super_admin')!;
