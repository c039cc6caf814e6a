import { Button, Callout, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import type { ChatSession } from '../../api/chat';
import { ApiError } from '../../api/client';
import { useCustomerContext } from '../../api/console';
import { useT } from '../../i18n';
import { usePhoneFormat } from '../../phone';
import { useStaffTime } from '../../time';
import { languageName } from './LanguageTag';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * Who wrote, where from and when (issue 23): the visitor label, a left message's email and name, the page the widget
 * was on (a link that opens in a new tab, without a referrer) and the time.
 */
function Visitor({ session }: { session: ChatSession }) {
    const t = useT();
    const time = useStaffTime();
    return (
        <section aria-label={t('customer.visitor')} className="lc-customer-section" data-testid="customer-visitor">
            <dl className="lc-facts">
                <div><dt>{t('customer.visitor')}</dt><dd>{t('chat.visitor', { n: String(session.visitorNumber) })}</dd></div>
                {session.kind === 'left_message' ? (
                    <>
                        <div><dt>{t('customer.email')}</dt><dd data-testid="customer-email">{session.customerEmail ?? t('customer.notGiven')}</dd></div>
                        <div><dt>{t('customer.name')}</dt><dd data-testid="customer-name">{session.customerName ?? t('customer.notGiven')}</dd></div>
                    </>
                ) : session.customerEmail && (
                    // An email the customer gave in the live chat (issue 28): the link to rate it goes there if they leave.
                    <div><dt>{t('customer.email')}</dt><dd data-testid="customer-email">{session.customerEmail}</dd></div>
                )}
                <div><dt>{t('customer.page')}</dt><dd className="lc-customer-page" data-testid="customer-page">
                    {session.pageUrl ? <a href={session.pageUrl} target="_blank" rel="noopener noreferrer">{session.pageUrl}</a> : session.domain ?? t('customer.notGiven')}
                </dd></div>
                <div><dt>{t('customer.language')}</dt><dd data-testid="customer-language">{session.lang ? languageName(session.lang) : t('customer.notGiven')}</dd></div>
                <div><dt>{t('customer.when')}</dt><dd>{time(session.createdAt)}</dd></div>
            </dl>
        </section>
    );
}


/** One turn of the AI conversation before the hand-off, whatever shape the AI plugin answers. */
function aiTurn(entry: unknown): Array<{ who: 'customer' | 'ai'; text: string }> {
    if (!entry || typeof entry !== 'object') {
        return typeof entry === 'string' ? [{ who: 'ai', text: entry }] : [];
    }
    const e = entry as Record<string, unknown>;
    if (typeof e.question === 'string' && typeof e.answer === 'string') {
        return [{ who: 'customer', text: e.question }, { who: 'ai', text: e.answer }];
    }
    if (typeof e.userQuestion === 'string' || typeof e.aiResponse === 'string') {
        return [
            ...(typeof e.userQuestion === 'string' ? [{ who: 'customer' as const, text: e.userQuestion }] : []),
            ...(typeof e.aiResponse === 'string' ? [{ who: 'ai' as const, text: e.aiResponse }] : [])
        ];
    }
    const text = typeof e.content === 'string' ? e.content : typeof e.message === 'string' ? e.message : typeof e.text === 'string' ? e.text : null;
    if (!text) {
        return [];
    }
    const role = String(e.role ?? e.sender ?? 'ai');
    return [{ who: role === 'user' || role === 'customer' ? 'customer' : 'ai', text }];
}

/**
 * Who the agent is talking to (issue 14): the phone (and whether it was proved with a code), loyalty points and
 * the last orders from the provider, the AI conversation before the hand-off, and earlier chats of that phone.
 */
export function CustomerPanel({ session, onBack, originalQuestion }: { session: ChatSession | null; onBack?(): void; originalQuestion?: string | null }) {
    const context = useCustomerContext(session?.sessionId ?? null);
    const phone = usePhoneFormat();
    const t = useT();
    const time = useStaffTime();
    const day = (iso: string | null | undefined) => time(iso, 'date');
    const head = (
        <div className="lc-pane-head">
            {onBack && <Button className="lc-pane-back" minimal icon="arrow-left" aria-label={t('console.backToConversation')} onClick={onBack} />}
            <h2 id="lc-customer-title" className="lc-pane-title">{t('console.customer')}</h2>
        </div>
    );
    if (!session) {
        return <aside className="lc-customer lc-pane" aria-labelledby="lc-customer-title">{head}<NonIdealState icon="person" description={t('console.pickChat')} /></aside>;
    }
    const c = context.data;
    const ai = (c?.aiConversation ?? []).flatMap(aiTurn);
    return (
        <aside className="lc-customer lc-pane" aria-labelledby="lc-customer-title" data-testid="customer-panel">
            {head}
            <div className="lc-customer-body">
                <Visitor session={session} />
                {context.isPending && <Spinner size={24} />}
                {context.isError && <Callout intent="danger">{context.error instanceof ApiError ? context.error.serverMessage : t('console.customerLoadFailed')}</Callout>}
                {c && (
                    <>
                        <section aria-label={t('console.phone')} className="lc-customer-section">
                            <div className="lc-customer-phone" data-testid="customer-phone">{phone(c.phoneNumber) ?? t('console.noPhone')}</div>
                            {c.phoneNumber && (c.phoneVerified
                                ? <Tag intent="success" minimal icon="tick-circle">{t('console.verified')}</Tag>
                                : <Tag intent="warning" minimal icon="warning-sign">{t('console.notVerified')}</Tag>)}
                        </section>
                        <section aria-labelledby="lc-loyalty-title" className="lc-customer-section">
                            <h3 id="lc-loyalty-title" className="lc-customer-heading">{t('console.loyalty')}</h3>
                            {c.customer ? (
                                <dl className="lc-facts">
                                    <div><dt>{t('customer.name')}</dt><dd>{c.customer.name ?? '—'}</dd></div>
                                    <div><dt>{t('console.points')}</dt><dd data-testid="customer-points">{c.customer.points.toLocaleString('en-US')}</dd></div>
                                    <div><dt>{t('customer.email')}</dt><dd>{c.customer.email ?? '—'}</dd></div>
                                    <div><dt>{t('console.loyaltyId')}</dt><dd>{c.customer.loyaltyId ?? '—'}</dd></div>
                                </dl>
                            ) : <p className="lc-muted">{c.loyaltyError}</p>}
                        </section>
                        {c.customer && (
                            <section aria-labelledby="lc-orders-title" className="lc-customer-section">
                                <h3 id="lc-orders-title" className="lc-customer-heading">{t('console.lastOrders')}</h3>
                                {!c.orders.length && <p className="lc-muted">{t('console.noOrders')}</p>}
                                <ul className="lc-orders">
                                    {c.orders.map((o, i) => (
                                        <li key={`${o.orderRef ?? ''}-${i}`}>
                                            <span>{o.quantity} × {o.productName}</span>
                                            <span className="lc-muted">{money.format(o.price)} · {day(o.orderDate)}</span>
                                        </li>
                                    ))}
                                </ul>
                            </section>
                        )}
                        {(ai.length > 0 || !!originalQuestion) && (
                            <section aria-labelledby="lc-ai-title" className="lc-customer-section" data-testid="ai-conversation">
                                <h3 id="lc-ai-title" className="lc-customer-heading">{t('console.beforeHandOff')}</h3>
                                {originalQuestion && <p><strong>{t('console.originalQuestion')}</strong> {originalQuestion}</p>}
                                <ol className="lc-ai-turns">
                                    {ai.map((turn, i) => <li key={i}><strong>{t(turn.who === 'ai' ? 'console.turnAi' : 'console.turnCustomer')}</strong> {turn.text}</li>)}
                                </ol>
                            </section>
                        )}
                        <section aria-labelledby="lc-previous-title" className="lc-customer-section">
                            <h3 id="lc-previous-title" className="lc-customer-heading">{t('console.earlierChats')}</h3>
                            {!c.previousChats.length && <p className="lc-muted">{c.phoneNumber ? t('console.noEarlierChats') : t('console.unknownWithoutPhone')}</p>}
                            <ul className="lc-previous">
                                {c.previousChats.map((p) => (
                                    <li key={p.sessionId}>
                                        <Link to={`/admin-chat/history?session=${encodeURIComponent(p.sessionId)}`}>{day(p.createdAt)}</Link>
                                        <span className="lc-muted"> · {t('console.previousStats', { count: p.messageCount ?? 0, status: p.status.replace(/_/g, ' ') })}</span>
                                        {p.lastMessage && <div className="lc-chat-preview">{p.lastMessage.message}</div>}
                                    </li>
                                ))}
                            </ul>
                        </section>
                    </>
                )}
            </div>
        </aside>
    );
}
