import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Drawer, DrawerSize, FormGroup, H2, Icon, InputGroup, Intent, Switch, Tag } from '@blueprintjs/core';
import { useEmailSettings, useSaveEmailSettings, useTestEmail } from '../api/chat';
import { ApiError } from '../api/client';
import { notificationsSupported } from '../components/chat/alerts';
import { BusyButton } from '../components/BusyButton';
import { useT } from '../i18n';

function errorText(err: unknown, fallback: string): string {
    return err instanceof ApiError ? err.serverMessage : fallback;
}

/** The staff settings, out of the way of the queue (issue 14): email transcripts and browser notifications. */
export function SettingsDrawer({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
    const settings = useEmailSettings();
    const save = useSaveEmailSettings();
    const test = useTestEmail();
    const [enabled, setEnabled] = useState(false);
    const [recipient, setRecipient] = useState('');
    const [result, setResult] = useState<{ title: string; text: string; intent: Intent } | null>(null);
    const body = useRef<HTMLDivElement>(null);
    const [permission, setPermission] = useState<string>(notificationsSupported() ? Notification.permission : 'unsupported');
    const t = useT();

    useEffect(() => {
        if (settings.data) {
            setEnabled(settings.data.emailNotificationsEnabled);
            setRecipient(settings.data.emailRecipient);
        }
    }, [settings.data]);

    return (
        <Drawer isOpen={isOpen} onClose={onClose} size={DrawerSize.SMALL} className="lc-settings-drawer" aria-label={t('settings.title')}
            // Keyboard users land in the drawer (Esc then closes it), not on the button that opened it.
            onOpened={() => body.current?.querySelector<HTMLElement>('button, input')?.focus()}>
            {/* Our own header: Blueprint's would wrap the title in an h4 (the outline needs an h2 here). */}
            <div className="bp5-drawer-header">
                <Icon icon="cog" size={20} />
                <H2 className="lc-drawer-title">{t('settings.title')}</H2>
                <Button aria-label={t('settings.close')} className="bp5-dialog-close-button" minimal icon="small-cross" onClick={onClose} />
            </div>
            <div className="lc-drawer-body" data-testid="settings-drawer" ref={body}>
                <section aria-labelledby="lc-settings-notifications">
                    <h3 id="lc-settings-notifications" className="lc-drawer-heading">{t('settings.notifications')}</h3>
                    <p className="lc-drawer-text">{t('settings.notificationsHelp')}</p>
                    {permission === 'granted' ? <Tag intent="success">{t('settings.notificationsOn')}</Tag>
                        : permission === 'unsupported' ? <Tag>{t('settings.notificationsUnsupported')}</Tag>
                            : permission === 'denied' ? <Tag intent="danger">{t('settings.notificationsBlocked')}</Tag>
                                : <Button text={t('settings.enableNotifications')} icon="notifications" onClick={() => void Notification.requestPermission().then(setPermission)} />}
                </section>
                <section aria-labelledby="lc-settings-email">
                    <h3 id="lc-settings-email" className="lc-drawer-heading">{t('settings.transcripts')}</h3>
                    {/* Disabled until the stored settings arrive, so that they never overwrite what the agent already changed. */}
                    <Switch checked={enabled} disabled={!settings.data} label={t('settings.transcriptsSwitch')} onChange={(e) => setEnabled((e.target as HTMLInputElement).checked)} />
                    <FormGroup label={t('settings.recipient')} labelFor="lc-transcript-recipient">
                        <InputGroup id="lc-transcript-recipient" type="email" placeholder="support@example.com" value={recipient} disabled={!settings.data} onChange={(e) => setRecipient(e.target.value)} />
                    </FormGroup>
                    <div className="lc-drawer-actions">
                        <BusyButton intent="primary" text={t('settings.save')} busy={save.isPending} disabled={!settings.data}
                            onClick={() => save.mutate({ emailNotificationsEnabled: enabled, emailRecipient: recipient }, {
                                onSuccess: (data) => setResult({ title: t('settings.updated'), text: data.message, intent: 'success' }),
                                onError: (err) => setResult({ title: t('settings.updateFailed'), text: errorText(err, t('settings.updateFailedText')), intent: 'danger' })
                            })} />
                        <BusyButton text={t('settings.test')} busy={test.isPending}
                            onClick={() => test.mutate(undefined, {
                                onSuccess: (data) => setResult({ title: t('settings.emailTest'), text: data.message, intent: 'success' }),
                                onError: (err) => setResult({ title: t('settings.emailTestFailed'), text: errorText(err, t('settings.emailTestFailedText')), intent: 'danger' })
                            })} />
                    </div>
                    {result && <Callout intent={result.intent} title={result.title} role="status" className="lc-drawer-result">{result.text}</Callout>}
                </section>
                <section aria-labelledby="lc-settings-privacy">
                    <h3 id="lc-settings-privacy" className="lc-drawer-heading">{t('settings.privacy')}</h3>
                    <p className="lc-drawer-text">{t('settings.privacyHelp')}</p>
                    <Link to="/privacy" className="bp5-button" onClick={onClose} data-testid="open-privacy">
                        <Icon icon="shield" /><span className="bp5-button-text">{t('settings.privacyOpen')}</span>
                    </Link>
                </section>
            </div>
        </Drawer>
    );
}
