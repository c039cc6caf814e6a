import type { ReactNode } from 'react';

/**
 * Wraps every guarded admin route (SPEC §2, §4 'Admin auth'). Stub: filled by the accounts issue
 * (stored token under adminToken, verified on load, login form or redirect to /admin-login when rejected).
 */
export function AdminGuard({ children }: { children: ReactNode; redirect?: boolean }) {
    return <>{children}</>;
}
