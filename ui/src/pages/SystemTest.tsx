import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Client } from '@hapi/nes/lib/client';
import { Button, Card, Callout, FormGroup, H1, InputGroup, Intent, Spinner, Tag } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import { runAnalyticsTest, runAvailabilityTest, runLoyaltyTest, useSystemSummary } from '../api/system-test';
import { useAdminAuth } from '../auth/AdminGuard';
import { mmss } from '../components/chat/alerts';
import './system-test.css';
import { BusyButton } from '../components/BusyButton';
import { AdminTextKey, useT } from '../i18n';
import { useStaffTime } from '../time';

type TestId = 'analytics' | 'websocket' | 'livechat' | 'loyalty';
type Outcome = { state: 'pending' } | { state: 'running' } | { state: 'success'; ms: number; text: string } | { state: 'error'; ms: number; text: string };

/** The four cards; each one's title and what it does are `system.card.<id>.title` / `.what` in the catalogue. */
const CARDS: TestId[] = ['analytics', 'websocket', 'livechat', 'loyalty'];

function errorText(err: unknown): string {
    return err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : String(err);
}

const BADGE: Record<Outcome['state'], [AdminTextKey, Intent]> = {
    pending: ['system.badge.pending', 'none'], running: ['system.badge.pending', 'primary'], success: ['system.badge.success', 'success'], error: ['system.badge.error', 'danger']
};

/**
 * SPEC §2 'System test dashboard' (/test and /test-dashboard, issue 14): real round trips against this
 * installation, each card Pending / Success / Error with the time it took and the error text; Run All Tests;
 * system analytics over 30 days; the chats waiting now; the raw websocket messages the socket test saw.
 */
export default function SystemTest() {
    const { token, user } = useAdminAuth();
    const t = useT();
    const time = useStaffTime();
    const queryClient = useQueryClient();
    const summary = useSystemSummary();
    const [outcomes, setOutcomes] = useState<Record<TestId, Outcome>>({
        analytics: { state: 'pending' }, websocket: { state: 'pending' }, livechat: { state: 'pending' }, loyalty: { state: 'pending' }
    });
    const [phone, setPhone] = useState('');
    const [frames, setFrames] = useState<Array<{ at: string; dir: 'sent' | 'received'; text: string }>>([]);
    const phoneRef = useRef(phone);
    phoneRef.current = phone;

    const websocketTest = useCallback(async (): Promise<string> => {
        const log = (dir: 'sent' | 'received', value: unknown) =>
            setFrames((f) => [...f, { at: new Date().toISOString(), dir, text: JSON.stringify(value) }].slice(-50));
        const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
        const client = new Client(`${scheme}://${location.host}/ws` as `ws://${string}`);
        client.onError = () => {};
        try {
            await client.connect({ auth: { headers: { authorization: `Bearer ${token}` } }, reconnect: false, timeout: 5000 });
            log('received', { type: 'hello', socketId: client.id });
            const path = `/agents/${user.organizationId}`;
            log('sent', { type: 'sub', path });
            await client.subscribe(path, (update) => log('received', update));
            const ping = { type: 'ping' };
            log('sent', ping);
            const answer = await client.message(ping);
            log('received', answer.payload);
            if ((answer.payload as { type?: string } | null)?.type !== 'pong') {
                throw new Error(`Expected a pong, got ${JSON.stringify(answer.payload)}`);
            }
            return t('system.wsOk');
        }
        finally {
            await client.disconnect();
            log('sent', { type: 'close' });
        }
    }, [token, user.organizationId, t]);

    const run = useCallback(async (id: TestId) => {
        setOutcomes((o) => ({ ...o, [id]: { state: 'running' } }));
        const started = performance.now();
        try {
            let text: string;
            if (id === 'analytics') {
                text = (await runAnalyticsTest()).message;
            }
            else if (id === 'websocket') {
                text = await websocketTest();
            }
            else if (id === 'livechat') {
                text = (await runAvailabilityTest()).message;
            }
            else {
                text = (await runLoyaltyTest(phoneRef.current)).message;
            }
            setOutcomes((o) => ({ ...o, [id]: { state: 'success', ms: Math.round(performance.now() - started), text } }));
        }
        catch (err) {
            setOutcomes((o) => ({ ...o, [id]: { state: 'error', ms: Math.round(performance.now() - started), text: errorText(err) } }));
        }
    }, [websocketTest]);

    const runAll = async () => {
        await Promise.all(CARDS.map((id) => run(id)));
        await queryClient.invalidateQueries({ queryKey: ['system-test', 'summary'] });
    };
    const running = Object.values(outcomes).some((o) => o.state === 'running');

    return (
        <div className="lc-page lc-system-test">
            <div className="lc-page-head">
                <div>
                    <H1 className="lc-h1">{t('system.title')}</H1>
                    <p className="lc-muted">{t('system.intro')}</p>
                </div>
                <BusyButton intent="primary" icon="play" text={t('system.runAll')} large busy={running} onClick={() => void runAll()} data-testid="run-all" />
            </div>
            <section className="lc-test-grid" aria-label={t('system.tests')}>
                {CARDS.map((id) => {
                    const card = { id, title: t(`system.card.${id}.title` as AdminTextKey), what: t(`system.card.${id}.what` as AdminTextKey) };
                    const outcome = outcomes[card.id];
                    const [label, intent] = BADGE[outcome.state];
                    return (
                        <Card key={card.id} className="lc-test-card" data-testid={`test-${card.id}`} data-state={outcome.state}>
                            <div className="lc-test-head">
                                <h2 className="lc-test-title">{card.title}</h2>
                                <Tag intent={intent} round data-testid="test-badge">{t(label)}</Tag>
                            </div>
                            <p className="lc-muted">{card.what}</p>
                            {card.id === 'loyalty' && (
                                <FormGroup label={t('system.testPhone')} labelFor="lc-test-phone">
                                    <InputGroup id="lc-test-phone" value={phone} onChange={(e) => setPhone(e.target.value)} placeholder="+1 555-555-0100" />
                                </FormGroup>
                            )}
                            <div className="lc-test-result" aria-live="polite">
                                {outcome.state === 'running' && <Spinner size={16} />}
                                {(outcome.state === 'success' || outcome.state === 'error') && (
                                    <>
                                        <span className="lc-test-ms" data-testid="test-ms">{t('system.ms', { ms: outcome.ms })}</span>
                                        <span className={outcome.state === 'error' ? 'lc-test-error' : ''} data-testid="test-text">{outcome.text}</span>
                                    </>
                                )}
                            </div>
                            <Button text={t('system.run')} icon="play" small disabled={outcome.state === 'running'} onClick={() => void run(card.id)} />
                        </Card>
                    );
                })}
            </section>
            <div className="lc-test-lower">
                <Card className="lc-test-panel">
                    <h2 className="lc-test-title">{t('system.analytics')}</h2>
                    {summary.isError && <Callout intent="danger">{errorText(summary.error)}</Callout>}
                    {summary.isPending && <Spinner size={20} />}
                    {summary.data && (
                        <dl className="lc-test-stats" data-testid="system-analytics">
                            <div><dt>{t('stats.totalInteractions')}</dt><dd>{t('common.number', { value: summary.data.totalInteractions })}</dd></div>
                            <div><dt>{t('stats.successRate')}</dt><dd>{t('common.percent', { value: summary.data.successRate / 100 })}</dd></div>
                            <div><dt>{t('system.activeDomains')}</dt><dd>{t('common.number', { value: summary.data.activeDomains })}</dd></div>
                        </dl>
                    )}
                </Card>
                <Card className="lc-test-panel">
                    <h2 className="lc-test-title">{t('system.waiting')}</h2>
                    {summary.data && !summary.data.waitingSessions.length && <p className="lc-muted">{t('system.noWaiting')}</p>}
                    <ul className="lc-test-list" data-testid="waiting-sessions">
                        {summary.data?.waitingSessions.map((s) => (
                            <li key={s.sessionId}><strong>{s.phoneNumber}</strong> · {t('system.waitingFor', { time: mmss(s.waitSeconds) })}{s.firstMessage ? ` · ${s.firstMessage}` : ''}</li>
                        ))}
                    </ul>
                </Card>
                {frames.length > 0 && (
                    <Card className="lc-test-panel lc-test-wide">
                        <h2 className="lc-test-title">{t('system.wsMessages')}</h2>
                        <ol className="lc-frames" data-testid="ws-messages">
                            {frames.map((f, i) => (
                                <li key={i}><span className="lc-muted" data-testid="ws-time">{time(f.at, 'precise')}</span> <span className="lc-muted" aria-label={t(f.dir === 'sent' ? 'system.wsSent' : 'system.wsReceived')}>{f.dir === 'sent' ? '→' : '←'}</span> <code dir="ltr">{f.text}</code></li>
                            ))}
                        </ol>
                    </Card>
                )}
            </div>
        </div>
    );
}
