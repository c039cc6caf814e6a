import { useEffect, useRef, useState } from 'react';
import { Button, Card, InputGroup } from '@blueprintjs/core';
import { EmptyState, Heading } from '../a11y';
import type { ChatMessage, ChatSession } from '../../api/chat';

/** The conversation pane: customer text is rendered as text (React escapes it), Enter sends. */
export function Conversation({ session, messages, canSend, onSend }: {
    session: ChatSession | null; messages: ChatMessage[]; canSend: boolean; onSend(text: string): Promise<void>;
}) {
    const [text, setText] = useState('');
    const [sending, setSending] = useState(false);
    const end = useRef<HTMLDivElement>(null);

    useEffect(() => {
        end.current?.scrollIntoView?.({ block: 'end' });
    }, [messages.length, session?.sessionId]);

    if (!session) {
        return <Card className="lc-conversation"><EmptyState icon="chat" title="No conversation selected" level={2} description="Accept a waiting chat or pick an active one." /></Card>;
    }

    const send = async () => {
        const trimmed = text.trim();
        if (!trimmed || !canSend || sending) {
            return;
        }
        setSending(true);
        try {
            await onSend(trimmed);
            setText('');
        }
        finally {
            setSending(false);
        }
    };

    return (
        <Card className="lc-conversation" data-testid="conversation">
            <Heading level={2} look={5}>Chat with {session.phoneNumber} <span className="lc-chat-item-meta">…{session.sessionId.slice(-8)}</span></Heading>
            {/* A focusable scroll region: the keyboard can scroll the history once it overflows. */}
            <div className="lc-messages" role="log" aria-label={`Messages with ${session.phoneNumber}`} tabIndex={0}>
                {messages.map((m) => (
                    <div key={m.seq} className={`lc-msg lc-msg-${m.sender}`} data-sender={m.sender}>
                        {m.message}
                        <span className="lc-msg-time">{new Date(m.timestamp).toLocaleTimeString()}</span>
                    </div>
                ))}
                <div ref={end} />
            </div>
            <div className="lc-composer">
                <InputGroup
                    aria-label="Message to the customer"
                    placeholder={canSend ? 'Type a message and press Enter' : 'Not connected'}
                    value={text}
                    disabled={!canSend}
                    data-testid="agent-input"
                    onChange={(e) => setText(e.target.value)}
                    onKeyDown={(e) => {
                        if (e.key === 'Enter' && !e.shiftKey) {
                            e.preventDefault();
                            void send();
                        }
                    }}
                />
                <Button intent="primary" icon="send-message" text="Send" disabled={!canSend || !text.trim()} loading={sending} onClick={() => void send()} />
            </div>
        </Card>
    );
}
