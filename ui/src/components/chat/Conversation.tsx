import { forwardRef, ReactNode, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { Button, ButtonGroup, Spinner, Tag } from '@blueprintjs/core';
import type { ChatMessage, ChatSession } from '../../api/chat';
import type { ChatNote } from '../../api/routing';
import { CannedReply, useCannedReplies } from '../../api/console';
import { useCustomerName } from '../../phone';
import { LanguageTag } from './LanguageTag';
import { EmptyState } from '../a11y';
import { BusyButton } from '../BusyButton';
import { useT } from '../../i18n';
import { useStaffTime } from '../../time';
import { ACCEPT, MessageFiles, UploadList, useUploads } from './ChatFiles';

export interface ConversationHandle {
    /** Puts the caret in the reply box. */
    focusReply(): void;
}

/** A staff-only note among the messages (issue 26): marked as such, never sent to the customer. */
function NoteItem({ note }: { note: ChatNote }) {
    const t = useT();
    const time = useStaffTime();
    const head = note.kind === 'transfer'
        ? t('notes.transferHead', { from: note.authorName ?? '?', to: note.toAgentName ?? '?' })
        : t('notes.head', { name: note.authorName ?? '?' });
    return (
        <div className="lc-msg lc-msg-note" data-testid="note" data-kind={note.kind}>
            <span className="lc-note-head">{head}</span>
            {note.text && <span className="lc-note-text">{note.text}</span>}
            <span className="lc-msg-time">{time(note.timestamp, 'time')}</span>
        </div>
    );
}

/** Messages of one chat, and its internal notes in time order; customer text is rendered as text (React escapes it). */
export function MessageList({ messages, sessionId, highlightSeq, notes }: { messages: ChatMessage[]; sessionId: string; highlightSeq?: number | null; notes?: ChatNote[] }) {
    const t = useT();
    const time = useStaffTime();
    const end = useRef<HTMLDivElement>(null);
    useEffect(() => {
        end.current?.scrollIntoView?.({ block: 'end' });
    }, [messages.length, notes?.length, sessionId]);
    const items = useMemo(() => {
        const list: Array<{ at: number; message?: ChatMessage; note?: ChatNote }> = messages.map((m) => ({ at: Date.parse(m.timestamp), message: m }));
        for (const note of notes ?? []) {
            list.push({ at: Date.parse(note.timestamp), note });
        }
        // Stable: messages keep their sequence; a note goes after the messages of its moment.
        return notes?.length ? list.map((x, i) => ({ ...x, i })).sort((a, b) => a.at - b.at || a.i - b.i) : list;
    }, [messages, notes]);
    return (
        <div className="lc-messages" role="log" aria-label={t('chat.viewMessages')} tabIndex={0}>
            {items.map(({ message: m, note }) => (m
                ? (
                    <div key={m.seq} className={`lc-msg lc-msg-${m.sender}${highlightSeq === m.seq ? ' is-match' : ''}`} data-sender={m.sender}>
                        {m.message && <span dir="auto">{m.message}</span>}
                        {m.attachments?.length ? <MessageFiles sessionId={sessionId} files={m.attachments} /> : null}
                        <span className="lc-msg-time">{time(m.timestamp, 'time')}</span>
                    </div>
                )
                : <NoteItem key={`note-${note!.id}`} note={note!} />))}
            <div ref={end} />
        </div>
    );
}

/** The `/` menu: the store's pre-made answers and knowledge entries whose title or text holds what follows the slash. */
function CannedMenu({ query, active, replies, loading, onPick, onHover }: {
    query: string; active: number; replies: CannedReply[]; loading: boolean; onPick(r: CannedReply): void; onHover(i: number): void;
}) {
    const t = useT();
    return (
        <div className="lc-canned" data-testid="canned-replies">
            <div className="lc-canned-head">{query ? t('console.cannedMatching', { query }) : t('console.canned')} · {t('console.cannedKeys')}</div>
            {loading && <Spinner size={16} />}
            {!loading && !replies.length && <div className="lc-empty">{t('console.cannedNone')}</div>}
            <ul role="listbox" id="lc-canned-list" aria-label={t('console.canned')} className="lc-canned-list">
                {replies.map((r, i) => (
                    <li key={r.id} id={`lc-canned-${i}`} role="option" aria-selected={i === active} className={`lc-canned-item${i === active ? ' is-active' : ''}`}
                        onMouseDown={(e) => { e.preventDefault(); onPick(r); }} onMouseEnter={() => onHover(i)}>
                        <span className="lc-canned-title">{r.title}</span>
                        <Tag minimal className="lc-canned-kind">{r.kind === 'question' ? t('console.cannedQuestion') : t('console.cannedKnowledge')}</Tag>
                        <span className="lc-canned-text">{r.text}</span>
                    </li>
                ))}
            </ul>
        </div>
    );
}

/**
 * The conversation pane of the chat being answered: messages, and a reply box whose text is that chat's own
 * draft (kept by the console per chat). Enter sends, Shift+Enter starts a new line, `/` at the start opens the
 * canned replies, Esc leaves the reply box.
 */
export const Conversation = forwardRef<ConversationHandle, {
    session: ChatSession | null; messages: ChatMessage[]; canSend: boolean; draft: string;
    onDraft(text: string): void; onSend(text: string, attachments?: string[]): Promise<void>; onLeave(): void;
    /** Phone width: back to the list, and to the customer panel. */
    onBack?(): void; onShowCustomer?(): void;
    /** The customer is typing (their signal arrived in the last few seconds). */
    customerTyping?: boolean;
    /** Internal notes (issue 26): shown among the messages, written in the composer's Note mode (never a typing signal). */
    notes?: ChatNote[];
    onAddNote?(text: string): Promise<void>;
    /** More buttons of the pane's head (Transfer). */
    headActions?: ReactNode;
}>(function Conversation({ session, messages, canSend, draft, onDraft, onSend, onLeave, onBack, onShowCustomer, customerTyping, notes, onAddNote, headActions }, ref) {
    const nameOf = useCustomerName();
    const t = useT();
    const [mode, setMode] = useState<'reply' | 'note'>('reply');
    const [noteDraft, setNoteDraft] = useState('');
    const [sending, setSending] = useState(false);
    const [cannedIndex, setCannedIndex] = useState(0);
    const [cannedClosed, setCannedClosed] = useState(false);
    const input = useRef<HTMLTextAreaElement>(null);
    const picker = useRef<HTMLInputElement>(null);
    const uploads = useUploads(session?.sessionId ?? null);
    const [dragging, setDragging] = useState(false);
    /** The reply box has the focus, the caret where the draft ends. */
    const focusReply = () => {
        const el = input.current;
        if (el) {
            el.focus();
            el.setSelectionRange(el.value.length, el.value.length);     // go on where the draft ends
        }
    };
    useImperativeHandle(ref, () => ({ focusReply }), []);

    const slash = draft.startsWith('/') && !cannedClosed;
    const canned = useCannedReplies(slash);
    const query = slash ? draft.slice(1).trim().toLowerCase() : '';
    const matches = useMemo(() => (canned.data ?? [])
        .filter((r) => !query || r.title.toLowerCase().includes(query) || r.text.toLowerCase().includes(query))
        .slice(0, 8), [canned.data, query]);
    const menuOpen = slash && !!session;

    if (!session) {
        return <section className="lc-conversation lc-pane" aria-label={t('console.conversation')}><EmptyState icon="chat" title={t('console.noConversation')} level={2} description={t('console.noConversationHelp')} /></section>;
    }

    const addNote = async () => {
        const trimmed = noteDraft.trim();
        if (!trimmed || !onAddNote || sending) {
            return;
        }
        setSending(true);
        try {
            await onAddNote(trimmed);
            setNoteDraft('');
        }
        finally {
            setSending(false);
        }
    };
    const send = async () => {
        if (mode === 'note') {
            return addNote();
        }
        const trimmed = draft.trim();
        const files = uploads.ready.map((f) => f.id);
        if ((!trimmed && !files.length) || !canSend || sending || uploads.busy) {
            return;
        }
        setSending(true);
        try {
            await onSend(trimmed, files);
            uploads.clear();
        }
        finally {
            setSending(false);
        }
    };
    const pick = (r: CannedReply) => {
        onDraft(r.text);
        setCannedClosed(false);
        input.current?.focus();
    };

    return (
        <section className="lc-conversation lc-pane" data-testid="conversation" aria-labelledby="lc-conversation-title">
            <div className="lc-pane-head">
                {onBack && <Button className="lc-pane-back" minimal icon="arrow-left" aria-label={t('console.backToChats')} onClick={onBack} />}
                <h2 id="lc-conversation-title" className="lc-pane-title">{t('console.chatWith', { customer: nameOf(session) })}</h2>
                {session.lang && <LanguageTag lang={session.lang} />}
                {headActions}
                {onShowCustomer && <Button className="lc-show-customer" minimal icon="person" text={t('console.customer')} onClick={onShowCustomer} />}
            </div>
            <MessageList messages={messages} sessionId={session.sessionId} notes={notes} />
            <p className="lc-typing" aria-live="polite" data-testid="customer-typing">{customerTyping ? t('console.typing', { customer: nameOf(session) }) : ''}</p>
            {onAddNote && (
                <ButtonGroup className="lc-composer-modes" aria-label={t('notes.modes')}>
                    <Button small minimal={mode !== 'reply'} active={mode === 'reply'} aria-pressed={mode === 'reply'} text={t('notes.modeReply')}
                        onClick={() => setMode('reply')} data-testid="mode-reply" />
                    <Button small minimal={mode !== 'note'} active={mode === 'note'} aria-pressed={mode === 'note'} icon="lock" text={t('notes.modeNote')}
                        onClick={() => setMode('note')} data-testid="mode-note" />
                </ButtonGroup>
            )}
            {mode === 'note' && onAddNote ? (
                <div className="lc-composer lc-composer-note">
                    <label htmlFor="lc-note" className="lc-sr-only">{t('notes.label')}</label>
                    <textarea id="lc-note" className="bp5-input lc-reply lc-note-input" rows={2} placeholder={t('notes.placeholder')} value={noteDraft}
                        data-testid="note-input" maxLength={2000}
                        onChange={(e) => setNoteDraft(e.target.value)}
                        onKeyDown={(e) => {
                            if (e.key === 'Enter' && !e.shiftKey) {
                                e.preventDefault();
                                void addNote();
                            }
                            else if (e.key === 'Escape') {
                                e.preventDefault();
                                onLeave();
                            }
                        }} />
                    <BusyButton intent="warning" icon="lock" text={t('notes.add')} disabled={!noteDraft.trim()} busy={sending} onClick={() => void addNote()} />
                </div>
            ) : (
            <div className={`lc-composer${dragging ? ' is-dropping' : ''}`} data-testid="composer"
                // Drag-and-drop of photos and files onto the composer (issue 29).
                onDragOver={(e) => {
                    if (canSend && e.dataTransfer.types.includes('Files')) {
                        e.preventDefault();
                        setDragging(true);
                    }
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={(e) => {
                    if (canSend && e.dataTransfer.files.length) {
                        e.preventDefault();
                        uploads.add(e.dataTransfer.files);
                        focusReply();
                    }
                    setDragging(false);
                }}>
                <UploadList uploads={uploads.uploads} remove={uploads.remove} />
                {menuOpen && <CannedMenu query={query} active={Math.min(cannedIndex, Math.max(0, matches.length - 1))} replies={matches} loading={canned.isPending}
                    onPick={pick} onHover={setCannedIndex} />}
                <label htmlFor="lc-reply" className="lc-sr-only">{t('console.replyTo', { customer: nameOf(session) })}</label>
                <textarea
                    id="lc-reply"
                    ref={input}
                    className="bp5-input lc-reply"
                    rows={2}
                    placeholder={canSend ? t('console.replyPlaceholder') : t('console.notConnected')}
                    value={draft}
                    disabled={!canSend}
                    data-testid="agent-input"
                    aria-autocomplete="list"
                    aria-controls={menuOpen ? 'lc-canned-list' : undefined}
                    aria-activedescendant={menuOpen && matches.length ? `lc-canned-${Math.min(cannedIndex, matches.length - 1)}` : undefined}
                    onPaste={(e) => {
                        // A pasted screenshot or copied file (issue 29).
                        if (canSend && e.clipboardData.files.length) {
                            e.preventDefault();
                            uploads.add(e.clipboardData.files);
                        }
                    }}
                    onChange={(e) => {
                        onDraft(e.target.value);
                        setCannedIndex(0);
                        if (!e.target.value.startsWith('/')) {
                            setCannedClosed(false);
                        }
                    }}
                    onKeyDown={(e) => {
                        if (menuOpen) {
                            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                                e.preventDefault();
                                const n = matches.length || 1;
                                setCannedIndex((i) => (Math.min(i, n - 1) + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
                                return;
                            }
                            if (e.key === 'Enter' && matches.length) {
                                e.preventDefault();
                                pick(matches[Math.min(cannedIndex, matches.length - 1)]);
                                return;
                            }
                            if (e.key === 'Escape') {
                                e.preventDefault();
                                e.stopPropagation();
                                setCannedClosed(true);
                                return;
                            }
                        }
                        if (e.key === 'Enter' && !e.shiftKey) {
                            e.preventDefault();
                            void send();
                        }
                        else if (e.key === 'Escape') {
                            e.preventDefault();
                            onLeave();
                        }
                    }}
                />
                <input ref={picker} type="file" accept={ACCEPT} multiple hidden data-testid="agent-file-input" onChange={(e) => {
                    uploads.add(e.currentTarget.files);
                    e.currentTarget.value = '';
                    // Files chosen: back to the reply box, so what the agent types next lands in it. The focus stayed on
                    // the paperclip, where the first keystrokes were lost (and `r`, `j`, `k` acted as console keys).
                    focusReply();
                }} />
                <Button icon="paperclip" aria-label={t('files.attach')} title={t('files.attach')} disabled={!canSend} onClick={() => picker.current?.click()} data-testid="attach" />
                <BusyButton className="lc-send" intent="primary" icon="send-message" text={t('console.send')} aria-label={t('console.send')} disabled={!canSend || (!draft.trim() && !uploads.ready.length) || uploads.busy} busy={sending} onClick={() => void send()} />
            </div>
            )}
        </section>
    );
});
