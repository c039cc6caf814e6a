import { useState } from 'react';
import { Button, Card, Classes, Dialog, DialogBody, H2, H3, HTMLTable, Tag } from '@blueprintjs/core';
import { useDomainDetail, useDomains, useOrderHistory, type DateFilter, type OrderHistoryResponse } from '../../api/analytics';
import { Empty, Loaded, Pager, Stat, focusInside, formatDay, intlLocale, useAnalyticsFormat } from './common';
import type { AdminTextKey } from '../../i18n';
import { Download } from './Download';
import { usePhoneFormat } from '../../phone';

type OrderRow = OrderHistoryResponse['orderHistory'][number];

function OrdersDialog({ row, onClose }: { row: OrderRow | null; onClose: () => void }) {
    const d = row?.orderDetails;
    const fmt = usePhoneFormat();
    const { t, lang, number } = useAnalyticsFormat();
    // The loyalty provider's prices are US dollars (SPEC §7's order shape); the amount is written the agent's way.
    const money = new Intl.NumberFormat(intlLocale(lang), { style: 'currency', currency: 'USD' });
    return (
        <Dialog isOpen={!!row} onClose={onClose} onOpened={focusInside} title={t('an.orders.of', { phone: fmt(row?.phoneNumber) ?? '' })} className="lc-a-dialog">
            <DialogBody>
                {!d || !d.found ? <p>{d?.error ?? t('an.orders.noData')}</p> : (
                    <>
                        <p>{t('an.orders.recent', { name: d.customerName ?? t('console.customer'), count: d.totalOrders })}</p>
                        {!d.orders.length ? <p>{t('an.orders.noData')}</p> : (
                            <HTMLTable compact striped className="lc-a-table">
                                <thead><tr><th scope="col">{t('an.col.product')}</th><th scope="col">{t('an.col.quantity')}</th><th scope="col">{t('an.col.price')}</th><th scope="col">{t('an.col.date')}</th></tr></thead>
                                <tbody>{d.orders.slice(0, 5).map((o, i) => (
                                    <tr key={i}><td dir="auto">{o.productName}</td><td>{number(o.quantity)}</td><td>{money.format(o.price)}</td><td>{formatDay(o.orderDate, lang, true)}</td></tr>
                                ))}</tbody>
                            </HTMLTable>
                        )}
                    </>
                )}
            </DialogBody>
        </Dialog>
    );
}

/** Orders: order-history views with a 'View Orders' dialog (at most 5 orders). */
export function OrdersTab({ filter, timeZone }: { filter: DateFilter; timeZone: string }) {
    const fmt = usePhoneFormat();
    const [page, setPage] = useState(1);
    const [limit, setLimit] = useState(20);
    const [open, setOpen] = useState<OrderRow | null>(null);
    const orders = useOrderHistory(filter, page, limit);
    const { t, time, number } = useAnalyticsFormat(timeZone);
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">{t('an.orders.title')}</H2><Download table="order-history" filter={filter} /></div>
            <Loaded query={orders}>{(d) => (!d.orderHistory.length ? <Empty text={t('an.orders.none')} /> : (
                <>
                    <div className="lc-a-stats">
                        <Stat label={t('an.orders.views')} value={number(d.summary.totalViews)} />
                        <Stat label={t('an.orders.successful')} value={number(d.summary.successfulViews)} />
                        <Stat label={t('an.tab.phones')} value={number(d.summary.uniquePhones)} />
                        <Stat label={t('an.tab.domains')} value={number(d.summary.uniqueDomains)} />
                    </div>
                    <div className="lc-a-scroll">
                        <HTMLTable striped className="lc-a-table" data-testid="orders-table">
                            <thead><tr><th scope="col">{t('an.col.phone')}</th><th scope="col">{t('an.col.time')}</th><th scope="col">{t('an.col.result')}</th><th scope="col">{t('an.col.domain')}</th><th scope="col">{t('an.col.session')}</th><th scope="col"><span className="lc-sr-only">{t('an.tab.orders')}</span></th></tr></thead>
                            <tbody>{d.orderHistory.map((r, i) => (
                                <tr key={i}>
                                    <td>{fmt(r.phoneNumber) ?? '—'}</td>
                                    <td>{time(r.timestamp)}</td>
                                    <td>{r.success === false
                                        ? <><Tag intent="danger" round>{t('an.result.failed')}</Tag>{r.errorMessage && <div className="lc-a-error">{r.errorMessage}</div>}</>
                                        : <Tag intent="success" round minimal>{t('an.result.viewed')}</Tag>}</td>
                                    <td>{r.domain ?? '—'}</td>
                                    <td><code>{r.sessionId ? r.sessionId.slice(0, 12) : '—'}</code></td>
                                    <td><Button small text={t('an.orders.view')} onClick={() => setOpen(r)} /></td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                    </div>
                    <Pager label={t('an.tab.orders')} page={d.pagination.page} totalPages={d.pagination.totalPages} limit={limit}
                        onPage={setPage} onLimit={(n) => { setLimit(n); setPage(1); }} />
                </>
            ))}</Loaded>
            <OrdersDialog row={open} onClose={() => setOpen(null)} />
        </Card>
    );
}

const DOMAIN_PAGE = 50;

/** The analytics actions with a label of their own (`an.action.<action>`); another shows the server's description. */
const ACTIONS = ['widget_loaded', 'widget_opened', 'question_clicked', 'live_chat_requested', 'verification_sent', 'verification_failed', 'points_retrieved',
    'code_verification_failed', 'order_history_viewed', 'loyalty_verify_attempt'];

/** A domain's last activity: the hour it fell in, a wall time of the store's zone ('2026-11-27T14:00:00', no offset). */
function wallTime(local: string, lang: string): string {
    const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(local);
    if (!m) {
        return local;
    }
    return new Intl.DateTimeFormat(intlLocale(lang), { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })
        .format(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])));
}

function DomainActivity({ domain, filter, timeZone }: { domain: string; filter: DateFilter; timeZone: string }) {
    const detail = useDomainDetail(domain, filter);
    const fmt = usePhoneFormat();
    const [page, setPage] = useState(1);
    const { t, time } = useAnalyticsFormat(timeZone);
    return (
        <Loaded query={detail}>{(d) => {
            const pages = Math.max(1, Math.ceil(d.activity.length / DOMAIN_PAGE));
            const first = Math.max(1, Math.min(page - 2, pages - 4));
            const buttons = Array.from({ length: Math.min(5, pages) }, (_, i) => first + i);
            return (
                <>
                    <HTMLTable compact striped className="lc-a-table">
                        <thead><tr><th scope="col">{t('an.col.action')}</th><th scope="col">{t('an.col.result')}</th><th scope="col">{t('an.col.phone')}</th><th scope="col">{t('an.col.time')}</th></tr></thead>
                        <tbody>{d.activity.slice((page - 1) * DOMAIN_PAGE, page * DOMAIN_PAGE).map((a, i) => (
                            <tr key={i}><td>{ACTIONS.includes(a.action) ? t(`an.action.${a.action}` as AdminTextKey) : a.actionDescription}</td><td>{a.success === null ? '—' : a.success ? t('an.result.ok') : t('an.result.failed')}</td><td>{fmt(a.phoneNumber) ?? '—'}</td><td>{time(a.timestamp)}</td></tr>
                        ))}</tbody>
                    </HTMLTable>
                    {pages > 1 && (
                        <div className="lc-pager" role="group" aria-label={t('an.domains.pages', { domain })}>
                            {buttons.map((n) => <Button key={n} small text={t('common.number', { value: n })} intent={n === page ? 'primary' : 'none'} aria-current={n === page ? 'page' : undefined} onClick={() => setPage(n)} />)}
                        </div>
                    )}
                </>
            );
        }}</Loaded>
    );
}

/** Domains: one card per domain with its activity (client-side paging, 5 page buttons). */
export function DomainsTab({ filter, timeZone }: { filter: DateFilter; timeZone: string }) {
    const domains = useDomains(filter);
    const [open, setOpen] = useState<string | null>(null);
    const { t, lang, number } = useAnalyticsFormat(timeZone);
    return (
        <div>
            <div className="lc-a-card-head"><H2 className="lc-a-h2">{t('an.tab.domains')}</H2><Download table="domains" filter={filter} /></div>
            <Loaded query={domains}>{(rows) => (!rows.length ? <Empty text={t('an.domains.none')} /> : (
                <div className="lc-a-grid">{rows.map((r) => (
                    <Card key={r.domain} className="lc-a-card" data-testid="domain-card">
                        <H3 className="lc-a-h3 lc-a-domain" dir="ltr">{r.domain}</H3>
                        <div className="lc-a-stats lc-a-stats-small">
                            <div><strong>{number(r.totalInteractions)}</strong> {t('an.domains.interactions', { count: r.totalInteractions })}</div>
                            <div><strong>{number(r.successfulVerifications)}</strong> {t('an.domains.verified', { count: r.successfulVerifications })}</div>
                            <div><strong>{number(r.failedVerifications)}</strong> {t('an.domains.failed', { count: r.failedVerifications })}</div>
                            <div><strong>{number(r.liveChatRequests)}</strong> {t('an.domains.liveChats', { count: r.liveChatRequests })}</div>
                        </div>
                        <p className={Classes.TEXT_MUTED}>{t('an.domains.lastActivity', { time: r.lastActivity ? wallTime(r.lastActivity, lang) : '—', zone: timeZone })}</p>
                        <Button small icon={open === r.domain ? 'chevron-up' : 'chevron-down'} aria-expanded={open === r.domain}
                            text={open === r.domain ? t('an.domains.hide') : t('an.domains.show')} onClick={() => setOpen(open === r.domain ? null : r.domain)} />
                        {open === r.domain && <DomainActivity domain={r.domain} filter={filter} timeZone={timeZone} />}
                    </Card>
                ))}</div>
            ))}</Loaded>
        </div>
    );
}
