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

type TestId = 'analytics' | 'websocket' | 'livechat' | 'loyalty';
type Outcome = { state: 'pending' } | { state: 'running' } | { state: 'success'; ms: number; text: string } | { state: 'error'; ms: number; text: string };

const CARDS: Array<{ id: TestId; title: string; what: string }> = [
    { id: 'analytics', title: 'Analytics', what: 'Tracks an event (dated 1970, so no report counts it) and reads it back.' },
    { id: 'websocket', title: 'WebSocket', what: 'Opens the live chat socket, subscribes, pings and closes.' },
    { id: 'livechat', title: 'Live Chat', what: 'Asks whether a customer would reach an agent now.' },
    { id: 'loyalty', title: 'Loyalty', what: 'Looks a test phone up at the loyalty provider; the code text is a dry run (nothing is sent).' }
];

function errorText(err: unknown): string {
    return err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : String(err);
}

const BADGE: Record<Outcome['state'], [string, Intent]> = {
    pending: ['Pending', 'none'], running: ['Pending', 'primary'], success: ['Success', 'success'], error: ['Error', 'danger']
};

/**
 * SPEC §2 'System test dashboard' (/test and /test-dashboard, issue 14): real round trips against this
 * installation, each card Pending / Success / Error with the time it took and the error text; Run All Tests;
 * system analytics over 30 days; the chats waiting now; the raw websocket messages the socket test saw.
 */
export default function SystemTest() {
    const { token, user } = useAdminAuth();
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
            return 'Connected, subscribed, ping answered with pong, closed';
        }
        finally {
            await client.disconnect();
            log('sent', { type: 'close' });
        }
    }, [token, user.organizationId]);

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
        await Promise.all(CARDS.map((c) => run(c.id)));
        await queryClient.invalidateQueries({ queryKey: ['system-test', 'summary'] });
    };
    const running = Object.values(outcomes).some((o) => o.state === 'running');

    return (
        <div className="lc-page lc-system-test">
            <div className="lc-page-head">
                <div>
                    <H1 className="lc-h1">System Tests</H1>
                    <p className="lc-muted">Real round trips against this server, for your store only.</p>
                </div>
                <BusyButton intent="primary" icon="play" text="Run All Tests" large busy={running} onClick={() => void runAll()} data-testid="run-all" />
            </div>
            <section className="lc-test-grid" aria-label="Tests">
                {CARDS.map((card) => {
                    const outcome = outcomes[card.id];
                    const [label, intent] = BADGE[outcome.state];
                    return (
                        <Card key={card.id} className="lc-test-card" data-testid={`test-${card.id}`} data-state={outcome.state}>
                            <div className="lc-test-head">
                                <h2 className="lc-test-title">{card.title}</h2>
                                <Tag intent={intent} round data-testid="test-badge">{label}</Tag>
                            </div>
                            <p className="lc-muted">{card.what}</p>
                            {card.id === 'loyalty' && (
                                <FormGroup label="Test phone (default +1 555-555-0100)" labelFor="lc-test-phone">
                                    <InputGroup id="lc-test-phone" value={phone} onChange={(e) => setPhone(e.target.value)} placeholder="+1 555-555-0100" />
                                </FormGroup>
                            )}
                            <div className="lc-test-result" aria-live="polite">
                                {outcome.state === 'running' && <Spinner size={16} />}
                                {(outcome.state === 'success' || outcome.state === 'error') && (
                                    <>
                                        <span className="lc-test-ms" data-testid="test-ms">{outcome.ms} ms</span>
                                        <span className={outcome.state === 'error' ? 'lc-test-error' : ''} data-testid="test-text">{outcome.text}</span>
                                    </>
                                )}
                            </div>
                            <Button text="Run" icon="play" small disabled={outcome.state === 'running'} onClick={() => void run(card.id)} />
                        </Card>
                    );
                })}
            </section>
            <div className="lc-test-lower">
                <Card className="lc-test-panel">
                    <h2 className="lc-test-title">System analytics (30 days)</h2>
                    {summary.isError && <Callout intent="danger">{errorText(summary.error)}</Callout>}
                    {summary.isPending && <Spinner size={20} />}
                    {summary.data && (
                        <dl className="lc-test-stats" data-testid="system-analytics">
                            <div><dt>Total interactions</dt><dd>{summary.data.totalInteractions.toLocaleString('en-US')}</dd></div>
                            <div><dt>Success rate</dt><dd>{summary.data.successRate}%</dd></div>
                            <div><dt>Active domains</dt><dd>{summary.data.activeDomains}</dd></div>
                        </dl>
                    )}
                </Card>
                <Card className="lc-test-panel">
                    <h2 className="lc-test-title">Waiting sessions</h2>
                    {summary.data && !summary.data.waitingSessions.length && <p className="lc-muted">No customers waiting for chat</p>}
                    <ul className="lc-test-list" data-testid="waiting-sessions">
                        {summary.data?.waitingSessions.map((s) => (
                            <li key={s.sessionId}><strong>{s.phoneNumber}</strong> · waiting {mmss(s.waitSeconds)}{s.firstMessage ? ` · ${s.firstMessage}` : ''}</li>
                        ))}
                    </ul>
                </Card>
                {frames.length > 0 && (
                    <Card className="lc-test-panel lc-test-wide">
                        <h2 className="lc-test-title">WebSocket messages</h2>
                        <ol className="lc-frames" data-testid="ws-messages">
                            {frames.map((f, i) => (
                                <li key={i}><span className="lc-muted">{f.at.slice(11, 23)} {f.dir === 'sent' ? '→' : '←'}</span> <code>{f.text}</code></li>
                            ))}
                        </ol>
                    </Card>
                )}
            </div>
        </div>
    );
}
