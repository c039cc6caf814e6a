import { Card, H2 } from '@blueprintjs/core';
import { useDaily, useHourly, type AnalyticsSummary, type DateFilter } from '../../api/analytics';
import { BarChart, COLORS, PieChart } from './charts';
import { Loaded, useAnalyticsFormat } from './common';

/** Overview: pie of interaction types, hourly bars and stacked daily bars (7 days by default, SPEC §9). */
export default function OverviewTab({ summary, filter }: { summary: AnalyticsSummary; filter: DateFilter }) {
    const hourly = useHourly(filter);
    const daily = useDaily(filter);
    const other = Math.max(0, summary.totalInteractions - summary.successfulVerifications - summary.failedVerifications);
    const { t, number, day } = useAnalyticsFormat();
    return (
        <div className="lc-a-overview">
            <Card className="lc-a-card">
                <H2 className="lc-a-h2">{t('an.overview.types')}</H2>
                <PieChart title={t('an.overview.types')} slices={[
                    { label: t('an.overview.successful'), value: summary.successfulVerifications, color: COLORS.successful },
                    { label: t('an.overview.failed'), value: summary.failedVerifications, color: COLORS.failed },
                    { label: t('an.overview.other'), value: other, color: COLORS.other }
                ]} />
            </Card>
            <Card className="lc-a-card">
                <H2 className="lc-a-h2">{t('an.overview.byHour')}</H2>
                <Loaded query={hourly}>{(rows) => (
                    <BarChart width={640} title={t('an.overview.byHourChart')} rows={rows.map((r) => ({ label: number(r.hour), values: [r.widget_opened, r.verified, r.points_viewed] }))}
                        series={[{ name: t('org.series.opened'), color: COLORS.other }, { name: t('org.series.verified'), color: COLORS.successful }, { name: t('org.series.points'), color: COLORS.points }]} />
                )}</Loaded>
            </Card>
            <Card className="lc-a-card lc-a-wide">
                <H2 className="lc-a-h2">{t('an.overview.byDay')}</H2>
                <Loaded query={daily}>{(rows) => (
                    <BarChart width={960} height={240} stacked title={t('an.overview.byDayChart')} rows={rows.map((r) => ({ label: day(r.date), values: [r.widget_opened, r.verified, r.points_viewed, r.live_chat_requested] }))}
                        series={[{ name: t('org.series.opened'), color: COLORS.other }, { name: t('org.series.verified'), color: COLORS.successful }, { name: t('org.series.points'), color: COLORS.points }, { name: t('org.series.liveChat'), color: COLORS.failed }]} />
                )}</Loaded>
            </Card>
        </div>
    );
}
