import { Button, Tag } from '@blueprintjs/core';
import type { ChatSession } from '../../api/chat';
import { mmss, waitColour } from './alerts';
import { useCustomerName } from '../../phone';
import type { WaitingChat } from '../../api/routing';
import { useAdminAuth } from '../../auth/AdminGuard';
import { useT } from '../../i18n';
import { LanguageTag } from './LanguageTag';
import { useNow } from './console-state';

function since(iso: string | null, now: number): number {
    return iso ? (now - Date.parse(iso)) / 1000 : 0;
}

/**
 * How a chat's customer is named where no hook can run (plain text): the phone as stored when known, else the
 * visitor label ('Visitor 4821', issue 23). Components use `useCustomerName()` (src/phone.ts): the phone in the
 * store's format, and the visitor label from the catalogue.
 */
export function customerLabel(c: Pick<ChatSession, 'phoneNumber'> & { visitorLabel?: string }): string {
    return c.phoneNumber && c.phoneNumber !== 'Unknown' ? c.phoneNumber : c.visitorLabel ?? 'Unknown';
}

/** Where a chat comes from, short: the page without its scheme (issue 23), else the domain. */
function pageOf(c: Pick<ChatSession, 'pageUrl' | 'domain'>): string {
    return c.pageUrl ? c.pageUrl.replace(/^https?:\/\//, '') : c.domain ?? '';
}

/** SPEC §2: waiting chats with the mm:ss timer (green < 60 s, yellow < 300 s, red after) and Accept Chat. */
export function WaitingChats({ chats, canAccept, onAccept }: { chats: WaitingChat[]; canAccept: boolean; onAccept(sessionId: string): void }) {
    const now = useNow();     // the wait timers: only the lists tick every second, not the whole console
    const nameOf = useCustomerName();
    const t = useT();
    const { user } = useAdminAuth();
    return (
        <section className="lc-queue-section" aria-labelledby="lc-waiting-title">
            <h2 id="lc-waiting-title" className="lc-queue-title">{t('console.waiting')} <Tag round minimal>{chats.length}</Tag></h2>
            {!chats.length && <div className="lc-empty">{t('console.noneWaiting')}</div>}
            <ul className="lc-chat-list" data-testid="waiting-list">
                {chats.map((c) => {
                    const waited = since(c.createdAt, now);
                    return (
                        <li key={c.sessionId} className="lc-chat-item lc-chat-waiting" data-session={c.sessionId}>
                            <div className="lc-chat-item-row">
                                <strong>{nameOf(c)}</strong>
                                {c.lang && <LanguageTag lang={c.lang} />}
                                <span className={`lc-timer lc-timer-${waitColour(waited)}`} data-testid="wait-timer">{mmss(waited)}</span>
                            </div>
                            {c.firstMessage && <div className="lc-chat-preview" dir="auto" title={c.firstMessage}>{c.firstMessage}</div>}
                            {c.offer && (
                                <Tag minimal intent={c.offer.agentId === user.id ? 'warning' : 'none'} className="lc-offer-tag" data-testid="offer-tag">
                                    {c.offer.agentId === user.id ? t('offer.listedMine') : t('offer.listed', { name: c.offer.agentName })}
                                    {' · '}{Math.max(0, Math.ceil((Date.parse(c.offer.expiresAt) - now) / 1000))} s
                                </Tag>
                            )}
                            <div className="lc-chat-item-row lc-chat-item-actions">
                                <span className="lc-chat-item-meta lc-chat-page" title={c.pageUrl ?? c.domain ?? undefined}>{pageOf(c)}</span>
                                <Button small intent="success" text={t('console.accept')} disabled={!canAccept} onClick={() => onAccept(c.sessionId)} />
                            </div>
                        </li>
                    );
                })}
            </ul>
        </section>
    );
}

/**
 * Active chats: each one's main part is a button (focusable; j/k or the arrow keys move between them, Enter
 * opens), with the phone, a last-message preview, the unread count, message count and duration; then star,
 * archive and end.
 */
export function ActiveChats({ chats, selected, canEnd, onSelect, onStar, onArchive, onEnd, ownerOf }: {
    chats: ChatSession[]; selected: string | null; canEnd: boolean;
    onSelect(sessionId: string): void; onStar(c: ChatSession): void; onArchive(c: ChatSession): void; onEnd(sessionId: string): void;
    /** Issue 26: who has the chat, when it is a colleague ("with Alex"); null for the agent's own. */
    ownerOf?(c: ChatSession): string | null;
}) {
    const now = useNow();
    const nameOf = useCustomerName();
    const t = useT();
    return (
        <section className="lc-queue-section" aria-labelledby="lc-active-title">
            <h2 id="lc-active-title" className="lc-queue-title">{t('console.active')} <Tag round minimal>{chats.length}</Tag></h2>
            {!chats.length && <div className="lc-empty">{t('console.noneActive')}</div>}
            <ul className="lc-chat-list" data-testid="active-list">
                {chats.map((c) => {
                    const unread = c.unreadCount ?? 0;
                    const preview = c.lastMessage
                        ? (c.lastMessage.sender === 'agent' ? t('console.youWrote', { message: c.lastMessage.message }) : c.lastMessage.message)
                        : c.firstMessage ?? '';
                    return (
                        <li key={c.sessionId} data-session={c.sessionId} className={`lc-chat-item${selected === c.sessionId ? ' is-selected' : ''}${unread ? ' has-unread' : ''}`}>
                            <button type="button" className="lc-chat-open" data-chat-button={c.sessionId} aria-current={selected === c.sessionId ? 'true' : undefined}
                                onClick={() => onSelect(c.sessionId)}>
                                <span className="lc-chat-item-row">
                                    <strong className="lc-chat-phone">{nameOf(c)}</strong>
                                    {c.lang && <LanguageTag lang={c.lang} />}
                                    {unread > 0 && <span className="lc-unread" data-testid="unread-count" aria-label={t('console.unread', { count: unread })}>{unread}</span>}
                                </span>
                                {preview && <span className="lc-chat-preview" dir="auto" data-testid="chat-preview">{preview}</span>}
                                <span className="lc-chat-item-meta" data-testid="chat-stats">
                                    {t('console.stats', { count: c.messageCount ?? 0, duration: mmss(since(c.acceptedAt ?? c.createdAt, now)) })}
                                    {ownerOf?.(c) && <> · <span className="lc-chat-owner" data-testid="chat-owner">{ownerOf(c)}</span></>}
                                </span>
                            </button>
                            <span className="lc-chat-item-actions">
                                <Button small minimal icon={c.isStarred ? 'star' : 'star-empty'} intent={c.isStarred ? 'warning' : 'none'}
                                    aria-label={t(c.isStarred ? 'console.unstar' : 'console.star', { customer: nameOf(c) })} aria-pressed={c.isStarred} onClick={() => onStar(c)} />
                                <Button small minimal icon="archive" aria-label={t('console.archive', { customer: nameOf(c) })} onClick={() => onArchive(c)} />
                                <Button small minimal icon="cross-circle" intent="danger" text={t('console.end')} aria-label={t('console.endWith', { customer: nameOf(c) })}
                                    disabled={!canEnd} onClick={() => onEnd(c.sessionId)} />
                            </span>
                        </li>
                    );
                })}
            </ul>
        </section>
    );
}
