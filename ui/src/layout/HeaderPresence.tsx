import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Icon, Intent, Switch, Tag } from '@blueprintjs/core';
import { useAgentStatus, useSetAvailability, useWaitingChats } from '../api/chat';
import { ApiError } from '../api/client';
import type { ConnectionState } from '../components/chat/agent-socket';
import { AdminTextKey, useT } from '../i18n';
import { awaySeen, awayText, markAwaySeen, useAgentSocket } from './agent-presence';

const STATE: Record<ConnectionState, [AdminTextKey, Intent]> = {
    connecting: ['presence.connecting', 'none'],
    connected: ['presence.connected', 'success'],
    reconnecting: ['presence.reconnecting', 'warning'],
    lost: ['presence.lost', 'danger'],
    closed: ['presence.disconnected', 'danger']
};

/**
 * The agent's presence in the header of every staff page (issue 23; SPEC §2 'Agent status panel'): the socket's
 * state, the Available switch (the agent's, shared by every tab) and the customers waiting, a link to /admin-chat.
 */
export function HeaderPresence() {
    const t = useT();
    const { connection, attempt, toast } = useAgentSocket();
    const status = useAgentStatus();
    const setAvailability = useSetAvailability();
    const waiting = useWaitingChats();
    const available = status.data?.available ?? false;
    const [label, intent] = STATE[connection];
    const count = waiting.data?.length ?? 0;

    return (
        <div className="lc-presence" role="group" aria-label={t('presence.group')}>
            <Tag intent={intent} data-testid="connection-state" round minimal={connection === 'connected'} className={`lc-presence-state${connection === 'connected' ? ' is-connected' : ''}`}
                title={t(label)}><span className="lc-presence-dot" aria-hidden="true" /><span className="lc-presence-label">{t(label)}{connection === 'reconnecting' && attempt ? ` (${attempt}/5)` : ''}</span></Tag>
            <Switch
                className="lc-availability"
                checked={available}
                disabled={status.isLoading || setAvailability.isPending}
                label={available ? t('presence.available') : t('presence.unavailable')}
                data-testid="availability"
                onChange={(e) => setAvailability.mutate((e.target as HTMLInputElement).checked, {
                    onSuccess: () => markAwaySeen(status.data?.awayAt ?? null),
                    onError: (err) => toast(t('presence.changeFailed'), err instanceof ApiError ? err.serverMessage : t('presence.changeFailedText'), 'danger')
                })}
            />
            <Link to="/admin-chat" className={`lc-presence-waiting${count ? ' has-waiting' : ''}`} data-testid="waiting-count"
                title={t('presence.waitingLabel', { count })}>
                <Icon icon="people" size={12} aria-hidden={true} />
                <span className="lc-presence-waiting-n">{count}</span>
                <span className="lc-presence-waiting-text">{t('presence.waiting')}</span>
            </Link>
        </div>
    );
}

/**
 * Why the server set this agent Away (idle, every tab closed, signed out elsewhere), told once: shown under the
 * header until the agent dismisses it or sets Available again (the Set Available button does both).
 */
export function AwayNotice() {
    const t = useT();
    const status = useAgentStatus();
    const setAvailability = useSetAvailability();
    const [dismissed, setDismissed] = useState(awaySeen);
    const data = status.data;
    if (!data || data.available || !data.awayReason || !data.awayAt || dismissed === data.awayAt) {
        return null;
    }
    const text = awayText(t, data.awayReason, data);
    const seen = () => {
        markAwaySeen(data.awayAt);
        setDismissed(data.awayAt);
    };
    return (
        <div className="lc-away-notice" role="status" data-testid="away-notice">
            <span className="lc-away-text"><strong>{t('away.title')}</strong> {text}</span>
            <span className="lc-away-actions">
                <Button small intent="primary" text={t('away.setAvailable')} loading={setAvailability.isPending}
                    onClick={() => setAvailability.mutate(true, { onSuccess: seen })} />
                <Button small minimal icon="cross" aria-label={t('away.dismiss')} onClick={seen} />
            </span>
        </div>
    );
}
