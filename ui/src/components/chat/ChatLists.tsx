import { Button, Card, Tag } from '@blueprintjs/core';
import { Heading } from '../a11y';
import type { ChatSession } from '../../api/chat';
import { mmss, waitColour } from './alerts';

function since(iso: string | null, now: number): number {
    return iso ? (now - Date.parse(iso)) / 1000 : 0;
}

/** SPEC §2: waiting chats with the mm:ss timer (green < 60 s, yellow < 300 s, red after) and Accept Chat. */
export function WaitingChats({ chats, now, canAccept, onAccept }: { chats: ChatSession[]; now: number; canAccept: boolean; onAccept(sessionId: string): void }) {
    return (
        <Card>
            <Heading level={2} look={5}>Waiting chats <Tag round minimal>{chats.length}</Tag></Heading>
            {!chats.length && <div className="lc-empty">No customers waiting for chat</div>}
            <ul className="lc-chat-list" data-testid="waiting-list">
                {chats.map((c) => {
                    const waited = since(c.createdAt, now);
                    return (
                        <li key={c.sessionId} className="lc-chat-item" data-session={c.sessionId}>
                            <div className="lc-chat-item-row">
                                <strong>{c.phoneNumber}</strong>
                                <span className={`lc-timer lc-timer-${waitColour(waited)}`} data-testid="wait-timer">{mmss(waited)}</span>
                            </div>
                            {c.firstMessage && <div className="lc-chat-first" title={c.firstMessage}>{c.firstMessage}</div>}
                            <div className="lc-chat-item-row">
                                <span className="lc-chat-item-meta">…{c.sessionId.slice(-8)}</span>
                                <Button small intent="success" text="Accept Chat" disabled={!canAccept} onClick={() => onAccept(c.sessionId)} />
                            </div>
                        </li>
                    );
                })}
            </ul>
        </Card>
    );
}

/** SPEC §2: active chats with star, archive and end, message count and duration. */
export function ActiveChats({ chats, now, selected, canEnd, onSelect, onStar, onArchive, onEnd }: {
    chats: ChatSession[]; now: number; selected: string | null; canEnd: boolean;
    onSelect(sessionId: string): void; onStar(c: ChatSession): void; onArchive(c: ChatSession): void; onEnd(sessionId: string): void;
}) {
    return (
        <Card>
            <Heading level={2} look={5}>Active chats <Tag round minimal>{chats.length}</Tag></Heading>
            {!chats.length && <div className="lc-empty">No active chats</div>}
            <ul className="lc-chat-list" data-testid="active-list">
                {chats.map((c) => (
                    <li key={c.sessionId} data-session={c.sessionId}
                        className={`lc-chat-item${selected === c.sessionId ? ' is-selected' : ''}`}
                        onClick={() => onSelect(c.sessionId)}>
                        <div className="lc-chat-item-row">
                            <strong>{c.phoneNumber}</strong>
                            <span className="lc-chat-item-meta" data-testid="chat-stats">
                                {c.messageCount ?? 0} msgs · {mmss(since(c.acceptedAt ?? c.createdAt, now))}
                            </span>
                        </div>
                        <div className="lc-chat-item-row" onClick={(e) => e.stopPropagation()}>
                            <span className="lc-chat-item-meta">…{c.sessionId.slice(-8)}</span>
                            <span>
                                <Button small minimal icon={c.isStarred ? 'star' : 'star-empty'} intent={c.isStarred ? 'warning' : 'none'}
                                    aria-label={c.isStarred ? 'Unstar' : 'Star'} onClick={() => onStar(c)} />
                                <Button small minimal icon="archive" aria-label="Archive" onClick={() => onArchive(c)} />
                                <Button small minimal icon="cross-circle" intent="danger" aria-label="End chat" text="End"
                                    disabled={!canEnd} onClick={() => onEnd(c.sessionId)} />
                            </span>
                        </div>
                    </li>
                ))}
            </ul>
        </Card>
    );
}
