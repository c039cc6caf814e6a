import { useCallback, useRef } from 'react';
import { Link } from 'react-router-dom';
import { AnchorButton, Button, Callout, Card, Elevation, Intent, OverlayToaster, Spinner, Tag } from '@blueprintjs/core';
import { ApiError } from '../../api/client';
import { useAiSessions, useAiStatus, useSetAiEnabled } from '../../api/ai';
import './ai.css';

const TIER_1 = ['Knowledge base questions', 'Current discounts and promotions', 'Store information'];
const TIER_2 = ['Loyalty points check', 'Order history', 'Product recommendations', 'Live chat transfer'];

function Figure({ label, value }: { label: string; value: string }) {
    return <div className="lc-ai-stat"><dt>{label}</dt><dd>{value}</dd></div>;
}

/**
 * The AI agent configuration panel (SPEC §2, embedded on the admin home and the analytics AI Agent tab):
 * enabled state with Enable/Disable, the tier lists, the session figures plus the answer and resolution rates
 * and hand-offs, a button to the test page (new tab) and one to /ai-management.
 */
export function AiAgentPanel() {
    const toaster = useRef<OverlayToaster | null>(null);
    const onToast = useCallback((title: string, message: string, intent: Intent) => {
        toaster.current?.show({ message: <div><strong>{title}</strong><div>{message}</div></div>, intent, timeout: 5000 });
    }, []);
    const status = useAiStatus();
    const sessions = useAiSessions();
    const setEnabled = useSetAiEnabled();
    const enabled = status.data?.enabled;
    const s = sessions.data;
    const show = (n: number | undefined, suffix = '') => (typeof n === 'number' ? `${n}${suffix}` : '—');

    return (
        <Card elevation={Elevation.ONE} className="lc-ai-panel" data-testid="ai-agent-panel">
            <OverlayToaster ref={toaster} maxToasts={1} position="top-right" />
            <div className="lc-ai-panel-head">
                <h2>AI Agent</h2>
                {status.isPending && <Spinner size={16} />}
                {enabled !== undefined && (
                    <span className="lc-ai-buttons">
                        <Tag round intent={enabled ? Intent.SUCCESS : Intent.NONE} data-testid="ai-enabled-tag">{enabled ? 'Enabled' : 'Disabled'}</Tag>
                        <Button
                            small
                            intent={enabled ? Intent.NONE : Intent.PRIMARY}
                            text={setEnabled.isPending ? 'Saving...' : enabled ? 'Disable' : 'Enable'}
                            disabled={setEnabled.isPending}
                            onClick={() => setEnabled.mutate(!enabled, {
                                onSuccess: (data) => onToast('Settings Updated', data.message, Intent.SUCCESS),
                                onError: (err) => onToast('Update Failed', err instanceof ApiError ? err.serverMessage : 'Could not change the AI agent', Intent.DANGER)
                            })}
                        />
                    </span>
                )}
            </div>
            {status.isError && <Callout intent={Intent.WARNING} className="lc-mb">The AI agent's status could not be loaded.</Callout>}
            <div className="lc-ai-tiers">
                <div>
                    <h3>Tier 1 (no verification)</h3>
                    <ul>{TIER_1.map((t) => <li key={t}>{t}</li>)}</ul>
                </div>
                <div>
                    <h3>Tier 2 (phone verification)</h3>
                    <ul>{TIER_2.map((t) => <li key={t}>{t}</li>)}</ul>
                </div>
            </div>
            <dl className="lc-ai-stats" aria-label="AI agent figures">
                <Figure label="Active sessions" value={show(s?.activeSessions)} />
                <Figure label="Functions called today" value={show(s?.todayFunctionCalls)} />
                <Figure label="Verifications today" value={show(s?.verificationsToday)} />
                <Figure label="Success rate" value={show(s?.successRate, '%')} />
                <Figure label="Questions (30 days)" value={show(s?.questions)} />
                <Figure label="Answered" value={show(s?.answerRate, '%')} />
                <Figure label="Resolved" value={show(s?.resolutionRate, '%')} />
                <Figure label="Hand-offs" value={show(s?.handoffs)} />
            </dl>
            <div className="lc-ai-buttons">
                <AnchorButton icon="lab-test" text="Test the agent" href="/ai-test" target="_blank" rel="noopener noreferrer" aria-label="Test the agent (opens in a new tab)" />
                <Link className="bp5-button" to="/ai-management"><span className="bp5-button-text">Manage knowledge</span></Link>
            </div>
        </Card>
    );
}
