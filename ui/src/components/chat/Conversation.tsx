import { useEffect, useRef, useState } from 'react';
import { Button, Card, H5, InputGroup, NonIdealState } from '@blueprintjs/core';
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
        return <Card className="lc-conversation"><NonIdealState icon="chat" title="No conversation selected" description="Accept a waiting chat or pick an active one." /></Card>;
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
            <H5>Chat with {session.phoneNumber} <span className="lc-chat-item-meta">…{session.sessionId.slice(-8)}</span></H5>
            <div className="lc-messages">
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
