import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { apiRequest } from '../../api/client';
import type { ChatSession } from '../../api/chat';
import { HistoryFilter, useHistory, useTranscript } from '../../api/console';
import { useCustomerName } from '../../phone';
import { useStaffTime } from '../../time';
import { MessageList } from './Conversation';
import { useNotes } from '../../api/routing';
import { CustomerPanel } from './CustomerPanel';
import { EmptyState } from '../a11y';
import { AdminTextKey, Translate, useT } from '../../i18n';
import type { ChatRating } from '../../../../core/types/api';

/** An ended chat's status and why it ended, in the agent's language (`history.status.*`, `history.reason.*`; another as it came). */
const STATUSES = ['completed', 'failed_to_respond', 'no_interaction', 'waiting', 'agent_connected'];
const END_REASONS = ['agent_ended', 'customer_disconnected', 'customer_left', 'customer_abandoned', 'failed_to_respond', 'offline_message'];

function statusText(status: string, t: Translate): string {
    return STATUSES.includes(status) ? t(`history.status.${status}` as AdminTextKey) : status;
}

function reasonText(reason: string, t: Translate): string {
    return END_REASONS.includes(reason) ? t(`history.reason.${reason}` as AdminTextKey) : reason.replace(/_/g, ' ');
}


function useDebounced<T>(value: T, ms: number): T {
    const [v, setV] = useState(value);
    useEffect(() => {
        const timer = setTimeout(() => setV(value), ms);
        return () => clearTimeout(timer);
    }, [value, ms]);
    return v;
}

/** The customer's rating of the chat (issue 28): the score of 5 and their comment, as text. */
export function RatingLine({ rating }: { rating: ChatRating }) {
    const t = useT();
    return (
        <div className="lc-chat-rating" data-testid="chat-rating" data-score={rating.score}>
            <strong>{t('chatRating.line', { score: rating.score })}</strong>
            {rating.comment && <span dir="auto"> “{rating.comment}”</span>}
        </div>
    );
}

/** Star / archive from the History view: the page and any open transcript are fetched again. */
function useHistoryFlag() {
    const queryClient = useQueryClient();
    return useMutation({
        mutationFn: ({ sessionId, flag, value }: { sessionId: string; flag: 'star' | 'archive'; value: boolean }) =>
            apiRequest<ChatSession>(`/api/chat/session/${encodeURIComponent(sessionId)}/${flag}`, { method: 'PATCH', body: flag === 'star' ? { isStarred: value } : { isArchived: value } }),
        onSettled: () => queryClient.invalidateQueries({ queryKey: ['chat'] })
    });
}

/**
 * The History view (issue 14): ended chats with filters (words in any message, phone, dates, starred, archived)
 * and the transcript of the one picked, with its customer beside it. `?session=` names the open transcript.
 */
export function HistoryView({ pane, setPane }: { pane: 'list' | 'conversation' | 'customer'; setPane(p: 'list' | 'conversation' | 'customer'): void }) {
    const nameOf = useCustomerName();
    const t = useT();
    const time = useStaffTime();
    const when = (iso: string | null) => time(iso, 'short');
    const [params, setParams] = useSearchParams();
    const [q, setQ] = useState(params.get('q') ?? '');
    const [phone, setPhone] = useState('');
    const [fromDay, setFromDay] = useState('');
    const [toDay, setToDay] = useState('');
    const [starred, setStarred] = useState(false);
    const [archived, setArchived] = useState<'include' | 'exclude' | 'only'>('include');
    const [page, setPage] = useState(1);
    const filter: HistoryFilter = { q: useDebounced(q, 300), phone: useDebounced(phone, 300), fromDay, toDay, starred, archived, page };
    const history = useHistory(filter);
    const selectedId = params.get('session');
    const transcript = useTranscript(selectedId);
    const notes = useNotes(selectedId);      // staff only (issue 26): History shows them among the messages
    const flag = useHistoryFlag();
    const listed = history.data?.sessions.find((s) => s.sessionId === selectedId);

    useEffect(() => setPage(1), [filter.q, filter.phone, fromDay, toDay, starred, archived]);

    const open = (sessionId: string) => {
        const next = new URLSearchParams(params);
        next.set('session', sessionId);
        setParams(next, { replace: true });
        setPane('conversation');
    };
    const session = transcript.data ?? null;
    const pages = history.data ? Math.max(1, Math.ceil(history.data.total / history.data.pageSize)) : 1;

    return (
        <div className={`lc-console-columns lc-pane-${pane}`}>
            <section className="lc-queue lc-pane" aria-labelledby="lc-history-title">
                <h2 id="lc-history-title" className="lc-queue-title">{t('history.title')} {history.data && <Tag round minimal data-testid="history-total">{t(history.data.totalCapped ? 'history.totalCapped' : 'common.number', { value: history.data.total })}</Tag>}</h2>
                <form className="lc-history-filters" role="search" aria-label={t('history.filters')} onSubmit={(e) => e.preventDefault()}>
                    <FormGroup label={t('history.search')} labelFor="lc-history-q" className="lc-filter-wide">
                        <InputGroup id="lc-history-q" type="search" leftIcon="search" placeholder={t('history.searchPlaceholder')} value={q} onChange={(e) => setQ(e.target.value)} data-testid="history-search" />
                    </FormGroup>
                    <FormGroup label={t('console.phone')} labelFor="lc-history-phone">
                        <InputGroup id="lc-history-phone" value={phone} onChange={(e) => setPhone(e.target.value)} placeholder={t('history.phonePlaceholder')} />
                    </FormGroup>
                    <FormGroup label={t('history.archived')} labelFor="lc-history-archived">
                        <HTMLSelect id="lc-history-archived" value={archived} onChange={(e) => setArchived(e.target.value as typeof archived)}
                            options={[{ value: 'include', label: t('history.archivedAll') }, { value: 'exclude', label: t('history.archivedNot') }, { value: 'only', label: t('history.archivedOnly') }]} />
                    </FormGroup>
                    <FormGroup label={t('history.from')} labelFor="lc-history-from">
                        <input id="lc-history-from" type="date" className="bp5-input" value={fromDay} onChange={(e) => setFromDay(e.target.value)} />
                    </FormGroup>
                    <FormGroup label={t('history.to')} labelFor="lc-history-to">
                        <input id="lc-history-to" type="date" className="bp5-input" value={toDay} onChange={(e) => setToDay(e.target.value)} />
                    </FormGroup>
                    <Checkbox checked={starred} label={t('history.starredOnly')} onChange={(e) => setStarred((e.target as HTMLInputElement).checked)} className="lc-filter-wide" />
                </form>
                {history.isError && <Callout intent="danger">{(history.error as Error).message}</Callout>}
                {history.isPending && <Spinner size={20} />}
                {history.data && !history.data.sessions.length && <div className="lc-empty">{t('history.none')}</div>}
                <ul className="lc-chat-list" data-testid="history-list" aria-busy={history.isFetching}>
                    {history.data?.sessions.map((s) => (
                        <li key={s.sessionId} className={`lc-chat-item${s.sessionId === selectedId ? ' is-selected' : ''}`} data-session={s.sessionId}>
                            <button type="button" className="lc-chat-open" data-chat-button={s.sessionId} aria-current={s.sessionId === selectedId ? 'true' : undefined} onClick={() => open(s.sessionId)}>
                                <span className="lc-chat-item-row">
                                    <strong className="lc-chat-phone">{nameOf(s)}</strong>
                                    <span className="lc-chat-item-meta">{when(s.endedAt ?? s.createdAt)}</span>
                                </span>
                                <span className="lc-chat-preview" dir="auto">{s.match ? `…${s.match.message}` : s.lastMessage?.message ?? s.firstMessage ?? ''}</span>
                                <span className="lc-chat-item-meta">
                                    {t('history.itemMeta', { status: statusText(s.status, t), count: s.messageCount ?? 0 })}{s.isStarred ? ` · ★ ${t('history.starredTag')}` : ''}{s.isArchived ? ` · ${t('history.archivedTag')}` : ''}
                                </span>
                            </button>
                        </li>
                    ))}
                </ul>
                {pages > 1 && (
                    <div className="lc-pager">
                        <Button small icon="chevron-left" aria-label={t('history.previousPage')} disabled={page <= 1} onClick={() => setPage(page - 1)} />
                        <span>{t('an.pager.page', { page, pages })}</span>
                        <Button small icon="chevron-right" aria-label={t('history.nextPage')} disabled={page >= pages} onClick={() => setPage(page + 1)} />
                    </div>
                )}
            </section>
            <section className="lc-conversation lc-pane" aria-labelledby="lc-transcript-title" data-testid="transcript">
                <div className="lc-pane-head">
                    <Button className="lc-pane-back" minimal icon="arrow-left" aria-label={t('history.back')} onClick={() => setPane('list')} />
                    <h2 id="lc-transcript-title" className="lc-pane-title">{session ? t('history.transcriptOf', { customer: nameOf(session) }) : t('history.transcript')}</h2>
                    {session && (
                        <span className="lc-pane-actions">
                            <Button small minimal icon={session.isStarred ? 'star' : 'star-empty'} intent={session.isStarred ? 'warning' : 'none'} aria-pressed={session.isStarred}
                                text={session.isStarred ? t('history.starred') : t('history.star')} onClick={() => flag.mutate({ sessionId: session.sessionId, flag: 'star', value: !session.isStarred })} />
                            <Button small minimal icon="archive" text={session.isArchived ? t('an.unarchive') : t('an.archive')}
                                onClick={() => flag.mutate({ sessionId: session.sessionId, flag: 'archive', value: !session.isArchived })} />
                            <Button className="lc-show-customer" small minimal icon="person" text={t('console.customer')} onClick={() => setPane('customer')} />
                        </span>
                    )}
                </div>
                {!selectedId && <EmptyState icon="history" title={t('history.noneSelected')} level={2} description={t('history.pick')} />}
                {transcript.isPending && selectedId && <Spinner size={24} />}
                {transcript.isError && <Callout intent="danger">{(transcript.error as Error).message}</Callout>}
                {session && (
                    <>
                        <div className="lc-transcript-meta">
                            {t('history.startedEnded', { started: when(session.createdAt), ended: when(session.endedAt), status: statusText(session.status, t) })}
                            {session.endReason ? ` (${reasonText(session.endReason, t)})` : ''}
                        </div>
                        {session.rating && <RatingLine rating={session.rating} />}
                        <MessageList messages={session.messages ?? []} sessionId={session.sessionId} highlightSeq={listed?.match?.seq ?? null} notes={notes.data} />
                    </>
                )}
            </section>
            <CustomerPanel session={session} onBack={() => setPane('conversation')} />
        </div>
    );
}
