import { Link, useNavigate } from 'react-router-dom';
import { Callout } from '@blueprintjs/core';
import { LOGIN_PATHS, loginErrorMessage, SUPER_ADMIN_TOKEN_KEY, useDemoCredentials, useLogin } from '../api/auth';
import { LoginForm } from '../auth/LoginForm';
import { Heading } from '../components/a11y';
import { useT } from '../i18n';

/** Shown only outside production: the server answers 404 for the demo credentials there. */
function DemoCredentials() {
    const demo = useDemoCredentials();
    const t = useT();
    if (!demo.data) {
        return null;
    }
    return (
        <Callout intent="primary" icon="info-sign" className="lc-demo-box">
            <Heading level={2} look={6}>{t('login.demoCredentials')}</Heading>
            <div>{t('login.demoEmail')} <code>{demo.data.email}</code></div>
            <div>{t('login.demoPassword')} <code>{demo.data.password}</code></div>
        </Callout>
    );
}

/** /super-admin-login (SPEC §2 'Super admin'). */
export default function SuperAdminLogin() {
    const navigate = useNavigate();
    const login = useLogin(LOGIN_PATHS.superAdmin);
    const t = useT();
    return (
        <LoginForm
            title={t('login.super.title')}
            subtitle={t('login.super.subtitle')}
            icon="crown"
            pending={login.isPending}
            error={login.isError ? loginErrorMessage(login.error, t('login.networkError'), t) : null}
            onSubmit={(credentials) => login.mutate(credentials, {
                onSuccess: (data) => {
                    localStorage.setItem(SUPER_ADMIN_TOKEN_KEY, data.token);
                    navigate('/super-admin');
                }
            })}
            footer={(
                <>
                    <DemoCredentials />
                    <span className="bp5-text-muted">{t('login.orgUserQuestion')} <Link to="/org-login">{t('login.orgLoginLink')}</Link></span>
                </>
            )}
        />
    );
}
