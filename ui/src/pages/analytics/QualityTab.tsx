import { Card, H2, HTMLTable } from '@blueprintjs/core';
import { useCsat, type DateFilter } from '../../api/analytics';
import { BarChart, COLORS, LineChart } from './charts';
import { Empty, Loaded, Stat, useAnalyticsFormat } from './common';
import { Download } from './Download';

/**
 * The Quality tab (issue 28): how customers rated their chats in the range (responses, average, the 1–5 distribution,
 * the daily trend) and the one per-agent report: ratings, chats handled, median first response and handling time.
 * Figures come from GET /api/analytics/csat, in the store's zone; the agent table downloads as CSV.
 */
export default function QualityTab({ filter }: { filter: DateFilter }) {
    const csat = useCsat(filter);
    const { t, number, percent, wait, day } = useAnalyticsFormat();
    const seconds = (v: number | null) => (v === null ? '—' : wait(v));
    return (
        <Loaded query={csat}>{(d) => (
            <div className="lc-a-grid" data-testid="quality-tab">
                <Card className="lc-a-card lc-a-wide">
                    <div className="lc-a-card-head"><H2 className="lc-a-h2">{t('quality.title')}</H2></div>
                    <div className="lc-a-stats">
                        <Stat label={t('quality.responses')} value={<span data-testid="csat-responses">{number(d.responses)}</span>} />
                        <Stat label={t('quality.average')} value={<span data-testid="csat-average">{d.responses ? number(d.average) : '—'}</span>} />
                        <Stat label={t('quality.satisfied')} value={d.responses ? percent(Math.round(((d.distribution['4'] + d.distribution['5']) / d.responses) * 100)) : '—'} />
                    </div>
                    {!d.responses && <Empty text={t('quality.none')} />}
                </Card>
                <Card className="lc-a-card" data-testid="csat-distribution-chart">
                    <H2 className="lc-a-h2">{t('quality.distribution')}</H2>
                    <BarChart title={t('quality.distribution')} width={420}
                        rows={(['1', '2', '3', '4', '5'] as const).map((score) => ({ label: number(Number(score)), values: [d.distribution[score]] }))}
                        series={[{ name: t('quality.ratings'), color: COLORS.points }]} />
                    <ul className="lc-a-distribution" data-testid="csat-distribution">
                        {(['5', '4', '3', '2', '1'] as const).map((score) => <li key={score}>{t('quality.scoreCount', { score: Number(score), count: d.distribution[score] })}</li>)}
                    </ul>
                </Card>
                <Card className="lc-a-card" data-testid="csat-daily">
                    <H2 className="lc-a-h2">{t('quality.daily')}</H2>
                    <LineChart title={t('quality.daily')} width={560}
                        rows={d.daily.map((r) => ({ label: day(r.date), values: [r.responses, r.responses ? r.average : null] }))}
                        series={[{ name: t('quality.responses'), color: COLORS.points }, { name: t('quality.average'), color: COLORS.successful }]} />
                </Card>
                <Card className="lc-a-card lc-a-wide">
                    <div className="lc-a-card-head"><H2 className="lc-a-h2">{t('quality.agents')}</H2><Download table="csat" filter={filter} /></div>
                    {!d.byAgent.length ? <Empty text={t('quality.noAgents')} /> : (
                        <div className="lc-a-scroll">
                            <HTMLTable compact striped className="lc-a-table" data-testid="csat-agents">
                                <thead><tr>
                                    <th scope="col">{t('quality.agent')}</th><th scope="col">{t('quality.chats')}</th><th scope="col">{t('quality.responses')}</th>
                                    <th scope="col">{t('quality.average')}</th><th scope="col">{t('quality.firstResponse')}</th><th scope="col">{t('quality.handling')}</th>
                                </tr></thead>
                                <tbody>{d.byAgent.map((a) => (
                                    <tr key={a.agentId}>
                                        <td dir="auto">{a.name}</td><td>{number(a.chats)}</td><td>{number(a.responses)}</td><td>{a.responses ? number(a.average) : '—'}</td>
                                        <td>{seconds(a.medianFirstResponseSeconds)}</td><td>{seconds(a.medianHandlingSeconds)}</td>
                                    </tr>
                                ))}</tbody>
                            </HTMLTable>
                        </div>
                    )}
                </Card>
            </div>
        )}</Loaded>
    );
}
