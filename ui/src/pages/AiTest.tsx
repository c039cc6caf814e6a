import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Callout, Card, HTMLTable, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import { AiTestAnswer, useTestAgent } from '../api/ai';
import '../features/ai/ai.css';
import { fallbackLabel } from './AiManagement';
import { BusyButton } from '../components/BusyButton';
import { AdminTextKey, useT } from '../i18n';

interface Exchange {
    question: string;
    reply: AiTestAnswer | null;
    error: string | null;
}

/** /ai-test: staff chat with the agent and see which entries it used and how confident it was. */
export default function AiTest() {
    const ask = useTestAgent();
    const t = useT();
    const percent = (value: number) => t('common.percent', { value: Math.round(value * 100) / 100 });
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
                <h1 className="lc-h1">{t('aiTest.title')}</h1>
                <p className="bp5-text-muted">{t('aiTest.intro')} <Link to="/ai-management">{t('aiTest.editKnowledge')}</Link></p>
                <div className="lc-ai-test">
                    <Card>
                        <div className="lc-ai-test-log" aria-live="polite" data-testid="ai-test-log">
                            {!log.length && <p className="bp5-text-muted">{t('aiTest.try')}</p>}
                            {log.map((e, i) => (
                                <div key={i} className="lc-ai-test-pair">
                                    <div className="lc-ai-bubble lc-ai-bubble-user">{e.question}</div>
                                    <div className="lc-ai-bubble lc-ai-bubble-agent" data-testid="ai-test-answer">
                                        {e.reply ? e.reply.answer : e.error}
                                        {e.reply?.sources.length ? <small>{t('aiTest.source', { titles: e.reply.sources.map((s) => s.title).join(', ') })}</small> : null}
                                        {e.reply?.fallbackAction && <small>{t('aiTest.offered', { action: fallbackLabel(t, e.reply.fallbackAction) })}</small>}
                                    </div>
                                </div>
                            ))}
                        </div>
                        <div className="lc-ai-composer">
                            <InputGroup aria-label={t('aiTest.question')} placeholder={t('aiTest.placeholder')} value={text} maxLength={1000}
                                onChange={(e) => setText(e.target.value)}
                                onKeyDown={(e) => {
                                    if (e.key === 'Enter') {
                                        e.preventDefault();
                                        send();
                                    }
                                }} />
                            <BusyButton intent={Intent.PRIMARY} icon="send-message" text={t('aiTest.ask')} busy={ask.isPending} disabled={!text.trim()} onClick={send} />
                        </div>
                    </Card>
                    <Card className="lc-ai-used" data-testid="ai-test-details">
                        <h2 className="lc-ai-section-title">{t('aiTest.used')}</h2>
                        {!last && <p className="bp5-text-muted">{t('aiTest.usedEmpty')}</p>}
                        {last && (
                            <>
                                <p>
                                    {t('aiTest.confidence')} <Tag round intent={last.confidence >= 0.4 ? Intent.SUCCESS : Intent.WARNING} data-testid="ai-test-confidence">{percent(last.confidence)}</Tag>
                                    {' '}{t('aiTest.provider')} <Tag minimal>{last.provider}</Tag>
                                </p>
                                {last.tools.length > 0 && <p>{t('aiTest.tools', { tools: last.tools.join(', ') })}</p>}
                                {last.entries.length ? (
                                    <HTMLTable compact striped>
                                        <thead><tr><th>{t('aiTest.entry')}</th><th>{t('aiTest.match')}</th></tr></thead>
                                        <tbody>
                                            {last.entries.map((e) => (
                                                <tr key={`${e.kind}-${e.id}`}><td>{e.title}<br /><small className="bp5-text-muted">{t(`ai.learn.kind.${e.kind}` as AdminTextKey)}</small></td><td>{percent(e.confidence)}</td></tr>
                                            ))}
                                        </tbody>
                                    </HTMLTable>
                                ) : <Callout>{t('aiTest.noMatch')}</Callout>}
                            </>
                        )}
                    </Card>
                </div>
            </div>
        </>
    );
}
