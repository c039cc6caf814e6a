import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Drawer, DrawerSize, FormGroup, H2, Icon, InputGroup, Intent, Switch, Tag } from '@blueprintjs/core';
import { useEmailSettings, useSaveEmailSettings, useTestEmail } from '../api/chat';
import { ApiError } from '../api/client';
import { notificationsSupported } from '../components/chat/alerts';
import { BusyButton } from '../components/BusyButton';

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

    useEffect(() => {
        if (settings.data) {
            setEnabled(settings.data.emailNotificationsEnabled);
            setRecipient(settings.data.emailRecipient);
        }
    }, [settings.data]);

    return (
        <Drawer isOpen={isOpen} onClose={onClose} size={DrawerSize.SMALL} className="lc-settings-drawer" aria-label="Settings"
            // Keyboard users land in the drawer (Esc then closes it), not on the button that opened it.
            onOpened={() => body.current?.querySelector<HTMLElement>('button, input')?.focus()}>
            {/* Our own header: Blueprint's would wrap the title in an h4 (the outline needs an h2 here). */}
            <div className="bp5-drawer-header">
                <Icon icon="cog" size={20} />
                <H2 className="lc-drawer-title">Settings</H2>
                <Button aria-label="Close" className="bp5-dialog-close-button" minimal icon="small-cross" onClick={onClose} />
            </div>
            <div className="lc-drawer-body" data-testid="settings-drawer" ref={body}>
                <section aria-labelledby="lc-settings-notifications">
                    <h3 id="lc-settings-notifications" className="lc-drawer-heading">Browser notifications</h3>
                    <p className="lc-drawer-text">A notification for each new chat request while this tab is in the background.</p>
                    {permission === 'granted' ? <Tag intent="success">On</Tag>
                        : permission === 'unsupported' ? <Tag>Not supported by this browser</Tag>
                            : permission === 'denied' ? <Tag intent="danger">Blocked in the browser's site settings</Tag>
                                : <Button text="Enable notifications" icon="notifications" onClick={() => void Notification.requestPermission().then(setPermission)} />}
                </section>
                <section aria-labelledby="lc-settings-email">
                    <h3 id="lc-settings-email" className="lc-drawer-heading">Email transcripts</h3>
                    {/* Disabled until the stored settings arrive, so that they never overwrite what the agent already changed. */}
                    <Switch checked={enabled} disabled={!settings.data} label="Email a transcript when a chat ends" onChange={(e) => setEnabled((e.target as HTMLInputElement).checked)} />
                    <FormGroup label="Recipient" labelFor="lc-transcript-recipient">
                        <InputGroup id="lc-transcript-recipient" type="email" placeholder="support@example.com" value={recipient} disabled={!settings.data} onChange={(e) => setRecipient(e.target.value)} />
                    </FormGroup>
                    <div className="lc-drawer-actions">
                        <BusyButton intent="primary" text="Save" busy={save.isPending} disabled={!settings.data}
                            onClick={() => save.mutate({ emailNotificationsEnabled: enabled, emailRecipient: recipient }, {
                                onSuccess: (data) => setResult({ title: 'Settings Updated', text: data.message, intent: 'success' }),
                                onError: (err) => setResult({ title: 'Update Failed', text: errorText(err, 'Failed to update email settings'), intent: 'danger' })
                            })} />
                        <BusyButton text="Test" busy={test.isPending}
                            onClick={() => test.mutate(undefined, {
                                onSuccess: (data) => setResult({ title: 'Email Test', text: data.message, intent: 'success' }),
                                onError: (err) => setResult({ title: 'Email Test Failed', text: errorText(err, 'Email configuration test failed'), intent: 'danger' })
                            })} />
                    </div>
                    {result && <Callout intent={result.intent} title={result.title} role="status" className="lc-drawer-result">{result.text}</Callout>}
                </section>
            </div>
        </Drawer>
    );
}
