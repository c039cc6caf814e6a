import { createContext, ReactNode, useCallback, useContext, useMemo } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import type { AuthUser } from '../api/auth';
import { AdminLoginForm } from '../pages/AdminLogin';
import { forgetStaffToken, useStaffSession } from './session';

export interface AdminAuth {
    /** The verified staff user of the stored token. */
    user: AuthUser;
    token: string;
    /** Forgets the token and cached data, and returns to /admin-access-2024. */
    logout(): void;
}

const AdminAuthContext = createContext<AdminAuth | null>(null);

/** The verified admin of a guarded page. Only usable inside AdminGuard. */
export function useAdminAuth(): AdminAuth {
    const auth = useContext(AdminAuthContext);
    if (!auth) {
        throw new Error('useAdminAuth() must be used inside <AdminGuard>');
    }
    return auth;
}

/** The logout of the admin app, usable anywhere. */
export function useAdminLogout(): () => void {
    const navigate = useNavigate();
    const client = useQueryClient();
    return useCallback(() => {
        forgetStaffToken('admin');
        client.clear();
        navigate('/admin-access-2024', { replace: true });
    }, [client, navigate]);
}

/**
 * Wraps every guarded admin route (SPEC §2, §4 'Admin auth'): the admin session (useStaffSession) is checked on
 * load, with a loading state meanwhile. Signed out (no token, or one the verify call rejected, which is then
 * removed), the admin login form shows in place of the page, or with `redirect` the browser goes to /admin-login.
 */
export function AdminGuard({ children, redirect = false }: { children: ReactNode; redirect?: boolean }) {
    const session = useStaffSession('admin');
    const logout = useAdminLogout();
    const user = session.state === 'signed-in' ? session.user : null;
    const token = session.state === 'signed-in' ? session.token : null;
    const auth = useMemo<AdminAuth | null>(() => (user && token ? { user, token, logout } : null), [user, token, logout]);

    if (session.state === 'loading') {
        return <div className="lc-center" aria-busy="true"><Spinner size={40} /><span className="lc-sr-only">Checking your session…</span></div>;
    }
    if (!auth) {
        if (redirect) {
            return <Navigate to="/admin-login" replace />;
        }
        return <AdminLoginForm onSuccess={session.signedIn} />;
    }
    return <AdminAuthContext.Provider value={auth}>{children}</AdminAuthContext.Provider>;
}
