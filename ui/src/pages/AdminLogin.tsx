import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useEffect, useState } from 'react';
import { Spinner } from '@blueprintjs/core';
import { ADMIN_TOKEN_KEY, LOGIN_PATHS, loginErrorMessage, useLogin, useVerify, VERIFY_PATHS } from '../api/auth';
import { LoginForm } from '../auth/LoginForm';
import { useT } from '../i18n';

/**
 * The chunks the dashboard needs (the staff shell and the admin home), fetched while the admin types and the password
 * is checked rather than after it (issue 23: sign-in, click to dashboard, ≤ 1 s): the same modules App.tsx loads
 * lazily, so webpack's chunks are shared and nothing is loaded twice.
 */
export function preloadDashboard(): void {
    void import('../layout/AdminLayout');
    void import('./AdminDashboard');
}

/** The admin login form; stores the token under adminToken and calls onSuccess with it. */
export function AdminLoginForm({ onSuccess }: { onSuccess: (token: string) => void }) {
    const login = useLogin(LOGIN_PATHS.admin);
    const t = useT();
    useEffect(() => {
        // At the admin's first key, tap or click (typing the address, a password manager's fill clicked, Sign in
        // itself): the dashboard's chunks load while the rest is typed and the password checked, and a visitor who
        // only opens the page fetches the login's own scripts alone (bench:admin's cold /admin-login budget).
        const events = ['keydown', 'pointerdown', 'input'] as const;
        const start = () => {
            events.forEach((e) => window.removeEventListener(e, start, true));
            preloadDashboard();
        };
        events.forEach((e) => window.addEventListener(e, start, true));
        return () => events.forEach((e) => window.removeEventListener(e, start, true));
    }, []);
    return (
        <LoginForm
            title={t('login.admin.title')}
            subtitle={t('login.admin.subtitle')}
            icon="shield"
            pending={login.isPending}
            error={login.isError ? loginErrorMessage(login.error, t('login.networkError'), t) : null}
            onSubmit={(credentials) => login.mutate(credentials, {
                onSuccess: (data) => {
                    localStorage.setItem(ADMIN_TOKEN_KEY, data.token);
                    onSuccess(data.token);
                }
            })}
            footer={<span className="bp5-text-muted">{t('login.orgOwnerQuestion')} <Link to="/org-login">{t('login.orgLoginLink')}</Link></span>}
        />
    );
}

/**
 * /admin-access-2024 and /admin-login: on success go to /admin-dashboard. A visitor whose stored token
 * still verifies goes straight to the dashboard; a rejected one is removed and the form shows.
 */
export default function AdminLogin() {
    const navigate = useNavigate();
    const [stored] = useState(() => localStorage.getItem(ADMIN_TOKEN_KEY));
    const verify = useVerify(VERIFY_PATHS.admin, ADMIN_TOKEN_KEY, stored);
    if (stored && verify.isPending) {
        return <div className="lc-center"><Spinner size={40} /></div>;
    }
    if (stored && verify.isSuccess && localStorage.getItem(ADMIN_TOKEN_KEY) === stored) {
        return <Navigate to="/admin-dashboard" replace />;
    }
    if (stored && verify.isError && localStorage.getItem(ADMIN_TOKEN_KEY) === stored) {
        localStorage.removeItem(ADMIN_TOKEN_KEY);
    }
    return <AdminLoginForm onSuccess={() => navigate('/admin-dashboard')} />;
}
