import { useState } from 'react';
import { Button, Card, Classes, Dialog, DialogBody, H2, H3, HTMLTable, Tag } from '@blueprintjs/core';
import { useDomainDetail, useDomains, useOrderHistory, type DateFilter, type OrderHistoryResponse } from '../../api/analytics';
import { Empty, formatTime, Loaded, Pager, Stat, focusInside } from './common';
import { Download } from './Download';
import { usePhoneFormat } from '../../phone';

type OrderRow = OrderHistoryResponse['orderHistory'][number];

function OrdersDialog({ row, onClose }: { row: OrderRow | null; onClose: () => void }) {
    const d = row?.orderDetails;
    const fmt = usePhoneFormat();
    return (
        <Dialog isOpen={!!row} onClose={onClose} onOpened={focusInside} title={`Orders of ${fmt(row?.phoneNumber) ?? ''}`} className="lc-a-dialog">
            <DialogBody>
                {!d || !d.found ? <p>{d?.error ?? 'No order data available'}</p> : (
                    <>
                        <p>{d.customerName ?? 'Customer'} · {d.totalOrders} recent orders</p>
                        {!d.orders.length ? <p>No order data available</p> : (
                            <HTMLTable compact striped className="lc-a-table">
                                <thead><tr><th scope="col">Product</th><th scope="col">Qty</th><th scope="col">Price</th><th scope="col">Date</th></tr></thead>
                                <tbody>{d.orders.slice(0, 5).map((o, i) => (
                                    <tr key={i}><td>{o.productName}</td><td>{o.quantity}</td><td>${o.price.toFixed(2)}</td><td>{o.orderDate.slice(0, 10)}</td></tr>
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
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head"><H2 className="lc-a-h2">Order history views</H2><Download table="order-history" filter={filter} /></div>
            <Loaded query={orders}>{(d) => (!d.orderHistory.length ? <Empty text="No order history analytics data available" /> : (
                <>
                    <div className="lc-a-stats">
                        <Stat label="Views" value={d.summary.totalViews} />
                        <Stat label="Successful" value={d.summary.successfulViews} />
                        <Stat label="Phones" value={d.summary.uniquePhones} />
                        <Stat label="Domains" value={d.summary.uniqueDomains} />
                    </div>
                    <div className="lc-a-scroll">
                        <HTMLTable striped className="lc-a-table" data-testid="orders-table">
                            <thead><tr><th scope="col">Phone</th><th scope="col">Time</th><th scope="col">Result</th><th scope="col">Domain</th><th scope="col">Session</th><th scope="col"><span className="lc-sr-only">Orders</span></th></tr></thead>
                            <tbody>{d.orderHistory.map((r, i) => (
                                <tr key={i}>
                                    <td>{fmt(r.phoneNumber) ?? '—'}</td>
                                    <td>{formatTime(r.timestamp, timeZone)}</td>
                                    <td>{r.success === false
                                        ? <><Tag intent="danger" round>Failed</Tag>{r.errorMessage && <div className="lc-a-error">{r.errorMessage}</div>}</>
                                        : <Tag intent="success" round minimal>Viewed</Tag>}</td>
                                    <td>{r.domain ?? '—'}</td>
                                    <td><code>{r.sessionId ? r.sessionId.slice(0, 12) : '—'}</code></td>
                                    <td><Button small text="View Orders" onClick={() => setOpen(r)} /></td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                    </div>
                    <Pager label="Orders" page={d.pagination.page} totalPages={d.pagination.totalPages} limit={limit}
                        onPage={setPage} onLimit={(n) => { setLimit(n); setPage(1); }} />
                </>
            ))}</Loaded>
            <OrdersDialog row={open} onClose={() => setOpen(null)} />
        </Card>
    );
}

const DOMAIN_PAGE = 50;

function DomainActivity({ domain, filter, timeZone }: { domain: string; filter: DateFilter; timeZone: string }) {
    const detail = useDomainDetail(domain, filter);
    const fmt = usePhoneFormat();
    const [page, setPage] = useState(1);
    return (
        <Loaded query={detail}>{(d) => {
            const pages = Math.max(1, Math.ceil(d.activity.length / DOMAIN_PAGE));
            const first = Math.max(1, Math.min(page - 2, pages - 4));
            const buttons = Array.from({ length: Math.min(5, pages) }, (_, i) => first + i);
            return (
                <>
                    <HTMLTable compact striped className="lc-a-table">
                        <thead><tr><th scope="col">Action</th><th scope="col">Result</th><th scope="col">Phone</th><th scope="col">Time</th></tr></thead>
                        <tbody>{d.activity.slice((page - 1) * DOMAIN_PAGE, page * DOMAIN_PAGE).map((a, i) => (
                            <tr key={i}><td>{a.actionDescription}</td><td>{a.success === null ? '—' : a.success ? 'OK' : 'Failed'}</td><td>{fmt(a.phoneNumber) ?? '—'}</td><td>{formatTime(a.timestamp, timeZone)}</td></tr>
                        ))}</tbody>
                    </HTMLTable>
                    {pages > 1 && (
                        <div className="lc-pager" role="group" aria-label={`Activity of ${domain}, pages`}>
                            {buttons.map((n) => <Button key={n} small text={String(n)} intent={n === page ? 'primary' : 'none'} aria-current={n === page ? 'page' : undefined} onClick={() => setPage(n)} />)}
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
    return (
        <div>
            <div className="lc-a-card-head"><H2 className="lc-a-h2">Domains</H2><Download table="domains" filter={filter} /></div>
            <Loaded query={domains}>{(rows) => (!rows.length ? <Empty text="No domain activity for the selected time range" /> : (
                <div className="lc-a-grid">{rows.map((r) => (
                    <Card key={r.domain} className="lc-a-card" data-testid="domain-card">
                        <H3 className="lc-a-h3">{r.domain}</H3>
                        <div className="lc-a-stats lc-a-stats-small">
                            <div><strong>{r.totalInteractions}</strong> interactions</div>
                            <div><strong>{r.successfulVerifications}</strong> verified</div>
                            <div><strong>{r.failedVerifications}</strong> failed</div>
                            <div><strong>{r.liveChatRequests}</strong> live chats</div>
                        </div>
                        <p className={Classes.TEXT_MUTED}>Last activity {r.lastActivity ? r.lastActivity.replace('T', ' ') : '—'}</p>
                        <Button small icon={open === r.domain ? 'chevron-up' : 'chevron-down'} aria-expanded={open === r.domain}
                            text={open === r.domain ? 'Hide activity' : 'Show activity'} onClick={() => setOpen(open === r.domain ? null : r.domain)} />
                        {open === r.domain && <DomainActivity domain={r.domain} filter={filter} timeZone={timeZone} />}
                    </Card>
                ))}</div>
            ))}</Loaded>
        </div>
    );
}
