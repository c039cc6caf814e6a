import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Callout, Card, HTMLTable, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import { AiTestAnswer, useTestAgent } from '../api/ai';
import '../features/ai/ai.css';
import { BusyButton } from '../components/BusyButton';

interface Exchange {
    question: string;
    reply: AiTestAnswer | null;
    error: string | null;
}

/** /ai-test: staff chat with the agent and see which entries it used and how confident it was. */
export default function AiTest() {
    const ask = useTestAgent();
    const [text, setText] = useState('');
    const [log, setLog] = useState<Exchange[]>([]);
    const last = [...log].reverse().find((e) => e.reply)?.reply ?? null;

    const send = () => {
        const question = text.trim();
        if (!question || ask.isPending) {
            return;
        }
        setText('');
        ask.mutate(question, {
            onSuccess: (reply) => setLog((l) => [...l, { question, reply, error: null }]),
            onError: (err) => setLog((l) => [...l, { question, reply: null, error: err instanceof ApiError ? err.serverMessage : String(err) }])
        });
    };

    return (
        <>
            <div className="lc-page">
                <h1 className="lc-h1">Test the AI agent</h1>
                <p className="bp5-text-muted">Ask as a customer would. Nothing is stored; tier-2 tools ask for a verified phone here. <Link to="/ai-management">Edit the knowledge base</Link></p>
                <div className="lc-ai-test">
                    <Card>
                        <div className="lc-ai-test-log" aria-live="polite" data-testid="ai-test-log">
                            {!log.length && <p className="bp5-text-muted">Try "When are you open on Sunday?"</p>}
                            {log.map((e, i) => (
                                <div key={i} className="lc-ai-test-pair">
                                    <div className="lc-ai-bubble lc-ai-bubble-user">{e.question}</div>
                                    <div className="lc-ai-bubble lc-ai-bubble-agent" data-testid="ai-test-answer">
                                        {e.reply ? e.reply.answer : e.error}
                                        {e.reply?.sources.length ? <small>Source: {e.reply.sources.map((s) => s.title).join(', ')}</small> : null}
                                        {e.reply?.fallbackAction && <small>Offered instead: {e.reply.fallbackAction}</small>}
                                    </div>
                                </div>
                            ))}
                        </div>
                        <div className="lc-ai-composer">
                            <InputGroup aria-label="Question" placeholder="Type a question and press Enter" value={text} maxLength={1000}
                                onChange={(e) => setText(e.target.value)}
                                onKeyDown={(e) => {
                                    if (e.key === 'Enter') {
                                        e.preventDefault();
                                        send();
                                    }
                                }} />
                            <BusyButton intent={Intent.PRIMARY} icon="send-message" text="Ask" busy={ask.isPending} disabled={!text.trim()} onClick={send} />
                        </div>
                    </Card>
                    <Card className="lc-ai-used" data-testid="ai-test-details">
                        <h2 className="lc-ai-section-title">What it used</h2>
                        {!last && <p className="bp5-text-muted">Ask something to see the entries and the confidence.</p>}
                        {last && (
                            <>
                                <p>
                                    Confidence <Tag round intent={last.confidence >= 0.4 ? Intent.SUCCESS : Intent.WARNING} data-testid="ai-test-confidence">{Math.round(last.confidence * 100)}%</Tag>
                                    {' '}Provider <Tag minimal>{last.provider}</Tag>
                                </p>
                                {last.tools.length > 0 && <p>Tools: {last.tools.join(', ')}</p>}
                                {last.entries.length ? (
                                    <HTMLTable compact striped>
                                        <thead><tr><th>Entry</th><th>Match</th></tr></thead>
                                        <tbody>
                                            {last.entries.map((e) => (
                                                <tr key={`${e.kind}-${e.id}`}><td>{e.title}<br /><small className="bp5-text-muted">{e.kind}</small></td><td>{Math.round(e.confidence * 100)}%</td></tr>
                                            ))}
                                        </tbody>
                                    </HTMLTable>
                                ) : <Callout>No entry matched this question.</Callout>}
                            </>
                        )}
                    </Card>
                </div>
            </div>
        </>
    );
}
