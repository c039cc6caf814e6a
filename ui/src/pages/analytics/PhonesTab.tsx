import { useState } from 'react';
import { Button, Card, Classes, Dialog, DialogBody, H2, HTMLTable, Tag } from '@blueprintjs/core';
import { useCustomerLookup, usePhoneDetails, usePhones, type DateFilter, type PhoneRow } from '../../api/analytics';
import { Empty, Loaded, Pager, RateBadge, rateColor, useMediaQuery, focusInside, useAnalyticsFormat } from './common';
import { Download } from './Download';
import { usePhoneFormat } from '../../phone';

function Lookup({ row }: { row: PhoneRow }) {
    const lookup = useCustomerLookup(row.phoneNumber, row.lookup);
    const { t } = useAnalyticsFormat();
    if (lookup.isPending) {
        return <span className={Classes.TEXT_MUTED} data-testid="lookup-pending">{t('an.phones.lookingUp')}</span>;
    }
    const data = lookup.data;
    if (!data || data.error) {
        return <span className="lc-text-danger">{data?.error === 'Failed to load' || !data ? t('an.phones.loadFailed') : data.error}</span>;
    }
    return data.found ? <span className="lc-a-member">{data.name ?? t('an.phones.member')}{data.email ? <span className={Classes.TEXT_MUTED}> · {data.email}</span> : null}</span> : <span className={Classes.TEXT_MUTED}>{t('an.phones.notMember')}</span>;
}

function PhoneDialog({ phone, filter, timeZone, onClose }: { phone: string | null; filter: DateFilter; timeZone: string; onClose: () => void }) {
    const details = usePhoneDetails(phone, filter);
    const fmt = usePhoneFormat();
    const { t, time, number } = useAnalyticsFormat(timeZone);
    return (
        <Dialog isOpen={!!phone} onClose={onClose} onOpened={focusInside} title={t('an.phones.dialog', { phone: fmt(phone) ?? '' })} className="lc-a-dialog">
            <DialogBody>
                <Loaded query={details}>{(d) => (
                    <div>
                        <div className="lc-a-stats lc-a-stats-small">
                            <div><strong>{number(d.summary.totalInteractions)}</strong> {t('an.domains.interactions', { count: d.summary.totalInteractions })}</div>
                            <div><strong>{number(d.summary.pointsViewings)}</strong> {t('an.phones.pointsViews', { count: d.summary.pointsViewings })}</div>
                            <div>{t('an.phones.latest')} <strong>{number(d.summary.latestPoints)}</strong></div>
                            <div>{t('an.phones.average')} <strong>{number(d.summary.averagePoints)}</strong></div>
                        </div>
                        <h3 className="lc-a-h3">{t('an.phones.actions')}</h3>
                        <ul className="lc-a-breakdown">
                            {Object.entries(d.actionBreakdown).map(([action, n]) => <li key={action}><code>{action}</code> {number(n)}</li>)}
                        </ul>
                        <h3 className="lc-a-h3">{t('an.phones.history')}</h3>
                        {d.pointsHistory.length ? (
                            <HTMLTable compact striped className="lc-a-table">
                                <thead><tr><th scope="col">{t('console.points')}</th><th scope="col">{t('an.col.domain')}</th><th scope="col">{t('an.col.time')}</th></tr></thead>
                                <tbody>{d.pointsHistory.slice(0, 50).map((p, i) => <tr key={i}><td>{number(p.points)}</td><td>{p.domain ?? '—'}</td><td>{time(p.timestamp)}</td></tr>)}</tbody>
                            </HTMLTable>
                        ) : <p className={Classes.TEXT_MUTED}>{t('an.phones.noHistory')}</p>}
                    </div>
                )}</Loaded>
            </DialogBody>
        </Dialog>
    );
}

/** Phones: a table on wide screens, cards on small ones; a phone opens its details (SPEC §2). */
export default function PhonesTab({ filter, timeZone }: { filter: DateFilter; timeZone: string }) {
    const fmt = usePhoneFormat();
    const [page, setPage] = useState(1);
    const [limit, setLimit] = useState(20);
    const [selected, setSelected] = useState<string | null>(null);
    const wide = useMediaQuery('(min-width: 760px)');
    const phones = usePhones(filter, page, limit);
    const { t, time, number, percent } = useAnalyticsFormat(timeZone);
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head">
                <H2 className="lc-a-h2">{t('an.tab.phones')}</H2>
                <Download table="phones" filter={filter} />
            </div>
            <Loaded query={phones}>{(result) => (!result.data.length ? <Empty text={t('an.phones.none')} /> : (
                <>
                    {wide ? (
                        <HTMLTable striped interactive className="lc-a-table" data-testid="phones-table">
                            <thead><tr>
                                <th scope="col">{t('an.col.phone')}</th><th scope="col">{t('console.customer')}</th><th scope="col">{t('an.col.interactions')}</th><th scope="col">{t('an.col.verified')}</th>
                                <th scope="col">{t('an.col.failed')}</th><th scope="col">{t('an.col.lastPoints')}</th><th scope="col">{t('an.col.success')}</th><th scope="col">{t('an.col.lastActivity')}</th>
                            </tr></thead>
                            <tbody>{result.data.map((r) => (
                                <tr key={r.phoneNumber}>
                                    <td><Button minimal small className="lc-link-button" text={fmt(r.phoneNumber) ?? r.phoneNumber} onClick={() => setSelected(r.phoneNumber)} /></td>
                                    <td><Lookup row={r} /></td>
                                    <td>{number(r.totalInteractions)}</td><td>{number(r.successfulVerifications)}</td><td>{number(r.failedVerifications)}</td>
                                    <td>{number(r.lastPointsShown)}</td><td>{r.successfulVerifications + r.failedVerifications ? <RateBadge rate={r.successRate} /> : '—'}</td><td>{time(r.lastActivity)}</td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                    ) : (
                        <ul className="lc-a-cards" data-testid="phones-cards">{result.data.map((r) => (
                            <li key={r.phoneNumber}>
                                <button type="button" className="lc-a-phone-card" onClick={() => setSelected(r.phoneNumber)}>
                                    <span className="lc-a-phone-number">{fmt(r.phoneNumber) ?? r.phoneNumber}</span>
                                    {r.successfulVerifications + r.failedVerifications
                                        ? <span className={`lc-rate lc-rate-${rateColor(r.successRate)}`}>{percent(r.successRate)}</span> : <span>—</span>}
                                    <span className="lc-a-phone-meta">{t('an.phones.cardMeta', { count: r.totalInteractions, points: number(r.lastPointsShown) })}</span>
                                    <span className="lc-a-phone-meta">{time(r.lastActivity)}</span>
                                </button>
                                <div className="lc-a-phone-lookup"><Lookup row={r} /></div>
                            </li>
                        ))}</ul>
                    )}
                    <Pager label={t('an.tab.phones')} page={result.pagination.page} totalPages={result.pagination.totalPages} limit={limit}
                        onPage={setPage} onLimit={(n) => { setLimit(n); setPage(1); }} />
                    <Tag minimal>{t('an.phones.total', { count: result.pagination.total })}</Tag>
                </>
            ))}</Loaded>
            <PhoneDialog phone={selected} filter={filter} timeZone={timeZone} onClose={() => setSelected(null)} />
        </Card>
    );
}
