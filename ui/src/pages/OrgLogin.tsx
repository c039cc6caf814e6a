import { Link, useNavigate } from 'react-router-dom';
import { LOGIN_PATHS, loginErrorMessage, ORG_TOKEN_KEY, ORG_USER_KEY, OrgLoginResponse, useLogin } from '../api/auth';
import { LoginForm } from '../auth/LoginForm';

/** /org-login (SPEC §2 'Organization'): stores the org token and user record, then /org-dashboard. */
export default function OrgLogin() {
    const navigate = useNavigate();
    const login = useLogin<OrgLoginResponse>(LOGIN_PATHS.org);
    return (
        <LoginForm
            title="Organization Login"
            subtitle="See your bot instances, embed code and analytics."
            icon="office"
            pending={login.isPending}
            error={login.isError ? loginErrorMessage(login.error, 'Connection error. Please try again.') : null}
            onSubmit={(credentials) => login.mutate(credentials, {
                onSuccess: (data) => {
                    localStorage.setItem(ORG_TOKEN_KEY, data.token);
                    localStorage.setItem(ORG_USER_KEY, JSON.stringify(data.user));
                    navigate('/org-dashboard');
                }
            })}
            footer={(
                <div className="lc-login-links">
                    <span className="bp5-text-muted">
                        No account or forgot your password?{' '}
                        <a href="mailto:?subject=Access%20to%20our%20loyalty-chat%20organization%20dashboard">Contact your administrator</a>
                    </span>
                    <span className="bp5-text-muted">Platform operator? <Link to="/super-admin-login">Super admin login</Link></span>
                </div>
            )}
        />
    );
}
