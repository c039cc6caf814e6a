import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, Dialog, DialogBody, FormGroup, H1, HTMLTable, InputGroup, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { useWaitingChats } from '../../api/chat';
import { useFailedVerifications, useSummary, type DateFilter } from '../../api/analytics';
import { Empty, formatTime, Loaded, focusInside } from './common';
import OverviewTab from './OverviewTab';
import PhonesTab from './PhonesTab';
import { ChatTab, ChatTrendsTab, DurationsTab, LiveChatTab, QuestionsTab, WebSocketTab } from './ChatTabs';
import { DomainsTab, OrdersTab } from './OrdersDomainsTabs';
import './analytics.css';
import { usePhoneFormat } from '../../phone';

const AiAgentTab = lazy(() => import('./AiAgentTab'));
const QualityTab = lazy(() => import('./QualityTab'));

/** SPEC §4 failure-type labels. */
export const FAILURE_LABELS: Record<string, string> = {
    verify_failed: 'Failed to Send Code',
    verification_failed: 'Invalid Code Entered',
    code_failed: 'Code Verification Failed',
    loyalty_verify_attempt: 'Verification Attempted (No Success)',
    no_success_after_attempt: 'No Successful Verification'
};

const TABS = [
    ['overview', 'Overview'], ['phones', 'Phones'], ['chat', 'Chat'], ['chat-trends', 'Chat trends'], ['durations', 'Durations'],
    ['orders', 'Orders'], ['domains', 'Domains'], ['live-chat', 'Live Chat'], ['quality', 'Quality'], ['websocket', 'WebSocket'], ['questions', 'Questions'], ['ai-agent', 'AI Agent']
] as const;
type TabId = typeof TABS[number][0];

function FailedDialog({ open, filter, timeZone, onClose }: { open: boolean; filter: DateFilter; timeZone: string; onClose: () => void }) {
    const failed = useFailedVerifications(filter, open);
    const fmt = usePhoneFormat();
    return (
        <Dialog isOpen={open} onClose={onClose} onOpened={focusInside} title="Failed verification attempts" className="lc-a-dialog lc-a-dialog-wide">
            <DialogBody>
                <Loaded query={failed}>{(d) => (!d.data.length ? <Empty text="No failed verification attempts found" /> : (
                    <div className="lc-a-scroll">
                        <HTMLTable compact striped className="lc-a-table" data-testid="failed-table">
                            <thead><tr><th scope="col">Phone</th><th scope="col">Action</th><th scope="col">Failure</th><th scope="col">Domain</th><th scope="col">Time ({timeZone})</th></tr></thead>
                            <tbody>{d.data.map((r, i) => (
                                <tr key={i}>
                                    <td>{fmt(r.phoneNumber) ?? '—'}{!r.phoneValid && <Tag minimal intent="warning" className="lc-a-tag">not a valid number</Tag>}</td>
                                    <td><code>{r.action}</code></td>
                                    <td>{FAILURE_LABELS[r.failureType] ?? r.failureType}</td>
                                    <td>{r.domain ?? '—'}</td>
                                    <td>{formatTime(r.timestamp, timeZone)}</td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                        {d.pagination.total > d.data.length && <p>Showing the latest {d.data.length} of {d.pagination.total}; the CSV export has them all.</p>}
                    </div>
                ))}</Loaded>
            </DialogBody>
        </Dialog>
    );
}

/** /analytics (SPEC §2 'Analytics dashboard'). */
export default function AnalyticsPage() {
    const navigate = useNavigate();
    const [params, setParams] = useSearchParams();
    const tab = (TABS.find(([id]) => id === params.get('tab'))?.[0] ?? 'overview') as TabId;
    const [draft, setDraft] = useState<DateFilter>({ startDate: params.get('startDate') ?? '', endDate: params.get('endDate') ?? '' });
    const filter: DateFilter = { startDate: params.get('startDate') ?? '', endDate: params.get('endDate') ?? '' };
    const [failedOpen, setFailedOpen] = useState(false);
    const summary = useSummary(filter);
    const waiting = useWaitingChats();
    const timeZone = summary.data?.range.timeZone ?? 'America/New_York';

    const update = (next: Partial<Record<'tab' | 'startDate' | 'endDate', string>>) => {
        const p = new URLSearchParams(params);
        for (const [k, v] of Object.entries(next)) {
            if (v) {
                p.set(k, v);
            }
            else {
                p.delete(k);
            }
        }
        setParams(p, { replace: true });
    };
    const apply = (d: DateFilter) => {
        setDraft(d);
        // SPEC §5: with a start and no end, the end is the start; an end alone waits for a start.
        update({ startDate: d.startDate, endDate: d.startDate ? (d.endDate && d.endDate >= d.startDate ? d.endDate : d.startDate) : '' });
    };
    const waitingCount = waiting.data?.length ?? 0;

    return (
        <div className="lc-page lc-analytics">
            <div className="lc-page-head lc-a-head">
                <div>
                    <H1 className="lc-page-title lc-h1">Analytics</H1>
                    <p className="bp5-text-muted">
                        {summary.data ? `${summary.data.range.startDate} to ${summary.data.range.endDate} (${timeZone})` : 'Interactions, verifications, phones, domains and chats.'}
                    </p>
                </div>
                <div className="lc-a-head-actions">
                    <Button icon="predictive-analysis" text="AI Management" onClick={() => navigate('/ai-management')} />
                    <Button icon="help" text="Manage Questions" onClick={() => navigate('/admin-questions')} />
                    <Button icon="chat" intent="primary" text="Live Chat" onClick={() => navigate('/admin-chat')} />
                </div>
            </div>

            <form className="lc-a-filter" aria-label="Date range" onSubmit={(e) => { e.preventDefault(); apply(draft); }}>
                <FormGroup label="Start date" labelFor="lc-start-date" inline>
                    <InputGroup id="lc-start-date" type="date" value={draft.startDate} onChange={(e) => apply({ ...draft, startDate: e.currentTarget.value })} />
                </FormGroup>
                <FormGroup label="End date" labelFor="lc-end-date" inline>
                    <InputGroup id="lc-end-date" type="date" value={draft.endDate} min={draft.startDate || undefined} onChange={(e) => apply({ ...draft, endDate: e.currentTarget.value })} />
                </FormGroup>
                <Button text="Clear" icon="cross" disabled={!draft.startDate && !draft.endDate} onClick={() => apply({ startDate: '', endDate: '' })} />
            </form>

            {waitingCount > 0 && (
                <Callout intent="warning" icon="people" className="lc-a-banner" role="status">
                    <span>{waitingCount} customer(s) waiting for live chat</span>
                    <Button small intent="warning" text="Handle Chats" onClick={() => navigate('/admin-chat')} />
                </Callout>
            )}

            {summary.isPending && <Spinner size={24} />}
            {summary.isError && <Callout intent="danger" role="alert">{String(summary.error.message)}</Callout>}
            {summary.data && (
                <>
                    <section className="lc-a-summary" aria-label="Summary">
                        <Card className="lc-a-summary-card"><div className="lc-stat-value">{summary.data.totalInteractions}</div><div className="lc-stat-label">Total Interactions</div></Card>
                        <Card className="lc-a-summary-card"><div className="lc-stat-value">{summary.data.totalChatSessions}</div><div className="lc-stat-label">Chat Sessions</div></Card>
                        <Card className="lc-a-summary-card"><div className="lc-stat-value">{summary.data.pointsViewed}</div><div className="lc-stat-label">Points Viewed</div></Card>
                        <Card className="lc-a-summary-card lc-a-clickable" interactive>
                            <button type="button" className="lc-a-card-button" onClick={() => setFailedOpen(true)} data-testid="failed-attempts">
                                <span className="lc-stat-value lc-text-danger">{summary.data.failedVerifications}</span>
                                <span className="lc-stat-label">Failed Attempts</span>
                            </button>
                        </Card>
                    </section>

                    <Tabs id="analytics-tabs" selectedTabId={tab} onChange={(id) => update({ tab: id === 'overview' ? '' : String(id) })}
                        renderActiveTabPanelOnly className="lc-a-tabs" large={false}>
                        {TABS.map(([id, title]) => <Tab key={id} id={id} title={title} />)}
                    </Tabs>
                    <div className="lc-a-panel" role="tabpanel" id={`bp5-tab-panel_analytics-tabs_${tab}`} aria-labelledby={`bp5-tab-title_analytics-tabs_${tab}`}>
                        {tab === 'overview' && <OverviewTab summary={summary.data} filter={filter} />}
                        {tab === 'phones' && <PhonesTab filter={filter} timeZone={timeZone} />}
                        {tab === 'chat' && <ChatTab filter={filter} timeZone={timeZone} />}
                        {tab === 'chat-trends' && <ChatTrendsTab filter={filter} />}
                        {tab === 'durations' && <DurationsTab filter={filter} timeZone={timeZone} />}
                        {tab === 'orders' && <OrdersTab filter={filter} timeZone={timeZone} />}
                        {tab === 'domains' && <DomainsTab filter={filter} timeZone={timeZone} />}
                        {tab === 'live-chat' && <LiveChatTab timeZone={timeZone} />}
                        {tab === 'quality' && <Suspense fallback={<Spinner size={20} />}><QualityTab filter={filter} /></Suspense>}
                        {tab === 'websocket' && <WebSocketTab timeZone={timeZone} />}
                        {tab === 'questions' && <QuestionsTab filter={filter} />}
                        {tab === 'ai-agent' && <Suspense fallback={<Spinner size={20} />}><AiAgentTab /></Suspense>}
                    </div>
                    <FailedDialog open={failedOpen} filter={filter} timeZone={timeZone} onClose={() => setFailedOpen(false)} />
                </>
            )}
        </div>
    );
}
