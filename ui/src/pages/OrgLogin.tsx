import { Link, useNavigate } from 'react-router-dom';
import { LOGIN_PATHS, loginErrorMessage, ORG_TOKEN_KEY, ORG_USER_KEY, OrgLoginResponse, useLogin } from '../api/auth';
import { LoginForm } from '../auth/LoginForm';
import { useT } from '../i18n';

/** SUPPORT_EMAIL, as the server put it into the page (plugins/web), or null: then "Contact your administrator" is hidden. */
export function readSupportEmail(): string | null {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="loyalty-chat:support-email"]');
    return meta?.content.trim() || null;
}

/** /org-login (SPEC §2 'Organization'): stores the org token and user record, then /org-dashboard. */
export default function OrgLogin() {
    const navigate = useNavigate();
    const supportEmail = readSupportEmail();
    const login = useLogin<OrgLoginResponse>(LOGIN_PATHS.org);
    const t = useT();
    return (
        <LoginForm
            title={t('login.org.title')}
            subtitle={t('login.org.subtitle')}
            icon="office"
            pending={login.isPending}
            error={login.isError ? loginErrorMessage(login.error, t('login.connectionError'), t) : null}
            onSubmit={(credentials) => login.mutate(credentials, {
                onSuccess: (data) => {
                    localStorage.setItem(ORG_TOKEN_KEY, data.token);
                    localStorage.setItem(ORG_USER_KEY, JSON.stringify(data.user));
                    navigate('/org-dashboard');
                }
            })}
            footer={(
                <div className="lc-login-links">
                    {supportEmail && (
                        <span className="bp5-text-muted">
                            {t('login.org.noAccount')}{' '}
                            <a href={`mailto:${encodeURIComponent(supportEmail).replace(/%40/g, '@')}?subject=${encodeURIComponent(t('login.org.contactSubject'))}`}>{t('login.org.contactAdministrator')}</a>
                        </span>
                    )}
                    <span className="bp5-text-muted">{t('login.operatorQuestion')} <Link to="/super-admin-login">{t('login.superAdminLink')}</Link></span>
                </div>
            )}
        />
    );
}
