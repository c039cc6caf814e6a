import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, Dialog, DialogBody, FormGroup, H1, HTMLTable, InputGroup, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { useWaitingChats } from '../../api/chat';
import { useFailedVerifications, useSummary, type DateFilter } from '../../api/analytics';
import { Empty, Loaded, focusInside, useAnalyticsFormat, formatDay } from './common';
import OverviewTab from './OverviewTab';
import PhonesTab from './PhonesTab';
import { ChatTab, ChatTrendsTab, DurationsTab, LiveChatTab, QuestionsTab, WebSocketTab } from './ChatTabs';
import { DomainsTab, OrdersTab } from './OrdersDomainsTabs';
import './analytics.css';
import { usePhoneFormat } from '../../phone';
import type { AdminTextKey, Translate } from '../../i18n';

const AiAgentTab = lazy(() => import('./AiAgentTab'));
const QualityTab = lazy(() => import('./QualityTab'));

/** SPEC §4 failure types: their labels are `an.failure.<type>` in the catalogue. */
const FAILURE_TYPES = ['verify_failed', 'verification_failed', 'code_failed', 'loyalty_verify_attempt', 'no_success_after_attempt'];

export function failureLabel(type: string, t: Translate): string {
    return FAILURE_TYPES.includes(type) ? t(`an.failure.${type}` as AdminTextKey) : type;
}

/** The tabs by id (the URL's ?tab=) with their title's key. */
const TABS = [
    ['overview', 'an.tab.overview'], ['phones', 'an.tab.phones'], ['chat', 'an.tab.chat'], ['chat-trends', 'an.tab.chatTrends'], ['durations', 'an.tab.durations'],
    ['orders', 'an.tab.orders'], ['domains', 'an.tab.domains'], ['live-chat', 'an.tab.liveChat'], ['quality', 'an.tab.quality'], ['websocket', 'an.tab.websocket'],
    ['questions', 'an.tab.questions'], ['ai-agent', 'an.tab.aiAgent']
] as const satisfies ReadonlyArray<readonly [string, AdminTextKey]>;
type TabId = typeof TABS[number][0];

function FailedDialog({ open, filter, timeZone, onClose }: { open: boolean; filter: DateFilter; timeZone: string; onClose: () => void }) {
    const failed = useFailedVerifications(filter, open);
    const fmt = usePhoneFormat();
    const { t, time } = useAnalyticsFormat(timeZone);
    return (
        <Dialog isOpen={open} onClose={onClose} onOpened={focusInside} title={t('an.failed.title')} className="lc-a-dialog lc-a-dialog-wide">
            <DialogBody>
                <Loaded query={failed}>{(d) => (!d.data.length ? <Empty text={t('an.failed.none')} /> : (
                    <div className="lc-a-scroll">
                        <HTMLTable compact striped className="lc-a-table" data-testid="failed-table">
                            <thead><tr><th scope="col">{t('an.col.phone')}</th><th scope="col">{t('an.col.action')}</th><th scope="col">{t('an.col.failure')}</th><th scope="col">{t('an.col.domain')}</th><th scope="col">{t('an.col.timeIn', { zone: timeZone })}</th></tr></thead>
                            <tbody>{d.data.map((r, i) => (
                                <tr key={i}>
                                    <td>{fmt(r.phoneNumber) ?? '—'}{!r.phoneValid && <Tag minimal intent="warning" className="lc-a-tag">{t('an.failed.invalidPhone')}</Tag>}</td>
                                    <td><code>{r.action}</code></td>
                                    <td>{failureLabel(r.failureType, t)}</td>
                                    <td>{r.domain ?? '—'}</td>
                                    <td>{time(r.timestamp)}</td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                        {d.pagination.total > d.data.length && <p>{t('an.failed.showing', { shown: d.data.length, total: d.pagination.total })}</p>}
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
    const { t, lang, number } = useAnalyticsFormat(timeZone);

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
                    <H1 className="lc-page-title lc-h1">{t('section.analytics')}</H1>
                    <p className="bp5-text-muted" data-testid="analytics-range">
                        {summary.data
                            ? t('an.range', { start: formatDay(summary.data.range.startDate, lang, true), end: formatDay(summary.data.range.endDate, lang, true), zone: timeZone })
                            : t('an.intro')}
                    </p>
                </div>
                <div className="lc-a-head-actions">
                    <Button icon="predictive-analysis" text={t('home.ai')} onClick={() => navigate('/ai-management')} />
                    <Button icon="help" text={t('home.questions')} onClick={() => navigate('/admin-questions')} />
                    <Button icon="chat" intent="primary" text={t('section.liveChat')} onClick={() => navigate('/admin-chat')} />
                </div>
            </div>

            <form className="lc-a-filter" aria-label={t('an.dateRange')} onSubmit={(e) => { e.preventDefault(); apply(draft); }}>
                <FormGroup label={t('an.startDate')} labelFor="lc-start-date" inline>
                    <InputGroup id="lc-start-date" type="date" lang={lang} value={draft.startDate} onChange={(e) => apply({ ...draft, startDate: e.currentTarget.value })} />
                </FormGroup>
                <FormGroup label={t('an.endDate')} labelFor="lc-end-date" inline>
                    <InputGroup id="lc-end-date" type="date" lang={lang} value={draft.endDate} min={draft.startDate || undefined} onChange={(e) => apply({ ...draft, endDate: e.currentTarget.value })} />
                </FormGroup>
                <Button text={t('an.clear')} icon="cross" disabled={!draft.startDate && !draft.endDate} onClick={() => apply({ startDate: '', endDate: '' })} />
            </form>

            {waitingCount > 0 && (
                <Callout intent="warning" icon="people" className="lc-a-banner" role="status">
                    <span>{t('an.waitingBanner', { count: waitingCount })}</span>
                    <Button small intent="warning" text={t('home.handleChats')} onClick={() => navigate('/admin-chat')} />
                </Callout>
            )}

            {summary.isPending && <Spinner size={24} />}
            {summary.isError && <Callout intent="danger" role="alert">{String(summary.error.message)}</Callout>}
            {summary.data && (
                <>
                    <section className="lc-a-summary" aria-label={t('an.summary')}>
                        <Card className="lc-a-summary-card"><div className="lc-stat-value">{number(summary.data.totalInteractions)}</div><div className="lc-stat-label">{t('stats.totalInteractions')}</div></Card>
                        <Card className="lc-a-summary-card"><div className="lc-stat-value">{number(summary.data.totalChatSessions)}</div><div className="lc-stat-label">{t('an.chatSessions')}</div></Card>
                        <Card className="lc-a-summary-card"><div className="lc-stat-value">{number(summary.data.pointsViewed)}</div><div className="lc-stat-label">{t('org.series.points')}</div></Card>
                        <Card className="lc-a-summary-card lc-a-clickable" interactive>
                            <button type="button" className="lc-a-card-button" onClick={() => setFailedOpen(true)} data-testid="failed-attempts">
                                <span className="lc-stat-value lc-text-danger">{number(summary.data.failedVerifications)}</span>
                                <span className="lc-stat-label">{t('an.failedAttempts')}</span>
                            </button>
                        </Card>
                    </section>

                    <Tabs id="analytics-tabs" selectedTabId={tab} onChange={(id) => update({ tab: id === 'overview' ? '' : String(id) })}
                        renderActiveTabPanelOnly className="lc-a-tabs" large={false}>
                        {TABS.map(([id, title]) => <Tab key={id} id={id} title={t(title)} />)}
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
