import { FormEvent, ReactNode, useState } from 'react';
import { Button, Callout, Card, Elevation, FormGroup, Icon, InputGroup } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useT } from '../i18n';

export interface LoginFormProps {
    title: string;
    subtitle?: string;
    icon?: IconName;
    pending: boolean;
    error: string | null;
    onSubmit: (credentials: { email: string; password: string }) => void;
    /** Shown under the form (links, demo box). */
    footer?: ReactNode;
    initial?: { email: string; password: string };
}

/**
 * The login card of the three login screens (SPEC §2, §5): email (type email) and password, both required;
 * Sign In disabled until both are filled and while pending ('Signing in...'); the error in a red callout.
 */
export function LoginForm({ title, subtitle, icon = 'lock', pending, error, onSubmit, footer, initial }: LoginFormProps) {
    const [email, setEmail] = useState(initial?.email ?? '');
    const [password, setPassword] = useState(initial?.password ?? '');
    const filled = email.trim() !== '' && password !== '';
    const t = useT();

    const submit = (event: FormEvent) => {
        event.preventDefault();
        if (filled && !pending) {
            onSubmit({ email: email.trim(), password });
        }
    };

    return (
        <main className="lc-center lc-login-page">
            <Card elevation={Elevation.TWO} className="lc-login-card">
                <div className="lc-login-head">
                    <span className="lc-login-icon"><Icon icon={icon} size={20} /></span>
                    <div>
                        <h1 className="bp5-heading lc-as-h3 lc-login-title">{title}</h1>
                        {subtitle && <p className="bp5-text-muted lc-login-subtitle">{subtitle}</p>}
                    </div>
                </div>
                <form onSubmit={submit} noValidate={false}>
                    {error && (
                        <Callout intent="danger" icon="error" className="lc-login-error" role="alert">{error}</Callout>
                    )}
                    <FormGroup label={t('login.email')} labelFor="login-email">
                        <InputGroup id="login-email" name="email" type="email" autoComplete="username" required large
                            leftIcon="envelope" placeholder={t('login.emailPlaceholder')} value={email} autoFocus
                            onChange={(e) => setEmail(e.target.value)} />
                    </FormGroup>
                    <FormGroup label={t('login.password')} labelFor="login-password">
                        <InputGroup id="login-password" name="password" type="password" autoComplete="current-password" required large
                            leftIcon="key" placeholder={t('login.passwordPlaceholder')} value={password}
                            onChange={(e) => setPassword(e.target.value)} />
                    </FormGroup>
                    <Button type="submit" intent="primary" large fill disabled={!filled || pending}
                        text={t(pending ? 'login.signingIn' : 'login.signIn')} />
                </form>
                {footer && <div className="lc-login-footer">{footer}</div>}
            </Card>
        </main>
    );
}
