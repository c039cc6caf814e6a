import { useState } from 'react';
import { Button, Card, Classes, Dialog, DialogBody, H2, HTMLTable } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useSessionFlag } from '../../api/chat';
import { useWaitingChats } from '../../api/chat';
import {
    useChatAnalytics, useChatDurations, useChatSessions, useChatStatus, useQuestionUsage, useSessionMessages, useWebsocketStats, type DateFilter
} from '../../api/analytics';
import { BarChart, COLORS, LineChart } from './charts';
import { Empty, Loaded, Pager, Stat, StatusBadge, focusInside, useAnalyticsFormat } from './common';
import { Download } from './Download';
import { usePhoneFormat } from '../../phone';
import type { Translate } from '../../i18n';

/** A duration bucket of the server ('0-5 min', '60+ min': stable keys) in the agent's language. */
function durationRange(label: string, t: Translate): string {
    const range = /^(\d+)-(\d+) min$/.exec(label);
    const open = /^(\d+)\+ min$/.exec(label);
    return range ? t('an.durations.range', { from: Number(range[1]), to: Number(range[2]) })
        : open ? t('an.durations.over', { from: Number(open[1]) }) : label;
}

function MessagesDialog({ sessionId, timeZone, onClose }: { sessionId: string | null; timeZone: string; onClose: () => void }) {
    const messages = useSessionMessages(sessionId);
    const { t, time } = useAnalyticsFormat(timeZone);
    return (
        <Dialog isOpen={!!sessionId} onClose={onClose} onOpened={focusInside} title={t('an.messagesOf', { id: sessionId?.slice(-8) ?? '' })} className="lc-a-dialog">
            <DialogBody>
                <Loaded query={messages}>{(d) => (!d.messages.length ? <Empty text={t('an.noMessages')} /> : (
                    <ol className="lc-a-messages">{d.messages.map((m) => (
                        <li key={m.id} className={`lc-a-message lc-a-message-${m.sender}`}>
                            <span className="lc-a-message-meta">{m.sender === 'agent' ? t('quality.agent') : m.sender === 'customer' ? t('console.customer') : t('an.system')} · {time(m.timestamp)}</span>
                            <span className="lc-a-message-text" dir="auto">{m.message}</span>
                        </li>
                    ))}</ol>
                ))}</Loaded>
            </DialogBody>
        </Dialog>
    );
}

/** Chat: the sessions of the range with their messages, star and archive (SPEC §2). */
export function ChatTab({ filter, timeZone }: { filter: DateFilter; timeZone: string }) {
    const fmt = usePhoneFormat();
    const [page, setPage] = useState(1);
    const [limit, setLimit] = useState(20);
    const [open, setOpen] = useState<string | null>(null);
    const sessions = useChatSessions(filter, page, limit);
    const star = useSessionFlag('star');
    const archive = useSessionFlag('archive');
    const queryClient = useQueryClient();
    const navigate = useNavigate();
    const refetch = () => queryClient.invalidateQueries({ queryKey: ['analytics', 'chat-sessions'] });
    const { t, time, number, minutes, wait } = useAnalyticsFormat(timeZone);
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head">
                <H2 className="lc-a-h2">{t('an.chatSessions')}</H2>
                <span>
                    <Button small icon="chat" text={t('an.chat.see')} onClick={() => navigate('/admin-chat')} />{' '}
                    <Download table="chat-sessions" filter={filter} />
                </span>
            </div>
            <Loaded query={sessions}>{(result) => (!result.data.length ? <Empty text={t('an.chat.none')} /> : (
                <>
                    <div className="lc-a-scroll">
                        <HTMLTable striped className="lc-a-table" data-testid="chat-table">
                            <thead><tr>
                                <th scope="col">{t('an.col.session')}</th><th scope="col">{t('an.col.phone')}</th><th scope="col">{t('an.col.status')}</th><th scope="col">{t('an.col.messages')}</th>
                                <th scope="col">{t('an.col.duration')}</th><th scope="col">{t('an.col.wait')}</th><th scope="col">{t('an.col.started')}</th><th scope="col">{t('an.col.flags')}</th>
                            </tr></thead>
                            <tbody>{result.data.map((s) => (
                                <tr key={s.sessionId}>
                                    <td><Button minimal small className="lc-link-button" text={<code>…{s.sessionId.slice(-8)}</code>} aria-label={t('an.chat.open', { id: s.sessionId })} onClick={() => setOpen(s.sessionId)} /></td>
                                    <td>{fmt(s.phoneNumber) ?? s.phoneNumber}</td>
                                    <td><StatusBadge status={s.status} /></td>
                                    <td>{number(s.messageCount)} <span className={Classes.TEXT_MUTED}>({number(s.customerMessages)}/{number(s.agentMessages)})</span></td>
                                    <td>{minutes(s.duration)}</td>
                                    <td>{wait(s.waitTime)}</td>
                                    <td>{time(s.startedAt)}</td>
                                    <td className="lc-nowrap">
                                        <Button minimal small icon={s.isStarred ? 'star' : 'star-empty'} aria-pressed={s.isStarred}
                                            aria-label={s.isStarred ? t('an.unstar') : t('an.star')} onClick={() => star.mutate({ sessionId: s.sessionId, value: !s.isStarred }, { onSettled: refetch })} />
                                        <Button minimal small icon={s.isArchived ? 'unarchive' : 'archive'} aria-pressed={s.isArchived}
                                            aria-label={s.isArchived ? t('an.unarchive') : t('an.archive')} onClick={() => archive.mutate({ sessionId: s.sessionId, value: !s.isArchived }, { onSettled: refetch })} />
                                    </td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                    </div>
                    <Pager label={t('an.chatSessions')} page={result.pagination.page} totalPages={result.pagination.totalPages} limit={limit}
                        onPage={setPage} onLimit={(n) => { setLimit(n); setPage(1); }} />
                </>
            ))}</Loaded>
            <MessagesDialog sessionId={open} timeZone={timeZone} onClose={() => setOpen(null)} />
        </Card>
    );
}

/** Question usage (question, answer preview cut at 100 characters, count). */
export function QuestionUsage({ filter, compact = false }: { filter: DateFilter; compact?: boolean }) {
    const usage = useQuestionUsage(filter);
    const navigate = useNavigate();
    const { t, number } = useAnalyticsFormat();
    return (
        <Loaded query={usage}>{(rows) => (!rows.length ? <Empty text={t('an.questions.none')} /> : (
            <div className="lc-a-scroll">
                <HTMLTable striped className="lc-a-table" data-testid="questions-table">
                    <thead><tr><th scope="col">{t('an.col.question')}</th>{!compact && <th scope="col">{t('an.col.answer')}</th>}<th scope="col">{t('an.col.clicks')}</th>{!compact && <th scope="col"><span className="lc-sr-only">{t('common.edit')}</span></th>}</tr></thead>
                    <tbody>{rows.map((r) => (
                        <tr key={r.questionId}>
                            <td className="lc-a-content" dir="auto">{r.question}</td>
                            {!compact && <td className={`${Classes.TEXT_MUTED} lc-a-content`} dir="auto">{r.answer.length > 100 ? `${r.answer.slice(0, 100)}…` : r.answer}</td>}
                            <td>{number(r.count)}</td>
                            {!compact && <td><Button small minimal icon="edit" text={t('common.edit')} onClick={() => navigate('/admin-questions')} /></td>}
                        </tr>
                    ))}</tbody>
                </HTMLTable>
            </div>
        ))}</Loaded>
    );
}

export function QuestionsTab({ filter }: { filter: DateFilter }) {
    const { t } = useAnalyticsFormat();
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">{t('an.questions.title')}</H2><Download table="questions" filter={filter} /></div>
            <QuestionUsage filter={filter} />
        </Card>
    );
}

/** The chat-analytics block (summary cards, question usage, daily trends line chart), on its own tab. */
export function ChatTrendsTab({ filter }: { filter: DateFilter }) {
    const chat = useChatAnalytics(filter);
    const { t, number, day } = useAnalyticsFormat();
    return (
        <Loaded query={chat}>{(d) => (
            <div className="lc-a-grid">
                <Card className="lc-a-card lc-a-wide">
                    <H2 className="lc-a-h2">{t('an.tab.chatTrends')}</H2>
                    <div className="lc-a-stats">
                        <Stat label={t('an.chatSessions')} value={number(d.summary.totalSessions)} />
                        <Stat label={t('an.status.completed')} value={number(d.summary.completedSessions)} />
                        <Stat label={t('an.status.failed_to_respond')} value={number(d.summary.failedToRespondSessions)} />
                    </div>
                    <LineChart title={t('an.trends.chart')} rows={d.dailyTrends.map((r) => ({ label: day(r.date), values: [r.sessions, r.completed] }))}
                        series={[{ name: t('an.series.sessions'), color: COLORS.points }, { name: t('an.status.completed'), color: COLORS.successful }]} />
                </Card>
                <Card className="lc-a-card lc-a-wide">
                    <H2 className="lc-a-h2">{t('an.questions.title')}</H2>
                    <QuestionUsage filter={filter} compact />
                </Card>
            </div>
        )}</Loaded>
    );
}

export function DurationsTab({ filter, timeZone }: { filter: DateFilter; timeZone: string }) {
    const durations = useChatDurations(filter);
    const fmt = usePhoneFormat();
    const { t, time, number, minutes } = useAnalyticsFormat(timeZone);
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">{t('an.durations.title')}</H2><Download table="chat-durations" filter={filter} /></div>
            <Loaded query={durations}>{(d) => (!d.totalCompletedSessions ? <Empty text={t('an.durations.none')} /> : (
                <>
                    <div className="lc-a-stats">
                        <Stat label={t('an.durations.completed')} value={number(d.totalCompletedSessions)} />
                        <Stat label={t('an.durations.average')} value={minutes(d.averageDuration)} />
                        <Stat label={t('an.durations.longest')} value={minutes(d.maxDuration)} />
                        <Stat label={t('an.durations.shortest')} value={minutes(d.minDuration)} />
                    </div>
                    <BarChart title={t('an.durations.chart')} height={180} rows={Object.entries(d.durationRanges).map(([label, n]) => ({ label: durationRange(label, t), values: [n] }))}
                        series={[{ name: t('an.series.chats'), color: COLORS.points }]} />
                    <h3 className="lc-a-h3">{t('an.durations.recent')}</h3>
                    <div className="lc-a-scroll">
                        <HTMLTable striped compact className="lc-a-table">
                            <thead><tr><th scope="col">{t('an.col.session')}</th><th scope="col">{t('an.col.phone')}</th><th scope="col">{t('an.col.started')}</th><th scope="col">{t('an.col.duration')}</th><th scope="col">{t('an.col.status')}</th></tr></thead>
                            <tbody>{d.recentSessions.map((s) => (
                                <tr key={s.sessionId}><td><code>…{s.sessionId.slice(-8)}</code></td><td>{fmt(s.phoneNumber) ?? s.phoneNumber}</td><td>{time(s.startedAt)}</td><td>{minutes(s.duration)}</td><td><StatusBadge status={s.status} /></td></tr>
                            ))}</tbody>
                        </HTMLTable>
                    </div>
                </>
            ))}</Loaded>
        </Card>
    );
}

/** Live Chat: open chats (polled every 30 s) and the customers waiting now (5 s). */
export function LiveChatTab({ timeZone }: { timeZone: string }) {
    const status = useChatStatus();
    const fmt = usePhoneFormat();
    const waiting = useWaitingChats();
    const navigate = useNavigate();
    const { t, time, number } = useAnalyticsFormat(timeZone);
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">{t('org.series.liveChat')}</H2><Button small intent="primary" icon="chat" text={t('home.handleChats')} onClick={() => navigate('/admin-chat')} /></div>
            <Loaded query={status}>{(s) => (
                <div className="lc-a-stats">
                    <Stat label={t('an.live.active')} value={number(s.activeSessions)} />
                    <Stat label={t('console.waiting')} value={number(s.waitingSessions)} />
                </div>
            )}</Loaded>
            <h3 className="lc-a-h3">{t('an.live.waitingCustomers')}</h3>
            <Loaded query={waiting}>{(list) => (!list.length ? <Empty text={t('console.noneWaiting')} /> : (
                <ul className="lc-a-waiting">{list.map((w) => (
                    <li key={w.sessionId}>
                        <span><strong>{fmt(w.phoneNumber) ?? w.phoneNumber}</strong> · {t('an.live.since', { time: time(w.startedAt) })}</span>
                        <Button small intent="success" text={t('console.accept')} onClick={() => navigate('/admin-chat')} />
                    </li>
                ))}</ul>
            ))}</Loaded>
        </Card>
    );
}

/** WebSocket: connections on every node (polled every 10 s). */
export function WebSocketTab({ timeZone }: { timeZone: string }) {
    const stats = useWebsocketStats();
    const { t, time, number } = useAnalyticsFormat(timeZone);
    return (
        <Card className="lc-a-card">
            <H2 className="lc-a-h2">{t('an.ws.title')}</H2>
            <Loaded query={stats}>{(s) => (
                <>
                    <div className="lc-a-stats">
                        <Stat label={t('an.ws.customers')} value={number(s.totalActiveChatConnections)} />
                        <Stat label={t('an.ws.agents')} value={number(s.totalAgentConnections)} />
                        <Stat label={t('an.ws.last')} value={<span className="lc-a-small-value">{time(s.lastConnectionTime)}</span>} />
                    </div>
                    <h3 className="lc-a-h3">{t('an.ws.active')}</h3>
                    {s.activeSessionIds.length ? <ul className="lc-a-ids">{s.activeSessionIds.map((id) => <li key={id}><code>…{id.slice(-8)}</code></li>)}</ul>
                        : <p className={Classes.TEXT_MUTED}>{t('an.ws.none')}</p>}
                </>
            )}</Loaded>
        </Card>
    );
}
