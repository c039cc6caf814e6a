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
import { Empty, formatTime, formatWait, Loaded, Pager, Stat, StatusBadge, focusInside } from './common';
import { Download } from './Download';
import { usePhoneFormat } from '../../phone';

function MessagesDialog({ sessionId, timeZone, onClose }: { sessionId: string | null; timeZone: string; onClose: () => void }) {
    const messages = useSessionMessages(sessionId);
    return (
        <Dialog isOpen={!!sessionId} onClose={onClose} onOpened={focusInside} title={`Messages of …${sessionId?.slice(-8) ?? ''}`} className="lc-a-dialog">
            <DialogBody>
                <Loaded query={messages}>{(d) => (!d.messages.length ? <Empty text="No messages found for this session" /> : (
                    <ol className="lc-a-messages">{d.messages.map((m) => (
                        <li key={m.id} className={`lc-a-message lc-a-message-${m.sender}`}>
                            <span className="lc-a-message-meta">{m.sender === 'agent' ? 'Agent' : m.sender === 'customer' ? 'Customer' : 'System'} · {formatTime(m.timestamp, timeZone)}</span>
                            <span className="lc-a-message-text">{m.message}</span>
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
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head">
                <H2 className="lc-a-h2">Chat sessions</H2>
                <span>
                    <Button small icon="chat" text="See Chat Sessions" onClick={() => navigate('/admin-chat')} />{' '}
                    <Download table="chat-sessions" filter={filter} />
                </span>
            </div>
            <Loaded query={sessions}>{(result) => (!result.data.length ? <Empty text="No chat sessions found for the selected time range" /> : (
                <>
                    <div className="lc-a-scroll">
                        <HTMLTable striped className="lc-a-table" data-testid="chat-table">
                            <thead><tr>
                                <th scope="col">Session</th><th scope="col">Phone</th><th scope="col">Status</th><th scope="col">Messages</th>
                                <th scope="col">Duration</th><th scope="col">Wait</th><th scope="col">Started</th><th scope="col">Flags</th>
                            </tr></thead>
                            <tbody>{result.data.map((s) => (
                                <tr key={s.sessionId}>
                                    <td><Button minimal small className="lc-link-button" text={`…${s.sessionId.slice(-8)}`} aria-label={`Messages of session ${s.sessionId}`} onClick={() => setOpen(s.sessionId)} /></td>
                                    <td>{fmt(s.phoneNumber) ?? s.phoneNumber}</td>
                                    <td><StatusBadge status={s.status} /></td>
                                    <td>{s.messageCount} <span className={Classes.TEXT_MUTED}>({s.customerMessages}/{s.agentMessages})</span></td>
                                    <td>{s.duration} min</td>
                                    <td>{formatWait(s.waitTime)}</td>
                                    <td>{formatTime(s.startedAt, timeZone)}</td>
                                    <td className="lc-nowrap">
                                        <Button minimal small icon={s.isStarred ? 'star' : 'star-empty'} aria-pressed={s.isStarred}
                                            aria-label={s.isStarred ? 'Unstar' : 'Star'} onClick={() => star.mutate({ sessionId: s.sessionId, value: !s.isStarred }, { onSettled: refetch })} />
                                        <Button minimal small icon={s.isArchived ? 'unarchive' : 'archive'} aria-pressed={s.isArchived}
                                            aria-label={s.isArchived ? 'Unarchive' : 'Archive'} onClick={() => archive.mutate({ sessionId: s.sessionId, value: !s.isArchived }, { onSettled: refetch })} />
                                    </td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                    </div>
                    <Pager label="Chat sessions" page={result.pagination.page} totalPages={result.pagination.totalPages} limit={limit}
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
    return (
        <Loaded query={usage}>{(rows) => (!rows.length ? <Empty text="No pre-made questions data available" /> : (
            <div className="lc-a-scroll">
                <HTMLTable striped className="lc-a-table" data-testid="questions-table">
                    <thead><tr><th scope="col">Question</th>{!compact && <th scope="col">Answer</th>}<th scope="col">Clicks</th>{!compact && <th scope="col"><span className="lc-sr-only">Edit</span></th>}</tr></thead>
                    <tbody>{rows.map((r) => (
                        <tr key={r.questionId}>
                            <td>{r.question}</td>
                            {!compact && <td className={Classes.TEXT_MUTED}>{r.answer.length > 100 ? `${r.answer.slice(0, 100)}…` : r.answer}</td>}
                            <td>{r.count}</td>
                            {!compact && <td><Button small minimal icon="edit" text="Edit" onClick={() => navigate('/admin-questions')} /></td>}
                        </tr>
                    ))}</tbody>
                </HTMLTable>
            </div>
        ))}</Loaded>
    );
}

export function QuestionsTab({ filter }: { filter: DateFilter }) {
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">Pre-made question usage</H2><Download table="questions" filter={filter} /></div>
            <QuestionUsage filter={filter} />
        </Card>
    );
}

/** The chat-analytics block (summary cards, question usage, daily trends line chart), on its own tab. */
export function ChatTrendsTab({ filter }: { filter: DateFilter }) {
    const chat = useChatAnalytics(filter);
    return (
        <Loaded query={chat}>{(d) => (
            <div className="lc-a-grid">
                <Card className="lc-a-card lc-a-wide">
                    <H2 className="lc-a-h2">Chat trends</H2>
                    <div className="lc-a-stats">
                        <Stat label="Chat sessions" value={d.summary.totalSessions} />
                        <Stat label="Completed" value={d.summary.completedSessions} />
                        <Stat label="Failed to respond" value={d.summary.failedToRespondSessions} />
                    </div>
                    <LineChart title="Chat sessions per day" rows={d.dailyTrends.map((r) => ({ label: r.date.slice(5), values: [r.sessions, r.completed] }))}
                        series={[{ name: 'Sessions', color: COLORS.points }, { name: 'Completed', color: COLORS.successful }]} />
                </Card>
                <Card className="lc-a-card lc-a-wide">
                    <H2 className="lc-a-h2">Pre-made question usage</H2>
                    <QuestionUsage filter={filter} compact />
                </Card>
            </div>
        )}</Loaded>
    );
}

export function DurationsTab({ filter, timeZone }: { filter: DateFilter; timeZone: string }) {
    const durations = useChatDurations(filter);
    const fmt = usePhoneFormat();
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">Chat durations</H2><Download table="chat-durations" filter={filter} /></div>
            <Loaded query={durations}>{(d) => (!d.totalCompletedSessions ? <Empty text="No completed sessions found" /> : (
                <>
                    <div className="lc-a-stats">
                        <Stat label="Completed sessions" value={d.totalCompletedSessions} />
                        <Stat label="Average" value={`${d.averageDuration} min`} />
                        <Stat label="Longest" value={`${d.maxDuration} min`} />
                        <Stat label="Shortest" value={`${d.minDuration} min`} />
                    </div>
                    <BarChart title="Completed chats by duration" height={180} rows={Object.entries(d.durationRanges).map(([label, n]) => ({ label, values: [n] }))}
                        series={[{ name: 'Chats', color: COLORS.points }]} />
                    <h3 className="lc-a-h3">Recent sessions</h3>
                    <div className="lc-a-scroll">
                        <HTMLTable striped compact className="lc-a-table">
                            <thead><tr><th scope="col">Session</th><th scope="col">Phone</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">Status</th></tr></thead>
                            <tbody>{d.recentSessions.map((s) => (
                                <tr key={s.sessionId}><td>…{s.sessionId.slice(-8)}</td><td>{fmt(s.phoneNumber) ?? s.phoneNumber}</td><td>{formatTime(s.startedAt, timeZone)}</td><td>{s.duration} min</td><td><StatusBadge status={s.status} /></td></tr>
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
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">Live chat</H2><Button small intent="primary" icon="chat" text="Handle Chats" onClick={() => navigate('/admin-chat')} /></div>
            <Loaded query={status}>{(s) => (
                <div className="lc-a-stats">
                    <Stat label="Active chats" value={s.activeSessions} />
                    <Stat label="Waiting" value={s.waitingSessions} />
                </div>
            )}</Loaded>
            <h3 className="lc-a-h3">Waiting customers</h3>
            <Loaded query={waiting}>{(list) => (!list.length ? <Empty text="No customers waiting for chat" /> : (
                <ul className="lc-a-waiting">{list.map((w) => (
                    <li key={w.sessionId}>
                        <span><strong>{fmt(w.phoneNumber) ?? w.phoneNumber}</strong> · since {formatTime(w.startedAt, timeZone)}</span>
                        <Button small intent="success" text="Accept Chat" onClick={() => navigate('/admin-chat')} />
                    </li>
                ))}</ul>
            ))}</Loaded>
        </Card>
    );
}

/** WebSocket: connections on every node (polled every 10 s). */
export function WebSocketTab({ timeZone }: { timeZone: string }) {
    const stats = useWebsocketStats();
    return (
        <Card className="lc-a-card">
            <H2 className="lc-a-h2">WebSocket connections</H2>
            <Loaded query={stats}>{(s) => (
                <>
                    <div className="lc-a-stats">
                        <Stat label="Customer connections" value={s.totalActiveChatConnections} />
                        <Stat label="Agent connections" value={s.totalAgentConnections} />
                        <Stat label="Last connection" value={<span className="lc-a-small-value">{formatTime(s.lastConnectionTime, timeZone)}</span>} />
                    </div>
                    <h3 className="lc-a-h3">Active sessions</h3>
                    {s.activeSessionIds.length ? <ul className="lc-a-ids">{s.activeSessionIds.map((id) => <li key={id}><code>…{id.slice(-8)}</code></li>)}</ul>
                        : <p className={Classes.TEXT_MUTED}>No chat has an agent connected right now.</p>}
                </>
            )}</Loaded>
        </Card>
    );
}
