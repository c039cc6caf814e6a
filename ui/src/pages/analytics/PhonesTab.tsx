import { useState } from 'react';
import { Button, Card, Classes, Dialog, DialogBody, H2, HTMLTable, Tag } from '@blueprintjs/core';
import { useCustomerLookup, usePhoneDetails, usePhones, type DateFilter, type PhoneRow } from '../../api/analytics';
import { Empty, formatTime, Loaded, Pager, RateBadge, rateColor, useMediaQuery, focusInside } from './common';
import { Download } from './Download';
import { usePhoneFormat } from '../../phone';

function Lookup({ row }: { row: PhoneRow }) {
    const lookup = useCustomerLookup(row.phoneNumber, row.lookup);
    if (lookup.isPending) {
        return <span className={Classes.TEXT_MUTED}>Looking up…</span>;
    }
    const data = lookup.data;
    if (!data || data.error) {
        return <span className="lc-text-danger">{data?.error === 'Failed to load' || !data ? 'Failed to load' : data.error}</span>;
    }
    return data.found ? <span>{data.name ?? 'Member'}{data.email ? <span className={Classes.TEXT_MUTED}> · {data.email}</span> : null}</span> : <span className={Classes.TEXT_MUTED}>Not a member</span>;
}

function PhoneDialog({ phone, filter, timeZone, onClose }: { phone: string | null; filter: DateFilter; timeZone: string; onClose: () => void }) {
    const details = usePhoneDetails(phone, filter);
    const fmt = usePhoneFormat();
    return (
        <Dialog isOpen={!!phone} onClose={onClose} onOpened={focusInside} title={`Phone ${fmt(phone) ?? ''}`} className="lc-a-dialog">
            <DialogBody>
                <Loaded query={details}>{(d) => (
                    <div>
                        <div className="lc-a-stats lc-a-stats-small">
                            <div><strong>{d.summary.totalInteractions}</strong> interactions</div>
                            <div><strong>{d.summary.pointsViewings}</strong> points views</div>
                            <div>latest <strong>{d.summary.latestPoints ?? '—'}</strong></div>
                            <div>average <strong>{d.summary.averagePoints ?? '—'}</strong></div>
                        </div>
                        <h3 className="lc-a-h3">Actions</h3>
                        <ul className="lc-a-breakdown">
                            {Object.entries(d.actionBreakdown).map(([action, n]) => <li key={action}><code>{action}</code> {n}</li>)}
                        </ul>
                        <h3 className="lc-a-h3">Points history</h3>
                        {d.pointsHistory.length ? (
                            <HTMLTable compact striped className="lc-a-table">
                                <thead><tr><th scope="col">Points</th><th scope="col">Domain</th><th scope="col">Time</th></tr></thead>
                                <tbody>{d.pointsHistory.slice(0, 50).map((p, i) => <tr key={i}><td>{p.points}</td><td>{p.domain ?? '—'}</td><td>{formatTime(p.timestamp, timeZone)}</td></tr>)}</tbody>
                            </HTMLTable>
                        ) : <p className={Classes.TEXT_MUTED}>No points were shown to this phone in the range.</p>}
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
    return (
        <Card className="lc-a-card">
            <div className="lc-a-card-head">
                <H2 className="lc-a-h2">Phones</H2>
                <Download table="phones" filter={filter} />
            </div>
            <Loaded query={phones}>{(result) => (!result.data.length ? <Empty text="No phone number data available for the selected time range" /> : (
                <>
                    {wide ? (
                        <HTMLTable striped interactive className="lc-a-table" data-testid="phones-table">
                            <thead><tr>
                                <th scope="col">Phone</th><th scope="col">Customer</th><th scope="col">Interactions</th><th scope="col">Verified</th>
                                <th scope="col">Failed</th><th scope="col">Last points</th><th scope="col">Success</th><th scope="col">Last activity</th>
                            </tr></thead>
                            <tbody>{result.data.map((r) => (
                                <tr key={r.phoneNumber}>
                                    <td><Button minimal small className="lc-link-button" text={fmt(r.phoneNumber) ?? r.phoneNumber} onClick={() => setSelected(r.phoneNumber)} /></td>
                                    <td><Lookup row={r} /></td>
                                    <td>{r.totalInteractions}</td><td>{r.successfulVerifications}</td><td>{r.failedVerifications}</td>
                                    <td>{r.lastPointsShown ?? '—'}</td><td>{r.successfulVerifications + r.failedVerifications ? <RateBadge rate={r.successRate} /> : '—'}</td><td>{formatTime(r.lastActivity, timeZone)}</td>
                                </tr>
                            ))}</tbody>
                        </HTMLTable>
                    ) : (
                        <ul className="lc-a-cards" data-testid="phones-cards">{result.data.map((r) => (
                            <li key={r.phoneNumber}>
                                <button type="button" className="lc-a-phone-card" onClick={() => setSelected(r.phoneNumber)}>
                                    <span className="lc-a-phone-number">{fmt(r.phoneNumber) ?? r.phoneNumber}</span>
                                    {r.successfulVerifications + r.failedVerifications
                                        ? <span className={`lc-rate lc-rate-${rateColor(r.successRate)}`}>{r.successRate}%</span> : <span>—</span>}
                                    <span className="lc-a-phone-meta">{r.totalInteractions} interactions · last points {r.lastPointsShown ?? '—'}</span>
                                    <span className="lc-a-phone-meta">{formatTime(r.lastActivity, timeZone)}</span>
                                </button>
                                <div className="lc-a-phone-lookup"><Lookup row={r} /></div>
                            </li>
                        ))}</ul>
                    )}
                    <Pager label="Phones" page={result.pagination.page} totalPages={result.pagination.totalPages} limit={limit}
                        onPage={setPage} onLimit={(n) => { setLimit(n); setPage(1); }} />
                    <Tag minimal>{result.pagination.total} phones</Tag>
                </>
            ))}</Loaded>
            <PhoneDialog phone={selected} filter={filter} timeZone={timeZone} onClose={() => setSelected(null)} />
        </Card>
    );
}
