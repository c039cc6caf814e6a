import { memo } from 'react';
import type { ReactNode, Ref } from 'react';
import type { Message } from './flow';
import { t } from './texts';

/**
 * One message: customer and agent text is rendered as text, never HTML. Memoised: typing in the input re-renders
 * the panel, not every message and its time (the clock is formatted only where a time is shown, once).
 */
const Row = memo(function Row({ m, files }: { m: Message; files?: (f: NonNullable<Message['files']>) => ReactNode }) {
    const kind = m.from === 'user' ? 'user' : m.from === 'error' ? 'error' : m.from === 'agent' ? 'agent' : 'bot';
    return (
        <div className={`lc-msg lc-${kind}`} data-role={kind === 'agent' ? 'bot' : kind}>
            {m.from === 'agent' && m.author && <span className="lc-author">{m.author}</span>}
            {m.text && <span className="lc-text" dir="auto">{m.text}</span>}
            {m.files && files?.(m.files)}
            <time className="lc-time" dateTime={new Date(m.time).toISOString()}>{t('messageTime', { time: m.time })}</time>
        </div>
    );
});

/** The conversation (a log the keyboard can scroll), the agent's typing indicator, and a form shown in it (leave a message). */
export function MessageList(props: { messages: Message[]; agentTyping: boolean; listRef: Ref<HTMLDivElement>; children?: ReactNode;
    files?: (f: NonNullable<Message['files']>) => ReactNode }) {
    return (
        <div className="lc-msgs" role="log" aria-live="polite" aria-label={t('messagesLabel')} tabIndex={0} ref={props.listRef}>
            {props.messages.map((m) => <Row key={m.id} m={m} files={m.files ? props.files : undefined} />)}
            {props.agentTyping && <div className="lc-typing" aria-label={t('agentTyping')}>…</div>}
            {props.children}
        </div>
    );
}
