import { Link, useNavigate } from 'react-router-dom';
import { Callout } from '@blueprintjs/core';
import { LOGIN_PATHS, loginErrorMessage, SUPER_ADMIN_TOKEN_KEY, useDemoCredentials, useLogin } from '../api/auth';
import { LoginForm } from '../auth/LoginForm';
import { Heading } from '../components/a11y';

/** Shown only outside production: the server answers 404 for the demo credentials there. */
function DemoCredentials() {
    const demo = useDemoCredentials();
    if (!demo.data) {
        return null;
    }
    return (
        <Callout intent="primary" icon="info-sign" className="lc-demo-box">
            <Heading level={2} look={6}>Demo credentials</Heading>
            <div>Email: <code>{demo.data.email}</code></div>
            <div>Password: <code>{demo.data.password}</code></div>
        </Callout>
    );
}

/** /super-admin-login (SPEC §2 'Super admin'). */
export default function SuperAdminLogin() {
    const navigate = useNavigate();
    const login = useLogin(LOGIN_PATHS.superAdmin);
    return (
        <LoginForm
            title="Super Admin Login"
            subtitle="Manage organizations, bot instances and users."
            icon="crown"
            pending={login.isPending}
            error={login.isError ? loginErrorMessage(login.error, 'Network error. Please try again.') : null}
            onSubmit={(credentials) => login.mutate(credentials, {
                onSuccess: (data) => {
                    localStorage.setItem(SUPER_ADMIN_TOKEN_KEY, data.token);
                    navigate('/super-admin');
                }
            })}
            footer={(
                <>
                    <DemoCredentials />
                    <span className="bp5-text-muted">Organization user? <Link to="/org-login">Organization login</Link></span>
                </>
            )}
        />
    );
}
