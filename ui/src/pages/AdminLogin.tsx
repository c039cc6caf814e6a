import { Link, useNavigate } from 'react-router-dom';
import { ADMIN_TOKEN_KEY, LOGIN_PATHS, loginErrorMessage, useLogin } from '../api/auth';
import { LoginForm } from '../auth/LoginForm';

/** The admin login form; stores the token under adminToken and calls onSuccess with it. */
export function AdminLoginForm({ onSuccess }: { onSuccess: (token: string) => void }) {
    const login = useLogin(LOGIN_PATHS.admin);
    return (
        <LoginForm
            title="Admin Login"
            subtitle="Sign in to manage live chats, questions and analytics."
            icon="shield"
            pending={login.isPending}
            error={login.isError ? loginErrorMessage(login.error, 'Network error. Please try again.') : null}
            onSubmit={(credentials) => login.mutate(credentials, {
                onSuccess: (data) => {
                    localStorage.setItem(ADMIN_TOKEN_KEY, data.token);
                    onSuccess(data.token);
                }
            })}
            footer={<span className="bp5-text-muted">Organization owner? <Link to="/org-login">Organization login</Link></span>}
        />
    );
}

/** /admin-access-2024 and /admin-login: on success go to /admin-dashboard. */
export default function AdminLogin() {
    const navigate = useNavigate();
    return <AdminLoginForm onSuccess={() => navigate('/admin-dashboard')} />;
}
