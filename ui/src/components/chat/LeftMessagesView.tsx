import { useEffect, useRef, useState } from 'react';
import { NavLink, useSearchParams } from 'react-router-dom';
import { Button, Callout, HTMLSelect, Spinner, Tag } from '@blueprintjs/core';
import { ApiError } from '../../api/client';
import { LeftMessagesState, leftMessageKeys, useLeftMessages, useMarkRead, useReplyToLeftMessage, useSetLeftMessageState, useTranscript } from '../../api/console';
import { useQueryClient } from '@tanstack/react-query';
import { useT } from '../../i18n';
import { useCustomerName } from '../../phone';
import { useStaffTime } from '../../time';
import { EmptyState } from '../a11y';
import { BusyButton } from '../BusyButton';
import { MessageList } from './Conversation';
import { CustomerPanel } from './CustomerPanel';

type Pane = 'list' | 'conversation' | 'customer';


function errorText(err: unknown): string {
    return err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : String(err);
}

/** The console's "Messages" view link with the count of open left messages no agent has read (issue 23). */
export function MessagesViewLink() {
    const t = useT();
    const open = useLeftMessages('open');
    const unread = open.data?.unread ?? 0;
    return (
        <NavLink to="/admin-chat/messages" data-testid="messages-view-link" className={({ isActive }) => `lc-view-link${isActive ? ' is-current' : ''}`}>
            {t('chat.viewMessages')}
            {unread > 0 && <span className="lc-unread lc-view-count" data-testid="messages-unread" aria-label={t('chat.viewMessagesUnread', { count: unread })}>{unread}</span>}
        </NavLink>
    );
}

/**
 * Left messages (issue 23, DESIGN §9 "a left message is a conversation in the inbox"): what customers wrote with the
 * widget's form while no agent was available. The list (open, done or all; unread ones first in weight, with a
 * badge), the thread of the one picked (the customer's message and the agents' replies) with a reply box whose
 * text is mailed to the customer, Mark done / Reopen, and the customer beside it. `?message=` names the open one.
 */
export function LeftMessagesView({ pane, setPane, toast }: {
    pane: Pane; setPane(p: Pane): void; toast(title: string, message: string, intent?: 'none' | 'primary' | 'success' | 'warning' | 'danger'): void;
}) {
    const t = useT();
    const time = useStaffTime();
    const when = (iso: string) => time(iso, 'short');
    const nameOf = useCustomerName();
    const queryClient = useQueryClient();
    const [params, setParams] = useSearchParams();
    const [state, setState] = useState<LeftMessagesState>('open');
    const list = useLeftMessages(state);
    const selectedId = params.get('message');
    const thread = useTranscript(selectedId);
    const reply = useReplyToLeftMessage();
    const setDone = useSetLeftMessageState();
    const markRead = useMarkRead();
    const [draft, setDraft] = useState('');
    const input = useRef<HTMLTextAreaElement>(null);
    const session = thread.data ?? null;

    // The open message is read up to its newest line while the tab is visible.
    const listed = list.data?.messages.find((m) => m.sessionId === selectedId);
    const unread = listed?.unreadCount ?? 0;
    const lastSeq = session?.lastSeq ?? 0;
    const markReadRef = useRef(markRead.mutate);
    markReadRef.current = markRead.mutate;
    useEffect(() => {
        if (!selectedId || !unread || !lastSeq) {
            return;
        }
        const mark = () => {
            if (document.visibilityState === 'visible') {
                markReadRef.current({ sessionId: selectedId, seq: lastSeq }, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: leftMessageKeys.all }) });
            }
        };
        mark();
        document.addEventListener('visibilitychange', mark);
        return () => document.removeEventListener('visibilitychange', mark);
    }, [selectedId, unread, lastSeq, queryClient]);

    useEffect(() => setDraft(''), [selectedId]);

    const open = (sessionId: string) => {
        const next = new URLSearchParams(params);
        next.set('message', sessionId);
        setParams(next, { replace: true });
        setPane('conversation');
    };
    const send = () => {
        const text = draft.trim();
        if (!session || !text || reply.isPending) {
            return;
        }
        reply.mutate({ sessionId: session.sessionId, text }, {
            onSuccess: (r) => {
                setDraft('');
                toast(t('messages.sent', { email: r.to }), text.length > 80 ? `${text.slice(0, 80)}…` : text, 'success');
            },
            onError: (err) => toast(t('messages.notSent'), errorText(err), 'danger')
        });
    };
    const empty = state === 'open' ? t('messages.emptyOpen') : state === 'done' ? t('messages.emptyDone') : t('messages.emptyAll');

    return (
        <div className={`lc-console-columns lc-pane-${pane}`}>
            <section className="lc-queue lc-pane" aria-labelledby="lc-messages-title">
                <div className="lc-queue-title lc-messages-head">
                    <h2 id="lc-messages-title" className="lc-queue-title">
                        {t('messages.title')} {list.data && <Tag round minimal data-testid="messages-open-count">{list.data.open}</Tag>}
                    </h2>
                    <label className="lc-messages-filter">
                        <span className="lc-sr-only">{t('messages.filter')}</span>
                        <HTMLSelect minimal value={state} onChange={(e) => setState(e.target.value as LeftMessagesState)} data-testid="messages-filter"
                            options={[{ value: 'open', label: t('messages.open') }, { value: 'done', label: t('messages.done') }, { value: 'all', label: t('messages.all') }]} />
                    </label>
                </div>
                {list.isError && <Callout intent="danger">{t('messages.loadError')}</Callout>}
                {list.isPending && <Spinner size={20} />}
                {list.data && !list.data.messages.length && <div className="lc-empty">{empty}</div>}
                <ul className="lc-chat-list" data-testid="messages-list" aria-busy={list.isFetching}>
                    {list.data?.messages.map((m) => {
                        const isUnread = (m.unreadCount ?? 0) > 0;
                        const replies = Math.max(0, (m.messageCount ?? 0) - 2);
                        return (
                            <li key={m.sessionId} data-session={m.sessionId}
                                className={`lc-chat-item${m.sessionId === selectedId ? ' is-selected' : ''}${isUnread ? ' has-unread' : ''}${m.inboxState === 'done' ? ' is-done' : ''}`}>
                                <button type="button" className="lc-chat-open" data-chat-button={m.sessionId} aria-current={m.sessionId === selectedId ? 'true' : undefined} onClick={() => open(m.sessionId)}>
                                    <span className="lc-chat-item-row">
                                        <strong className="lc-chat-phone">{m.customerName ?? nameOf(m)}</strong>
                                        {isUnread
                                            ? <span className="lc-unread" data-testid="message-unread" aria-label={t('messages.unreadLabel')}>{t('messages.unreadBadge')}</span>
                                            : <span className="lc-chat-item-meta">{when(m.createdAt)}</span>}
                                    </span>
                                    <span className="lc-chat-item-meta lc-chat-email">{m.customerEmail}</span>
                                    <span className="lc-chat-preview" data-testid="message-preview">{m.firstMessage ?? ''}</span>
                                    <span className="lc-chat-item-meta">
                                        {isUnread ? `${when(m.createdAt)} · ` : ''}{t('messages.replies', { count: replies })}
                                        {m.inboxState === 'done' ? ` · ${t('messages.done')}` : ''}
                                    </span>
                                </button>
                            </li>
                        );
                    })}
                </ul>
            </section>
            <section className="lc-conversation lc-pane" aria-labelledby="lc-thread-title" data-testid="message-thread">
                <div className="lc-pane-head">
                    <Button className="lc-pane-back" minimal icon="arrow-left" aria-label={t('messages.back')} onClick={() => setPane('list')} />
                    <h2 id="lc-thread-title" className="lc-pane-title">
                        {session ? t('messages.threadTitle', { customer: session.customerName ?? session.customerEmail ?? nameOf(session) }) : t('messages.title')}
                    </h2>
                    {session && (
                        <span className="lc-pane-actions">
                            {session.inboxState === 'done'
                                ? <Button small minimal icon="undo" text={t('messages.reopen')} data-testid="message-reopen"
                                    onClick={() => setDone.mutate({ sessionId: session.sessionId, state: 'open' }, { onError: (err) => toast(t('messages.stateChangeFailed'), errorText(err), 'danger') })} />
                                : <Button small minimal icon="tick" intent="success" text={t('messages.markDone')} data-testid="message-done"
                                    onClick={() => setDone.mutate({ sessionId: session.sessionId, state: 'done' }, { onError: (err) => toast(t('messages.stateChangeFailed'), errorText(err), 'danger') })} />}
                            <Button className="lc-show-customer" small minimal icon="person" text={t('customer.visitor')} onClick={() => setPane('customer')} />
                        </span>
                    )}
                </div>
                {!selectedId && <EmptyState icon="envelope" title={t('messages.noneSelected')} level={2} description={t('messages.noneSelectedHelp')} />}
                {thread.isPending && selectedId && <Spinner size={24} />}
                {thread.isError && <Callout intent="danger">{errorText(thread.error)}</Callout>}
                {session && (
                    <>
                        <div className="lc-transcript-meta">
                            {t('messages.leftAt', { time: when(session.createdAt) })}
                            {session.pageUrl ? ` · ${t('chat.fromPage', { page: session.pageUrl })}` : ''}
                        </div>
                        <MessageList messages={session.messages ?? []} sessionId={session.sessionId} />
                        <p className="lc-messages-note">{t('messages.replyNote')}</p>
                        {session.customerEmail ? (
                            <div className="lc-composer">
                                <label htmlFor="lc-message-reply" className="lc-sr-only">{t('messages.replyTo', { email: session.customerEmail })}</label>
                                <textarea id="lc-message-reply" ref={input} className="bp5-input lc-reply" rows={3} value={draft} data-testid="message-reply"
                                    placeholder={t('messages.replyPlaceholder')}
                                    onChange={(e) => setDraft(e.target.value)}
                                    onKeyDown={(e) => {
                                        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                                            e.preventDefault();
                                            send();
                                        }
                                    }} />
                                <BusyButton intent="primary" icon="envelope" text={t('messages.send')} data-testid="message-send" disabled={!draft.trim()} busy={reply.isPending} onClick={send} />
                            </div>
                        ) : <Callout intent="warning">{t('messages.noAddress')}</Callout>}
                    </>
                )}
            </section>
            <CustomerPanel session={session} onBack={() => setPane('conversation')} />
        </div>
    );
}
