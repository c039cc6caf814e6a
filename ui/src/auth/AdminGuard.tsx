import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { ADMIN_TOKEN_KEY, AuthUser, useVerify, VERIFY_PATHS } from '../api/auth';
import { AdminLoginForm } from '../pages/AdminLogin';

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
        localStorage.removeItem(ADMIN_TOKEN_KEY);
        client.clear();
        navigate('/admin-access-2024', { replace: true });
    }, [client, navigate]);
}

/**
 * Wraps every guarded admin route (SPEC §2, §4 'Admin auth'): the token stored under adminToken is
 * verified with GET /api/admin/verify on load (a loading state meanwhile). A rejected token or a network
 * error removes it; then the admin login form shows in place of the page, or with `redirect` the browser
 * goes to /admin-login.
 */
export function AdminGuard({ children, redirect = false }: { children: ReactNode; redirect?: boolean }) {
    const [token, setToken] = useState<string | null>(() => localStorage.getItem(ADMIN_TOKEN_KEY));
    const verify = useVerify(VERIFY_PATHS.admin, ADMIN_TOKEN_KEY, token);
    const logout = useAdminLogout();

    useEffect(() => {
        if (verify.isError) {
            localStorage.removeItem(ADMIN_TOKEN_KEY);
            setToken(null);
        }
    }, [verify.isError]);

    const auth = useMemo<AdminAuth | null>(
        () => (token && verify.data ? { user: verify.data, token, logout } : null),
        [token, verify.data, logout]
    );

    if (token && (verify.isPending || verify.isError)) {
        return <div className="lc-center" aria-busy="true"><Spinner size={40} /><span className="lc-sr-only">Checking your session…</span></div>;
    }
    if (!auth) {
        if (redirect) {
            return <Navigate to="/admin-login" replace />;
        }
        return <AdminLoginForm onSuccess={(newToken) => setToken(newToken)} />;
    }
    return <AdminAuthContext.Provider value={auth}>{children}</AdminAuthContext.Provider>;
}
