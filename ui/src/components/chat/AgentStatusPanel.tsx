import { Switch, Tag, Intent } from '@blueprintjs/core';
import { useAgentStatus, useSetAvailability } from '../../api/chat';
import { ApiError } from '../../api/client';
import type { ConnectionState } from './agent-socket';

export type Toast = (title: string, message: string, intent?: Intent) => void;

const STATE_LABEL: Record<ConnectionState, [string, Intent]> = {
    connecting: ['Connecting…', 'none'],
    connected: ['Connected', 'success'],
    reconnecting: ['Reconnecting…', 'warning'],
    lost: ['Connection Lost', 'danger'],
    closed: ['Disconnected', 'danger']
};

/**
 * SPEC §2 'Agent status panel', in the console's head: connection state and availability. Browser notifications
 * and email transcripts are in the shell's Settings drawer.
 */
export function AgentStatusPanel({ connection, attempt, toast }: { connection: ConnectionState; attempt: number; toast: Toast }) {
    const status = useAgentStatus();
    const setAvailability = useSetAvailability();
    const available = status.data?.available ?? false;
    const [label, intent] = STATE_LABEL[connection];

    return (
        <div className="lc-agent-status" role="group" aria-label="Agent status">
            <Tag intent={intent} data-testid="connection-state" round>{label}{connection === 'reconnecting' && attempt ? ` (${attempt}/5)` : ''}</Tag>
            <Switch
                className="lc-availability"
                checked={available}
                disabled={status.isLoading || setAvailability.isPending}
                label={available ? 'Available' : 'Unavailable'}
                data-testid="availability"
                onChange={(e) => setAvailability.mutate((e.target as HTMLInputElement).checked, {
                    onError: (err) => toast('Update Failed', err instanceof ApiError ? err.serverMessage : 'Could not change availability', 'danger')
                })}
            />
        </div>
    );
}
