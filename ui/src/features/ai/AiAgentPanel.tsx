import { useCallback, useRef } from 'react';
import { Link } from 'react-router-dom';
import { AnchorButton, Button, Callout, Card, Elevation, Intent, OverlayToaster, Spinner, Tag } from '@blueprintjs/core';
import { ApiError } from '../../api/client';
import { useAiSessions, useAiStatus, useSetAiEnabled } from '../../api/ai';
import { AdminTextKey, PSEUDO, useLanguage, useT } from '../../i18n';
import './ai.css';

/** What the agent does without and with a verified phone (their texts: `aiPanel.tier1.*`, `aiPanel.tier2.*`). */
const TIER_1: AdminTextKey[] = ['aiPanel.tier1.knowledge', 'aiPanel.tier1.promotions', 'aiPanel.tier1.store'];
const TIER_2: AdminTextKey[] = ['aiPanel.tier2.points', 'aiPanel.tier2.orders', 'aiPanel.tier2.recommendations', 'aiPanel.tier2.liveChat'];

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
    const t = useT();
    const lang = useLanguage();
    const count = (n: number | undefined) => (typeof n === 'number' ? t('common.number', { value: n }) : '—');
    // Rates to one decimal, as the API gives them (46.2 %), written the agent's way.
    const rate = (n: number | undefined) => (typeof n === 'number' ? new Intl.NumberFormat(lang === PSEUDO ? 'en' : lang, { style: 'percent', maximumFractionDigits: 1 }).format(n / 100) : '—');

    return (
        <Card elevation={Elevation.ONE} className="lc-ai-panel" data-testid="ai-agent-panel">
            <OverlayToaster ref={toaster} maxToasts={1} position="top-right" />
            <div className="lc-ai-panel-head">
                <h2>{t('aiPanel.title')}</h2>
                {status.isPending && <Spinner size={16} />}
                {enabled !== undefined && (
                    <span className="lc-ai-buttons">
                        <Tag round intent={enabled ? Intent.SUCCESS : Intent.NONE} data-testid="ai-enabled-tag">{enabled ? t('aiPanel.enabled') : t('aiPanel.disabled')}</Tag>
                        <Button
                            small
                            intent={enabled ? Intent.NONE : Intent.PRIMARY}
                            text={setEnabled.isPending ? t('common.saving') : enabled ? t('aiPanel.disable') : t('aiPanel.enable')}
                            disabled={setEnabled.isPending}
                            onClick={() => setEnabled.mutate(!enabled, {
                                onSuccess: (data) => onToast(t('aiPanel.updated'), t('aiPanel.nowEnabled', { enabled: String(data.enabled ?? !enabled) }), Intent.SUCCESS),
                                onError: (err) => onToast(t('aiPanel.updateFailed'), err instanceof ApiError ? err.serverMessage : t('aiPanel.couldNotChange'), Intent.DANGER)
                            })}
                        />
                    </span>
                )}
            </div>
            {status.isError && <Callout intent={Intent.WARNING} className="lc-mb">{t('aiPanel.statusFailed')}</Callout>}
            <div className="lc-ai-tiers">
                <div>
                    <h3>{t('aiPanel.tier1')}</h3>
                    <ul>{TIER_1.map((key) => <li key={key}>{t(key)}</li>)}</ul>
                </div>
                <div>
                    <h3>{t('aiPanel.tier2')}</h3>
                    <ul>{TIER_2.map((key) => <li key={key}>{t(key)}</li>)}</ul>
                </div>
            </div>
            <dl className="lc-ai-stats" aria-label={t('aiPanel.figures')}>
                <Figure label={t('aiPanel.activeSessions')} value={count(s?.activeSessions)} />
                <Figure label={t('aiPanel.functionsToday')} value={count(s?.todayFunctionCalls)} />
                <Figure label={t('aiPanel.verificationsToday')} value={count(s?.verificationsToday)} />
                <Figure label={t('stats.successRate')} value={rate(s?.successRate)} />
                <Figure label={t('aiPanel.questions30')} value={count(s?.questions)} />
                <Figure label={t('aiPanel.answered')} value={rate(s?.answerRate)} />
                <Figure label={t('ai.triage.resolved')} value={rate(s?.resolutionRate)} />
                <Figure label={t('aiPanel.handoffs')} value={count(s?.handoffs)} />
            </dl>
            <div className="lc-ai-buttons">
                <AnchorButton icon="lab-test" text={t('aiPanel.test')} href="/ai-test" target="_blank" rel="noopener noreferrer" aria-label={`${t('aiPanel.test')} ${t('home.newTab')}`} />
                <Link className="bp5-button" to="/ai-management"><span className="bp5-button-text">{t('aiPanel.manage')}</span></Link>
            </div>
        </Card>
    );
}
