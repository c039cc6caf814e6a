import { useEffect, useState } from 'react';
import { Button, Card, InputGroup, Switch, Tag, Intent } from '@blueprintjs/core';
import { Heading } from '../a11y';
import { useAgentStatus, useEmailSettings, useSaveEmailSettings, useSetAvailability, useTestEmail } from '../../api/chat';
import { ApiError } from '../../api/client';
import { notificationsSupported } from './alerts';
import type { ConnectionState } from './agent-socket';

export type Toast = (title: string, message: string, intent?: Intent) => void;

const STATE_LABEL: Record<ConnectionState, [string, Intent]> = {
    connecting: ['Connecting…', 'none'],
    connected: ['Connected', 'success'],
    reconnecting: ['Reconnecting…', 'warning'],
    lost: ['Connection Lost', 'danger'],
    closed: ['Disconnected', 'danger']
};

/** SPEC §2 'Agent status panel': connection state, availability, browser notifications, email transcript settings. */
export function AgentStatusPanel({ connection, attempt, toast, agentEmail }: { connection: ConnectionState; attempt: number; toast: Toast; agentEmail?: string }) {
    const status = useAgentStatus();
    const setAvailability = useSetAvailability();
    const settings = useEmailSettings();
    const save = useSaveEmailSettings();
    const test = useTestEmail();
    const [enabled, setEnabled] = useState(false);
    const [recipient, setRecipient] = useState('');
    const [permission, setPermission] = useState<string>(notificationsSupported() ? Notification.permission : 'unsupported');

    useEffect(() => {
        if (settings.data) {
            setEnabled(settings.data.emailNotificationsEnabled);
            setRecipient(settings.data.emailRecipient);
        }
    }, [settings.data]);

    const available = status.data?.available ?? false;
    const [label, intent] = STATE_LABEL[connection];

    return (
        <Card className="lc-status-card">
            <Heading level={2} look={5}>Agent status</Heading>
            {agentEmail && <div className="lc-chat-item-meta">Signed in as {agentEmail}</div>}
            <div className="lc-status-row">
                <span>Connection</span>
                <Tag intent={intent} data-testid="connection-state">{label}{connection === 'reconnecting' && attempt ? ` (${attempt}/5)` : ''}</Tag>
            </div>
            <div className="lc-status-row">
                <span>Availability</span>
                <Switch
                    checked={available}
                    disabled={status.isLoading || setAvailability.isPending}
                    label={available ? 'Available' : 'Unavailable'}
                    data-testid="availability"
                    onChange={(e) => setAvailability.mutate((e.target as HTMLInputElement).checked, {
                        onError: (err) => toast('Update Failed', err instanceof ApiError ? err.serverMessage : 'Could not change availability', 'danger')
                    })}
                />
            </div>
            <div className="lc-status-row">
                <span>Browser notifications</span>
                {permission === 'granted' ? <Tag intent="success">On</Tag>
                    : permission === 'unsupported' ? <Tag>Not supported</Tag>
                        : permission === 'denied' ? <Tag intent="danger">Blocked</Tag>
                            : <Button small text="Enable" onClick={() => void Notification.requestPermission().then(setPermission)} />}
            </div>
            <Heading level={2} look={5} className="lc-heading-gap">Email transcripts</Heading>
            <Switch checked={enabled} label="Email a transcript when a chat ends" onChange={(e) => setEnabled((e.target as HTMLInputElement).checked)} />
            <InputGroup type="email" aria-label="Transcript recipient email" placeholder="Recipient email" value={recipient} onChange={(e) => setRecipient(e.target.value)} />
            <div className="lc-status-row" style={{ justifyContent: 'flex-start', marginTop: 8 }}>
                <Button
                    intent="primary"
                    text="Save"
                    loading={save.isPending}
                    onClick={() => save.mutate({ emailNotificationsEnabled: enabled, emailRecipient: recipient }, {
                        onSuccess: (data) => toast('Settings Updated', data.message, 'success'),
                        onError: (err) => toast('Update Failed', err instanceof ApiError ? err.serverMessage : 'Failed to update email settings', 'danger')
                    })}
                />
                <Button
                    text="Test"
                    loading={test.isPending}
                    onClick={() => test.mutate(undefined, {
                        onSuccess: (data) => toast('Email Test', data.message, 'success'),
                        onError: (err) => toast('Email Test Failed', err instanceof ApiError ? err.serverMessage : 'Email configuration test failed', 'danger')
                    })}
                />
            </div>
        </Card>
    );
}
